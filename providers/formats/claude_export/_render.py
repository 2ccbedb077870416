"""Writing a conversation as a Claude.ai export entry: one read from this format back as it
was (another format's is written by ``_render_foreign``)."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.values import kept_iso, put_back
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import FORMAT_ID, KNOWLEDGE_SOURCE, NS, SENDER_OF, UNMAPPED, UPLOADS
from ._rules import default_text, written_parent


def render_conversation(conversation: Conversation) -> dict[str, Any]:
    """The entry a conversation read from this format was read from."""
    out: dict[str, Any] = {}
    if conversation.metadata.title is not None:
        out["name"] = conversation.metadata.title
    created = conversation.metadata.timestamp
    if created is not None:
        out["created_at"] = kept_iso(created, NS.hint(conversation.extra, "created_at"))
    out["chat_messages"] = [render_message(message) for message in conversation.messages]
    return {**out, **NS.fields(conversation.extra)}


def render_message(message: Message) -> dict[str, Any]:
    """One chat message read from this format."""
    uploads: dict[str, list[Any]] = {key: [] for key in UPLOADS}
    content: list[Block] = []
    for block in message.content:
        kind = NS.hint(block.extra, "field")
        if isinstance(block, DocumentBlock) and kind in UPLOADS:
            uploads[kind].append(_render_upload(block))
        else:
            content.append(block)
    own = message.extra.get(FORMAT_ID, {})  # read once: this runs for every message
    out: dict[str, Any] = {"uuid": message.id, "sender": SENDER_OF[message.role]}
    if not own.get("$no_text"):
        out["text"] = own.get("$text", default_text(content))
    if own.get("$content") != "absent":
        out["content"] = render_blocks(content, own.get(UNMAPPED))
    absent = own.get("$absent", [])
    out.update({key: items for key, items in uploads.items() if key not in absent})
    if message.timestamp is not None:
        out["created_at"] = kept_iso(message.timestamp, own.get("$created_at"))
    named, parent = written_parent(message)
    if named:
        out["parent_message_uuid"] = parent
    return {**out, **_fields(message, UNMAPPED)}


def _render_upload(block: DocumentBlock) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if block.filename is not None:
        out["file_name"] = block.filename
    if NS.hint(block.extra, "data") != "absent":
        out["extracted_content"] = block.source.data or ""
    return {**out, **NS.fields(block.extra)}


def render_blocks(blocks: list[Block], unmapped: JSON) -> list[Any]:
    """The content blocks of blocks read from this format, unmapped ones put back."""
    return put_back([render_block(block) for block in blocks], unmapped)


def render_block(block: Block) -> dict[str, Any]:
    """One content block of a block read from this format (or fitted to it)."""
    if isinstance(block, TextBlock):
        out: dict[str, Any] = {"type": "text", "text": block.text}
        if block.citations is not None:
            out["citations"] = block.citations
    elif isinstance(block, ThinkingBlock):
        out = {"type": "thinking", "thinking": block.text}
        if block.signature is not None and block.provider == FORMAT_ID:
            out["signature"] = block.signature
    elif isinstance(block, ToolUseBlock):
        out = {"type": "tool_use"}
        if NS.hint(block.extra, "id") is None:
            out["id"] = block.id
        elif NS.hint(block.extra, "id") == "null":
            out["id"] = None
        out["name"] = block.name
        if NS.hint(block.extra, "input") != "absent":
            out["input"] = block.input
    elif isinstance(block, ToolResultBlock):
        out = _render_result(block)
    elif isinstance(block, DocumentBlock) and NS.hint(block.extra, "knowledge"):
        out = _render_knowledge(block)
    else:
        raise ValueError(f"no Claude export block for {block.type}")
    # Only a tool result keeps unmapped blocks (its content's): another block's field of
    # that name is its own.
    skip = (UNMAPPED,) if isinstance(block, ToolResultBlock) else ()
    return {**out, **_fields(block, *skip)}


def _render_knowledge(block: DocumentBlock) -> dict[str, Any]:
    text, url = block.source.data or "", block.source.url
    out: dict[str, Any] = {"type": "knowledge"}
    if block.title is not None:
        out["title"] = block.title
    if url is not None:
        out["url"] = url
        text = text.removesuffix(f"{KNOWLEDGE_SOURCE}{url}")
    out["text"] = text
    return out


def _render_result(block: ToolResultBlock) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "tool_result"}
    id_hint = NS.hint(block.extra, "id")
    if id_hint is None:
        out["tool_use_id"] = block.tool_use_id
    elif id_hint == "null":
        out["tool_use_id"] = None
    if block.name is not None and NS.hint(block.extra, "name") != "absent":
        out["name"] = block.name
    if isinstance(block.content, list):
        out["content"] = render_blocks(block.content, block.extra.get(FORMAT_ID, {}).get(UNMAPPED))
    elif NS.hint(block.extra, "content") != "absent":
        out["content"] = block.content
    if block.is_error is not None:
        out["is_error"] = block.is_error
    elif NS.hint(block.extra, "is_error") == "null":
        out["is_error"] = None
    return out


def _fields(value: Block | Message, *skip: str) -> dict[str, Any]:
    return {k: v for k, v in NS.fields(value.extra).items() if k not in skip}
