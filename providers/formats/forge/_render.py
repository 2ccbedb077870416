"""UMF conversation -> Forge messages: the shape it was read in, else an array.

Every Forge message is role and text. An assistant's blocks are written in order, a blank
line apart (thinking as bracketed lines, calls as ``<tool>`` blocks); every tool result is
a ``Tool: <name>`` message of its own, after the assistant message that holds it and
before the user or system message that does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import own_extra, parse_arguments
from providers.formats._kit.drift import report_no_room_for_request
from providers.formats.base import Drift, Rendered
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._shared import (
    FORMAT_ID,
    RenderContext,
    at,
    fingerprint,
    get_hint,
    item,
    put_fields,
    report_foreign_extra,
    thread,
)
from ._text import write_call, write_result, write_thinking

SHAPES = ("messages", "message", "exchange")
DEFAULT_TOOL_NAME = "tool"
Wire = dict[str, Any]


@dataclass
class _Render:
    """One render: the context, and the tool names of the calls seen so far."""

    ctx: RenderContext
    call_names: dict[str, str] = field(default_factory=dict)


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and a warning for each thing it could not carry."""
    shape = get_hint(conversation.extra, "shape")
    state = _Render(RenderContext(faithful=shape in SHAPES))
    report_foreign_extra(conversation.extra, "", state.ctx)
    report_no_room_for_request(conversation, state.ctx.drift, holder="Forge messages carry")
    messages = thread(conversation, state.ctx)
    groups = [render_message(message, index, state) for index, message in messages]
    flat = [wire for group in groups for wire in group]
    payload: JSON = flat
    if shape == "message" and len(flat) == 1:
        payload = flat[0]
    elif shape == "exchange" and _one_answer(messages, groups):
        payload = {
            **get_hint(conversation.extra, "exchange", {}),
            "request": flat[:-1],
            "response": groups[-1][0],
        }
    return Rendered(payload, state.ctx.drift.warnings)


def message_text(
    role: str,
    blocks: Sequence[Block],
    ctx: RenderContext | None = None,
    path: str = "",
    positions: Sequence[int] | None = None,
    written: list[int] | None = None,
) -> str:
    """The text Forge writes for a message's blocks (``ctx`` collects the warnings; none
    are kept without it; ``positions`` are the blocks' indexes in the UMF message, and
    ``written`` collects those of the blocks that made it into the text)."""
    ctx = ctx or RenderContext(drift=Drift(FORMAT_ID), faithful=True)
    positions = positions if positions is not None else range(len(blocks))
    if role == "tool" and len(blocks) == 1 and isinstance(blocks[0], ToolResultBlock):
        result = blocks[0]
        text = _result_text(result, at(path, "content[0]"), ctx)
        return write_result(result.name or DEFAULT_TOOL_NAME, text, bool(result.is_error))
    pieces = []
    for position, block in zip(positions, blocks, strict=True):
        piece = _piece(block, role, item(at(path, "content"), position), ctx)
        if piece is not None:
            pieces.append(piece)
            if written is not None:
                written.append(position)
    return "\n\n".join(pieces)


def _one_answer(messages: list[tuple[int, Message]], groups: list[list[Wire]]) -> bool:
    """Whether the thread ends with an assistant message written as one message."""
    return bool(messages) and messages[-1][1].role == "assistant" and len(groups[-1]) == 1


