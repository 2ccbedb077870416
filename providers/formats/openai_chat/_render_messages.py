"""Writing UMF messages as Chat Completions messages (one UMF message may give several).

What each role can hold: system and developer take text parts, user every part type,
assistant text and refusal parts plus ``tool_calls``, tool messages text. When the
conversation is not rendered as the openai-chat document it was read from, content a role
cannot hold moves to a user message after it (``message-reordered``); reasoning is dropped
(``reasoning-dropped``: OpenAI takes none back, and signatures never leave their
provider); tool results become ``tool`` messages, with the error flag folded into the text
(``capability-unsupported``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.blocks import result_part
from providers.formats._chat_completions.calls import write_call
from providers.formats._chat_completions.content import content_shape
from providers.formats._chat_completions.pairing import carried, loose_tool_message
from providers.formats._chat_completions.turns import mark_error
from providers.formats._kit.drift import report_reasoning_details, report_thinking_dropped
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import arguments_string, report_call_not_made
from providers.umf import (
    AudioBlock,
    Block,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import EMPTY_CONTENT, NAMESPACE
from ._render_parts import RenderContext, render_part, report_foreign_extra
from ._rules import Entry

# Thinking blocks and ``reasoning``: OpenAI takes none back, and signatures never leave
# their provider.
_NO_REASONING = "OpenAI Chat requests carry no reasoning"
_ROLE_PARTS = {
    "system": {"text"},
    "developer": {"text"},
    "user": {"text", "image_url", "input_audio", "file"},
    "assistant": {"text", "refusal"},
    "tool": {"text"},
}


@dataclass
class _Pieces:
    """A message's blocks sorted by where they go on the wire."""

    parts: list[tuple[int, dict[str, Any], Block, str]] = field(default_factory=list)
    fields: list[tuple[int, Block, str]] = field(default_factory=list)
    calls: list[tuple[int, ToolUseBlock, str]] = field(default_factory=list)
    results: list[tuple[int, ToolResultBlock, str]] = field(default_factory=list)
    carry: list[dict[str, Any]] = field(default_factory=list)


def render_message(message: Message, index: int, ctx: RenderContext) -> list[Entry]:
    """The wire messages for UMF message ``index``, in their natural order."""
    path = item("messages", index)
    report_foreign_extra(message.extra, path, ctx.drift)
    _report_reasoning_fields(message, path, ctx)
    if message.role == "tool":
        return _tool_entries(message, index, path, ctx)
    return _turn_entries(message, index, path, ctx)


def _report_reasoning_fields(message: Message, path: str, ctx: RenderContext) -> None:
    if message.reasoning:
        ctx.drift.add(
            "reasoning-dropped",
            _NO_REASONING,
            field=at(path, "reasoning"),
            original=message.reasoning,
        )
    if message.reasoning_details:  # looked at here first: this runs for every message
        report_reasoning_details(
            message, path, ctx.drift, "OpenAI Chat requests carry no reasoning details"
        )


def _place(
    block: Block, position: int, path: str, role: str, pieces: _Pieces, ctx: RenderContext
) -> None:
    if isinstance(block, ThinkingBlock):
        report_thinking_dropped(block, path, ctx.drift, _NO_REASONING)
    elif isinstance(block, ToolResultBlock):
        pieces.results.append((position, block, path))
    elif isinstance(block, ToolUseBlock):
        if role == "assistant":
            pieces.calls.append((position, block, path))
        else:
            report_call_not_made(block, path, ctx.drift, f"a {role} message cannot make tool calls")
    elif role == "assistant" and NAMESPACE.hint(block.extra, "field") in ("refusal", "audio"):
        pieces.fields.append((position, block, path))
    else:
        _place_part(block, position, path, role, pieces, ctx)


def _place_part(
    block: Block, position: int, path: str, role: str, pieces: _Pieces, ctx: RenderContext
) -> None:
    part = render_part(block, path, ctx, role)
    if part is None:
        return
    if ctx.faithful or part["type"] in _ROLE_PARTS[role]:
        pieces.parts.append((position, part, block, path))
    else:
        pieces.carry.append(carried(part, block, path, role, ctx))


