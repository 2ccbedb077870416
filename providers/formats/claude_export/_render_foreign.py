"""A conversation from another format as a Claude.ai export conversation.

Messages keep their tree (``parent_message_uuid``; a linear conversation is a chain) and
get deterministic uuids when they have no id. Claude.ai keeps a tool's result in the
assistant message that called it, so results move there (see the package docstring for
every warning).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._archive.foreign import (
    PlainText,
    StableIds,
    report_call_dropped,
    report_request,
    thinking_text,
)
from providers.formats._archive.values import join_texts
from providers.formats._kit.drift import report_defaulted, report_message_metadata
from providers.formats.base import Drift, Rendered
from providers.umf import (
    Block,
    Conversation,
    DocumentBlock,
    Message,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import DEFAULT_FILE_NAME, ROOT, SENDER_OF, WORDS

_NO_MESSAGE_METADATA = (
    "a Claude.ai export has no per-message models, finish reasons, usage or metadata; left out"
)

_TEXT = PlainText(
    citations="Claude.ai export citations have their own shape",
    as_text=lambda block: "a refusal is written as text",
    dropped=lambda block: (
        f"a Claude.ai export keeps no {block.type} content (uploads are kept as names only)"
    ),
    documents=False,  # plain-text documents are attachments
)
_text = _TEXT.text


@dataclass
class _Context:
    drift: Drift
    ids: StableIds
    chat: list[dict[str, Any]] = field(default_factory=list)
    placed: dict[str, str] = field(default_factory=dict)
    owners: dict[str, dict[str, Any]] = field(default_factory=dict)


def render_foreign(conversation: Conversation) -> Rendered:
    """An export conversation for a conversation read from another format."""
    ctx = _Context(Drift(WORDS.format_id), StableIds.of(conversation))
    report_request(
        conversation,
        ctx.drift,
        WORDS,
        parameters_message="a Claude.ai export has no request parameters",
    )
    report_message_metadata(
        enumerate(conversation.messages),
        ctx.drift,
        _NO_MESSAGE_METADATA,
        held=("id", "timestamp"),
    )
    for index, message in enumerate(conversation.messages):
        WORDS.report_message(message, f"messages[{index}]", ctx.drift)
        parent = _parent(message, ctx)
        _place(message, index, parent, ctx)
    out: dict[str, Any] = {"uuid": ctx.ids.uuid("conversation")}
    out["name"] = conversation.metadata.title or ""
    if conversation.metadata.timestamp is not None:
        out["created_at"] = out["updated_at"] = conversation.metadata.timestamp.isoformat()
    out["chat_messages"] = ctx.chat
    return Rendered(out, ctx.drift.warnings)


def _parent(message: Message, ctx: _Context) -> str:
    # A message naming no parent follows the one before it, as storage reads a tree.
    if message.parent_id:
        return ctx.placed.get(message.parent_id, ROOT)
    return ctx.chat[-1]["uuid"] if ctx.chat else ROOT


def _place(message: Message, index: int, parent: str, ctx: _Context) -> None:
    path = f"messages[{index}]"
    blocks = list(message.content)
    loose = not any(isinstance(b, ToolResultBlock) for b in blocks)
    if message.role == "tool" and loose and message.tool_call_id is not None:
        # A tool message holding its result as plain blocks (UMF's InternalMessage shape).
        blocks = [ToolResultBlock(tool_use_id=message.tool_call_id, content=blocks)]
    results = [(i, b) for i, b in enumerate(blocks) if isinstance(b, ToolResultBlock)]
    rest: list[tuple[int, Block]] = [
        (i, b) for i, b in enumerate(blocks) if not isinstance(b, ToolResultBlock)
    ]
    owner = None
    for position, block in results:
        owner = _move_result(block, f"{path}.content[{position}]", bool(rest), ctx) or owner
    if results and not rest and owner is not None:
        ctx.placed[message.id or path] = owner["uuid"]
        ctx.drift.add(
            "role-merged",
            "Claude.ai keeps tool results in the assistant message that made the call",
            field=path,
            original=message.role,
            transformed="assistant",
        )
        return
    chat = _chat_message(message, index, parent, rest, ctx)
    ctx.placed[message.id or path] = chat["uuid"]
    ctx.chat.append(chat)


def _move_result(
    block: ToolResultBlock, path: str, keeps_others: bool, ctx: _Context
) -> dict[str, Any] | None:
    owner = ctx.owners.get(block.tool_use_id)
    if owner is None:
        ctx.drift.add("content-dropped", "a result answering no call", field=path)
        return None
    owner["content"].append(_result(block, path, ctx))
    if keeps_others:
        ctx.drift.add(
            "message-reordered",
            "Claude.ai keeps tool results in the assistant message that made the call",
            field=path,
            original=block.tool_use_id,
        )
    return owner


def _chat_message(
    message: Message, index: int, parent: str, blocks: list[tuple[int, Block]], ctx: _Context
) -> dict[str, Any]:
    path = f"messages[{index}]"
    sender = SENDER_OF.get(message.role)
    if sender is None:
        sender = "human"
        ctx.drift.add(
            "system-message-transformed",
            "a Claude.ai export has no system prompt; written as a human message",
            field=path,
            original=message.role,
            transformed="human",
        )
    out: dict[str, Any] = {"uuid": message.id or ctx.ids.uuid(path), "text": "", "content": []}
    out.update(sender=sender, attachments=[], files=[])
    for position, block in blocks:
        _block(block, f"{path}.content[{position}]", sender, out, ctx)
    out["text"] = join_texts([b["text"] for b in out["content"] if b["type"] == "text"])
    if message.timestamp is not None:
        out["created_at"] = out["updated_at"] = message.timestamp.isoformat()
    out["parent_message_uuid"] = parent
    return out


def _block(block: Block, path: str, sender: str, out: dict[str, Any], ctx: _Context) -> None:
    if isinstance(block, ToolUseBlock):
        if sender != "assistant":
            report_call_dropped(path, ctx.drift)
            return
        call = {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
        ctx.owners[block.id] = out
        out["content"].append(call)
    elif isinstance(block, DocumentBlock) and block.source.type == "text":
        out["attachments"].append(_attachment(block, path, ctx))
    elif isinstance(block, ThinkingBlock):
        thinking = _thinking(block, path, ctx)
        if thinking is not None:
            out["content"].append(thinking)
    else:
        text = _text(block, path, ctx)
        if text is not None:
            out["content"].append({"type": "text", "text": text})


def _thinking(block: ThinkingBlock, path: str, ctx: _Context) -> dict[str, Any] | None:
    why = "Claude.ai thinking is display-only; the signature is not kept"
    text = thinking_text(block, path, ctx.drift, why)
    return None if text is None else {"type": "thinking", "thinking": text}


def _attachment(block: DocumentBlock, path: str, ctx: _Context) -> dict[str, Any]:
    name = block.filename or block.title
    if name is None:
        name = DEFAULT_FILE_NAME
        report_defaulted(f"{path}.filename", name, ctx.drift, "an attachment needs a file name")
    data = block.source.data or ""
    return {
        "file_name": name,
        "file_type": "txt",
        "file_size": len(data.encode()),
        "extracted_content": data,
    }


def _result(block: ToolResultBlock, path: str, ctx: _Context) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if isinstance(block.content, str):
        content.append({"type": "text", "text": block.content})
    else:
        for position, inner in enumerate(block.content):
            text = _text(inner, f"{path}.content[{position}]", ctx)
            if text is not None:
                content.append({"type": "text", "text": text})
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
    if block.name is not None:
        out["name"] = block.name
    out["content"] = content
    out["is_error"] = bool(block.is_error)
    return out