def render_message(message: Message, index: int, state: _Render) -> list[Wire]:
    """The Forge messages for UMF message ``index``."""
    path = item("messages", index)
    ctx = state.ctx
    report_foreign_extra(message.extra, path, ctx)
    _report_message_fields(message, path, ctx)
    kept = get_hint(message.extra, "text")
    if kept is not None and get_hint(message.extra, "digest") == fingerprint(message.content):
        return [_wire(message, message.role, kept)]
    role = _role(message, path, ctx)
    blocks = _with_call_result(message)
    results = [(i, b) for i, b in enumerate(blocks) if isinstance(b, ToolResultBlock)]
    if role == "tool" and len(results) == 1 and len(blocks) == 1:
        # The result is the message's own block, or stands for its plain content.
        own = blocks[0] is message.content[0] if message.content else False
        result_path = item(at(path, "content"), 0) if own else path
        return [_wire(message, "tool", _tool_text(results[0][1], result_path, state))]
    numbered = [(i, b) for i, b in enumerate(blocks) if not isinstance(b, ToolResultBlock)]
    others = [block for _, block in numbered]
    _remember_calls(others, state)
    result_wires = [
        _wire(None, "tool", _tool_text(block, item(at(path, "content"), i), state))
        for i, block in results
    ]
    if role == "tool" and (others or not blocks):
        role = _tool_without_call(path, ctx)
    wires: list[Wire] = []
    written: list[int] = []
    if others or not blocks:
        text = message_text(role, others, ctx, path, [i for i, _ in numbered], written)
        # A message all of whose content went elsewhere or was dropped (each with its
        # warning) is not written as an empty one.
        if text or not blocks or ctx.faithful:
            wires.append(_wire(message, role, text))
    after = role == "assistant"  # an assistant's own results follow it
    _warn_moved([i for i, _ in results], written, after, path, ctx)
    return [*wires, *result_wires] if after else [*result_wires, *wires]


def _warn_moved(
    results: list[int], written: list[int], after: bool, path: str, ctx: RenderContext
) -> None:
    """One note per result that had to jump over the message's own content."""
    for position in results:
        jumped = any(p > position for p in written) if after else any(p < position for p in written)
        if jumped:
            ctx.drift.add(
                "message-reordered",
                "tool results are Forge messages of their own; moved "
                + ("after" if after else "before")
                + " the message's text",
                field=item(at(path, "content"), position),
                original="within the message",
                transformed="after" if after else "before",
                severity="info",
            )


def _wire(message: Message | None, role: str, text: str) -> Wire:
    if message is None:
        return {"role": role, "content": text}
    if get_hint(message.extra, "keys") == "go":
        return put_fields({"Role": role, "Content": text}, message.extra)
    return put_fields({"role": role, "content": text}, message.extra)


def _role(message: Message, path: str, ctx: RenderContext) -> str:
    if message.role != "developer":
        return message.role
    ctx.drift.add(
        "system-message-transformed",
        "Forge has no developer role; sent as a system message",
        field=at(path, "role"),
        original="developer",
        transformed="system",
    )
    return "system"


def _with_call_result(message: Message) -> list[Block]:
    """A tool message holding its result as plain blocks (UMF's InternalMessage shape)
    answers its ``tool_call_id``: one result block."""
    if message.role != "tool" or message.tool_call_id is None:
        return list(message.content)
    if any(isinstance(block, ToolResultBlock) for block in message.content):
        return list(message.content)
    return [
        ToolResultBlock(
            tool_use_id=message.tool_call_id, content=list(message.content), name=message.name
        )
    ]


def _tool_without_call(path: str, ctx: RenderContext) -> str:
    if ctx.faithful:
        return "tool"  # a Forge tool message without its "Tool:" line: kept as it was
    ctx.drift.add(
        "content-type-unsupported",
        "a tool message that answers no call; sent as a user message",
        field=path,
        original="tool",
        transformed="user",
    )
    return "user"


def _remember_calls(blocks: Sequence[Block], state: _Render) -> None:
    for block in blocks:
        if isinstance(block, ToolUseBlock):
            state.call_names[block.id] = block.name


def _tool_text(block: ToolResultBlock, path: str, state: _Render) -> str:
    name = block.name or state.call_names.get(block.tool_use_id)
    # ``Tool: <name>`` is one line, and a blank one reads back as no tool message at all.
    if name is None or not name.strip() or "\n" in name:
        state.ctx.drift.add(
            "parameter-defaulted",
            "a Forge tool message names its tool on its first line; this result does not "
            "say which, or its name is blank or spans lines",
            field=at(path, "name"),
            original=name,
            transformed=DEFAULT_TOOL_NAME,
        )
        name = DEFAULT_TOOL_NAME
    return write_result(name, _result_text(block, path, state.ctx), bool(block.is_error))