def _turn_entries(message: Message, index: int, path: str, ctx: RenderContext) -> list[Entry]:
    pieces = _Pieces()
    for position, block in enumerate(message.content):
        _place(block, position, item(at(path, "content"), position), message.role, pieces, ctx)
    entries = [
        _result_entry(block, result_path, index, position, ctx, owner=None)
        for position, block, result_path in pieces.results
    ]
    wire = _turn_wire(message, pieces, ctx)
    if wire is not None:
        calls = [(block.id, call_path) for _, block, call_path in pieces.calls]
        order = min(
            [p for p, _, _, _ in pieces.parts]
            + [p for p, _, _ in pieces.fields]
            + [p for p, _, _ in pieces.calls]
            or [0]
        )
        entries.append(Entry(wire, path, index, order, calls=calls, carry=pieces.carry))
    elif pieces.carry:
        entries.append(
            Entry({"role": "user", "content": pieces.carry}, path, index, len(message.content))
        )
    return sorted(entries, key=lambda entry: entry.order)


def _turn_wire(message: Message, pieces: _Pieces, ctx: RenderContext) -> dict[str, Any] | None:
    if not ctx.faithful and message.content and not (pieces.parts or pieces.fields or pieces.calls):
        return None  # everything in it was moved or dropped, each with its warning
    out: dict[str, Any] = {"role": message.role}
    parts = [part for _, part, _, _ in pieces.parts]
    calls = [block for _, block, _ in pieces.calls]
    shape = NAMESPACE.hint(message.extra, "content") or content_shape(
        parts, EMPTY_CONTENT[bool(calls)]
    )
    if not ctx.faithful and message.role != "assistant" and shape in ("absent", "null"):
        shape = "string"  # only an assistant's content may be missing in a request
    _set_content(out, parts, shape)
    _set_annotations(out, pieces, ctx)
    for _, block, path in pieces.fields:
        _set_field(out, block, path, ctx)
    _set_calls(out, pieces.calls, ctx)
    if message.name is not None:
        out["name"] = message.name
    return NAMESPACE.put(out, message.extra)


def _set_content(out: dict[str, Any], parts: list[dict[str, Any]], shape: str) -> None:
    if shape == "absent" and not parts:
        return
    if shape == "null" and not parts:
        out["content"] = None
    elif shape != "parts" and content_shape(parts, "string") == "string":
        out["content"] = parts[0]["text"] if parts else ""
    else:
        out["content"] = parts


def _set_annotations(out: dict[str, Any], pieces: _Pieces, ctx: RenderContext) -> None:
    # Citations read from an answer's annotations go back as annotations, when the text
    # is still the message's one string content.
    for _, _, block, path in pieces.parts:
        if not isinstance(block, TextBlock) or NAMESPACE.hint(block.extra, "citations") is None:
            continue
        if isinstance(out.get("content"), str) and len(pieces.parts) == 1:
            out["annotations"] = block.citations
        elif block.citations:
            ctx.drift.add(
                "content-dropped",
                "annotations belong to a string content",
                field=at(path, "citations"),
                original=block.citations,
            )


def _set_field(out: dict[str, Any], block: Block, path: str, ctx: RenderContext) -> None:
    if isinstance(block, RefusalBlock):
        out["refusal"] = block.text
    elif isinstance(block, AudioBlock) and ctx.faithful:
        out["audio"] = NAMESPACE.put({"id": block.source.file_id}, block.extra)
    elif isinstance(block, AudioBlock):
        # A request refers to an earlier spoken reply by id alone; what a response sent
        # beside it (data, transcript, expiry) has no place there.
        out["audio"] = {"id": block.source.file_id}
        kept = NAMESPACE.fields(block.extra)
        if kept:
            ctx.drift.add(
                "content-dropped",
                "a request refers to earlier audio by id only",
                field=path,
                original=sorted(kept),
                severity="info",
            )


