"""Reading one Claude.ai export conversation, and writing it back as it was.

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

from providers.formats._archive import iso_time, join_texts, same_time
from providers.formats._common import (
    refuse_kept_name,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    MediaSource,
    Message,
    TextBlock,
)

from ._blocks import FORMAT_ID, UNMAPPED, BlockReader, fields_of, get_hint, hints, render_blocks

ROOT = "00000000-0000-4000-8000-000000000000"
SENDERS = {"human": "user", "assistant": "assistant"}
SENDER_OF = {"user": "human", "assistant": "assistant"}
UPLOADS = ("attachments", "files")
_MESSAGE_KEYS = ("uuid", "sender", "text", "content", "created_at", "parent_message_uuid")


def at(path: str, key: str) -> str:
    """The path of ``key`` inside the value at ``path``."""
    return f"{path}.{key}" if path else key


def parse_conversation(raw: JSON, path: str, drift: Drift) -> Conversation:
    """One conversation of ``conversations.json`` (``path`` names it in errors)."""
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
        _link(message, item, seen)
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
    conversation.extra = hints(rest, shape="conversation", created_at=entry.get("created_at"))
    return conversation


def _link(message: Message, source: dict[str, Any], seen: set[str]) -> None:
    own = message.extra.setdefault(FORMAT_ID, {})
    if "parent_message_uuid" not in source:
        own["$parent_absent"] = True
        return
    parent = source["parent_message_uuid"]
    if isinstance(parent, str) and parent in seen:
        message.parent_id = parent
    elif parent != ROOT:
        own["$parent"] = parent


def _message(source: dict[str, Any], path: str, reader: BlockReader) -> Message:
    refuse_kept_name(source, UNMAPPED, path)
    uuid = require_str(source.get("uuid"), f"{path}.uuid")
    sender = source.get("sender")
    if not isinstance(sender, str) or sender not in SENDERS:
        raise FormatError("sender must be human or assistant", field=f"{path}.sender")
    uploads, upload_hints = _uploads(source, path)
    content, unmapped, content_hint = _content(source, path, reader)
    rest = unknown_fields(source, (*_MESSAGE_KEYS, *upload_hints["mapped"]), path=path)
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
        extra=hints(
            rest,
            created_at=source.get("created_at") if timestamp is not None else None,
            content=content_hint,
            absent=upload_hints["absent"] or None,
            **text_hints,
        ),
    )


def default_text(blocks: list[Block]) -> str:
    """The flattened ``text`` of a message: its text blocks joined (see
    :func:`~providers.formats._archive.join_texts`)."""
    return join_texts([b.text for b in blocks if isinstance(b, TextBlock)])


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
        extra=hints(
            unknown_fields(item, mapped, path=path),
            field=key,
            data=None if isinstance(text, str) else "absent",
        ),
    )


# --------------------------------------------------------------------------- render


def render_conversation(conversation: Conversation) -> dict[str, Any]:
    """The entry a conversation read from this format was read from."""
    out: dict[str, Any] = {}
    if conversation.metadata.title is not None:
        out["name"] = conversation.metadata.title
    created = conversation.metadata.timestamp
    if created is not None:
        raw = get_hint(conversation, "created_at")
        out["created_at"] = raw if same_time(iso_time(raw), created) else created.isoformat()
    out["chat_messages"] = [render_message(message) for message in conversation.messages]
    return {**out, **fields_of(conversation)}


def render_message(message: Message) -> dict[str, Any]:
    """One chat message read from this format."""
    uploads: dict[str, list[Any]] = {key: [] for key in UPLOADS}
    content: list[Block] = []
    for block in message.content:
        kind = get_hint(block, "field")
        if isinstance(block, DocumentBlock) and kind in UPLOADS:
            uploads[kind].append(_render_upload(block))
        else:
            content.append(block)
    out: dict[str, Any] = {"uuid": message.id, "sender": SENDER_OF[message.role]}
    if not get_hint(message, "no_text"):
        out["text"] = get_hint(message, "text", default_text(content))
    if get_hint(message, "content") != "absent":
        out["content"] = render_blocks(content, message.extra.get(FORMAT_ID, {}).get(UNMAPPED))
    absent = get_hint(message, "absent", [])
    out.update({key: items for key, items in uploads.items() if key not in absent})
    if message.timestamp is not None:
        raw = get_hint(message, "created_at")
        out["created_at"] = (
            raw if same_time(iso_time(raw), message.timestamp) else message.timestamp.isoformat()
        )
    own = message.extra.get(FORMAT_ID, {})
    if message.parent_id is not None:
        out["parent_message_uuid"] = message.parent_id
    elif "$parent" in own:
        out["parent_message_uuid"] = own["$parent"]
    elif not own.get("$parent_absent"):
        out["parent_message_uuid"] = ROOT
    return {**out, **fields_of(message, UNMAPPED)}


def _render_upload(block: DocumentBlock) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if block.filename is not None:
        out["file_name"] = block.filename
    if get_hint(block, "data") != "absent":
        out["extracted_content"] = block.source.data or ""
    return {**out, **fields_of(block)}
