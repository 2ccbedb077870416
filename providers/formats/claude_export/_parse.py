"""Reading one Claude.ai export conversation.

``chat_messages`` become messages (``sender`` human -> user) with ``id`` = ``uuid`` and
``parent_id`` = ``parent_message_uuid`` (the root sentinel, a parent that is not an
earlier message, a null or a missing one are kept as the ``$parent`` hint), ``timestamp``
= ``created_at`` (its text kept as ``$created_at``). ``attachments`` (text extracted from
uploads) become plain-text documents, ``files`` (uploads whose bytes the export lacks)
documents with no text, both before the ``content`` blocks and marked ``$field``. The
flattened ``text`` is kept as ``$text`` only when it is not the message's text blocks
joined. ``name`` is the title, ``created_at`` the conversation's time.
"""

from __future__ import annotations

from typing import Any

from providers.formats._archive.values import iso_time
from providers.formats._archive.wiring import Assets
from providers.formats._kit.fields import (
    refuse_kept_name,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats._kit.paths import at
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Block, Conversation, DocumentBlock, MediaSource, Message, TextBlock

from ._constants import MESSAGE_KEYS, NS, SENDERS, UNMAPPED, UPLOADS
from ._parse_blocks import BlockReader
from ._rules import default_text, link


def parse_conversation(
    raw: JSON, path: str, drift: Drift, assets: Assets | None = None
) -> Conversation:
    """One conversation of ``conversations.json`` (``path`` names it in errors; the
    export's zip holds no files its messages point to, so ``assets`` go unused)."""
    entry = require_mapping(raw, path or "payload")
    items = require_list(entry.get("chat_messages"), at(path, "chat_messages"))
    reader = BlockReader(drift)
    messages: list[Message] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        item_path = at(path, f"chat_messages[{index}]")
        message = _message(require_mapping(item, item_path), item_path, reader)
        if message.id in seen:
            raise FormatError("two messages share this uuid", field=f"{item_path}.uuid")
        link(message, item, seen)
        seen.add(str(message.id))
        messages.append(message)
    conversation = Conversation(messages=messages)
    mapped = ["chat_messages"]
    if isinstance(entry.get("name"), str):
        conversation.metadata.title = entry["name"]
        mapped.append("name")
    created = iso_time(entry.get("created_at"))
    if created is not None:
        conversation.metadata.timestamp = created
        mapped.append("created_at")
    rest = unknown_fields(entry, mapped, path=path)
    conversation.extra = NS.extra(rest, shape="conversation", created_at=entry.get("created_at"))
    return conversation


def _message(source: dict[str, Any], path: str, reader: BlockReader) -> Message:
    refuse_kept_name(source, UNMAPPED, path)
    uuid = require_str(source.get("uuid"), f"{path}.uuid")
    sender = source.get("sender")
    if not isinstance(sender, str) or sender not in SENDERS:
        raise FormatError("sender must be human or assistant", field=f"{path}.sender")
    uploads, upload_hints = _uploads(source, path)
    content, unmapped, content_hint = _content(source, path, reader)
    rest = unknown_fields(source, (*MESSAGE_KEYS, *upload_hints["mapped"]), path=path)
    if unmapped:
        rest[UNMAPPED] = unmapped
    text = source.get("text")
    text_hints: dict[str, Any] = {}
    if not isinstance(text, str):
        text_hints["no_text"] = True
        if "text" in source:
            rest["text"] = text
    elif text != default_text(content):
        text_hints["text"] = text
    timestamp = iso_time(source.get("created_at"))
    if "created_at" in source and timestamp is None:
        rest["created_at"] = source["created_at"]
    return Message(
        role=SENDERS[str(sender)],  # type: ignore[arg-type]  # checked above
        id=uuid,
        content=[*uploads, *content],
        timestamp=timestamp,
        extra=NS.extra(
            rest,
            created_at=source.get("created_at") if timestamp is not None else None,
            content=content_hint,
            absent=upload_hints["absent"] or None,
            **text_hints,
        ),
    )


def _content(
    source: dict[str, Any], path: str, reader: BlockReader
) -> tuple[list[Block], list[Any], str | None]:
    if "content" not in source:
        text = source.get("text")
        blocks: list[Block] = [TextBlock(text=text)] if isinstance(text, str) and text else []
        return blocks, [], "absent"
    blocks, unmapped = reader.read(source["content"], f"{path}.content")
    return blocks, unmapped, None


def _uploads(source: dict[str, Any], path: str) -> tuple[list[Block], dict[str, Any]]:
    blocks: list[Block] = []
    absent, mapped = [], []
    for key in UPLOADS:
        if key not in source:
            absent.append(key)
            continue
        items = source[key]
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            continue  # not a list of uploads: kept verbatim
        mapped.append(key)
        blocks.extend(_upload(item, key, f"{path}.{key}[{i}]") for i, item in enumerate(items))
    return blocks, {"absent": absent, "mapped": mapped}


def _upload(item: dict[str, Any], key: str, path: str) -> DocumentBlock:
    name = item.get("file_name")
    text = item.get("extracted_content")
    mapped = [
        k for k, v in (("file_name", name), ("extracted_content", text)) if isinstance(v, str)
    ]
    return DocumentBlock(
        source=MediaSource(
            type="text", media_type="text/plain", data=text if isinstance(text, str) else ""
        ),
        filename=name if isinstance(name, str) else None,
        extra=NS.extra(
            unknown_fields(item, mapped, path=path),
            field=key,
            data=None if isinstance(text, str) else "absent",
        ),
    )