def _set_calls(
    out: dict[str, Any], calls: list[tuple[int, ToolUseBlock, str]], ctx: RenderContext
) -> None:
    for _, block, path in calls:
        if ctx.faithful and NAMESPACE.hint(block.extra, "field") == "function_call":
            arguments = arguments_string(block.input, block.raw_arguments)
            out["function_call"] = NAMESPACE.put(
                {"name": block.name, "arguments": arguments}, block.extra, "inner"
            )
        else:
            call_id = block.id if ctx.faithful else ctx.ids(block.id, at(path, "id"))
            out.setdefault("tool_calls", []).append(write_call(block, call_id, ctx))


# --------------------------------------------------------------------------- tool results


def _tool_entries(message: Message, index: int, path: str, ctx: RenderContext) -> list[Entry]:
    content_path = at(path, "content")
    results = [(i, b) for i, b in enumerate(message.content) if isinstance(b, ToolResultBlock)]
    if len(results) == 1 and len(message.content) == 1:
        return [_result_entry(results[0][1], item(content_path, 0), index, 0, ctx, owner=message)]
    if not results:
        return loose_tool_message(
            message,
            path,
            ctx,
            as_result=lambda block: [_result_entry(block, path, index, 0, ctx, owner=message)],
            as_user=lambda user: _turn_entries(user, index, path, ctx),
        )
    pieces = _Pieces()
    for position, block in enumerate(message.content):
        _place(block, position, item(content_path, position), "tool", pieces, ctx)
    entries = [_result_entry(b, p, index, i, ctx, owner=None) for i, b, p in pieces.results]
    # Blocks beside the results have no tool message of their own: they follow as user content.
    for _, part, block, block_path in pieces.parts:
        entries[-1].carry.append(
            part if ctx.faithful else carried(part, block, block_path, "tool", ctx)
        )
    entries[-1].carry.extend(pieces.carry)
    return entries


def _result_entry(
    block: ToolResultBlock,
    path: str,
    index: int,
    order: int,
    ctx: RenderContext,
    owner: Message | None,
) -> Entry:
    content_hint = NAMESPACE.hint(owner.extra, "content") if owner is not None else None
    if not ctx.faithful and content_hint in ("absent", "null"):
        content_hint = None  # a tool message in a request always has content
    content, carry = _result_content(block, path, ctx, content_hint)
    wire: dict[str, Any] = {"role": "tool", "tool_call_id": block.tool_use_id}
    if owner is not None and ctx.faithful:
        if NAMESPACE.hint(owner.extra, "role") == "function":
            wire = {"role": "function"}
        if owner.name is not None:
            wire["name"] = owner.name
    if content_hint == "null" and content == "":
        wire["content"] = None
    elif content_hint != "absent" or content != "":
        wire["content"] = content
    if owner is not None:
        NAMESPACE.put(wire, owner.extra)
    return Entry(wire, path, index, order, result_id=block.tool_use_id, carry=carry)


def _result_content(
    block: ToolResultBlock, path: str, ctx: RenderContext, content_hint: str | None
) -> tuple[Any, list[dict[str, Any]]]:
    content_path = at(path, "content")
    carry: list[dict[str, Any]] = []
    if isinstance(block.content, str):
        content: Any = block.content
    elif content_hint == "parts":
        pieces = _Pieces()
        for position, inner in enumerate(block.content):
            _place(inner, position, item(content_path, position), "tool", pieces, ctx)
        content, carry = [part for _, part, _, _ in pieces.parts], pieces.carry
    else:
        content, carry = _flatten_result(block.content, content_path, ctx)
    if block.is_error:
        content = mark_error(content, path, ctx, what="tool messages", provider="OpenAI")
    return content, carry


def _flatten_result(
    blocks: list[Block], path: str, ctx: RenderContext
) -> tuple[str, list[dict[str, Any]]]:
    # OpenAI tool messages are text: text blocks are joined, media follow as user content.
    texts: list[str] = []
    carry: list[dict[str, Any]] = []
    for position, block in enumerate(blocks):
        block_path = item(path, position)
        part = result_part(block, block_path, ctx, render_part, _NO_REASONING)
        if part is None:
            continue
        if part["type"] == "text":
            texts.append(part["text"])
        else:
            carry.append(carried(part, block, block_path, "tool", ctx))
    return "\n".join(texts), carry