def _result_text(block: ToolResultBlock, path: str, ctx: RenderContext) -> str:
    if isinstance(block.content, str):
        return block.content
    pieces = []
    for position, inner in enumerate(block.content):
        piece = _piece(inner, "tool", item(at(path, "content"), position), ctx)
        if piece is not None:
            pieces.append(piece)
    return "\n".join(pieces)


def _piece(block: Block, role: str, path: str, ctx: RenderContext) -> str | None:
    """One block as Forge text, or None when it cannot be said (a warning says why)."""
    if isinstance(block, TextBlock):
        if block.citations:
            _dropped(ctx, path + ".citations", block.citations, "Forge text carries no citations")
        return block.text
    if isinstance(block, ThinkingBlock) and role == "assistant":
        return _thinking(block, path, ctx)
    if isinstance(block, ToolUseBlock) and role == "assistant":
        return _call(block, path, ctx)
    if isinstance(block, RefusalBlock) or _is_text_document(block):
        text = block.text if isinstance(block, RefusalBlock) else _document_text(block)
        ctx.drift.add(
            "content-type-unsupported",
            f"Forge messages are text; the {block.type} is sent as text",
            field=path,
            original=block.type,
            transformed="text",
        )
        return text
    if isinstance(block, ThinkingBlock):
        ctx.drift.add(
            "reasoning-dropped",
            f"a Forge {role} message holds no thinking",
            field=path,
            original=block.text or None,
        )
        return None
    original = block.model_dump(mode="json", exclude={"extra"}, exclude_none=True)
    _dropped(ctx, path, original, f"a Forge {role} message cannot hold {block.type} content")
    return None


def _is_text_document(block: Block) -> bool:
    return (
        isinstance(block, DocumentBlock) and block.source.type == "text" and bool(block.source.data)
    )


def _document_text(block: Block) -> str:
    assert isinstance(block, DocumentBlock)
    return block.source.data or ""


def _dropped(ctx: RenderContext, path: str, original: Any, why: str) -> None:
    ctx.drift.add("content-dropped", why, field=path, original=original)


def _thinking(block: ThinkingBlock, path: str, ctx: RenderContext) -> str | None:
    if not block.text:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning with no readable text cannot be written as Forge thinking",
            field=path,
            details={"redacted": block.redacted, "signed": bool(block.signature or block.data)},
        )
        return None
    if block.signature or block.data:
        ctx.drift.add(
            "signature-stripped",
            "Forge thinking is plain text; its signature is left out",
            field=path,
            original=block.provider,
        )
    return write_thinking(block.text)


def _call(block: ToolUseBlock, path: str, ctx: RenderContext) -> str:
    if block.raw_arguments is not None and not parse_arguments(block.raw_arguments)[1]:
        ctx.drift.add(
            "content-dropped",
            "the call's arguments were not valid JSON; Forge keeps only the parsed input",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=block.input,
        )
    if not ctx.faithful:
        ctx.drift.add(
            "id-rewritten",
            "Forge tool calls have no id; results follow their call by tool name",
            field=at(path, "id"),
            original=block.id,
            severity="info",
        )
    return write_call(block, own_extra(block.extra, FORMAT_ID), get_hint(block.extra, "form"))


def _report_message_fields(message: Message, path: str, ctx: RenderContext) -> None:
    if message.name is not None and message.role != "tool":
        ctx.drift.add(
            "content-dropped",
            "Forge messages have no name",
            field=at(path, "name"),
            original=message.name,
            severity="info",
        )
    if message.reasoning:
        ctx.drift.add(
            "reasoning-dropped",
            "Forge messages carry no reasoning field",
            field=at(path, "reasoning"),
            original=message.reasoning,
        )
    if message.reasoning_details:
        ctx.drift.add(
            "reasoning-dropped",
            "Forge messages carry no reasoning details",
            field=at(path, "reasoning_details"),
            details={"count": len(message.reasoning_details)},
        )
