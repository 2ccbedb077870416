"""UMF messages -> Ollama messages (one UMF message may give several).

Tool results become ``tool`` messages with ``tool_name`` (the call's name, found by id when
the result does not say it) placed before the rest of the message they came in (Anthropic
puts them in user messages); the error flag has no field, so it is said in the text
(``capability-unsupported``). ``developer`` messages become ``system`` ones, and a system
message after the start stays where it is with a note (``system-message-transformed``:
whether the model's template reads it depends on the model). Author names have no field
(``content-dropped``).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.turns import mark_error
from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_developer,
    report_field_dropped,
    report_foreign_extra,
    report_reasoning_details,
    report_reasoning_text,
)
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import document_text
from providers.umf import (
    Block,
    DocumentBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
)

from ._constants import NS
from ._render_blocks import (
    Context,
    Parts,
    drop_id,
    joined,
    place,
)


def render_message(message: Message, index: int, ctx: Context) -> list[dict[str, Any]]:
    """The Ollama messages for UMF message ``index``, in order."""
    path = item("messages", index)
    report_foreign_extra(message.extra, path, ctx)
    if message.role == "tool":
        return _tool_message(message, path, ctx)
    role = _role(message, index, path, ctx)
    parts = Parts()
    results_late = False
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ToolResultBlock) and len(parts.results) < position:
            results_late = True
        place(block, block_path, message.role, parts, ctx)
    _reasoning_fields(message, path, parts, ctx)
    wires = [result_wire(block, None, block_path, ctx) for block, block_path in parts.results]
    if results_late:
        ctx.drift.add(
            "message-reordered",
            "tool results go before the rest of their message",
            field=at(path, "content"),
            original="after other content",
            transformed="first",
        )
    skip = not ctx.faithful and message.content and parts.empty()
    if not skip:
        wires.append(_wire(role, parts, message, path, ctx))
    if parts.moved_images:
        wires.append({"role": "user", "content": "", "images": parts.moved_images})
    return wires


def _role(message: Message, index: int, path: str, ctx: Context) -> str:
    if message.name is not None:
        why = "Ollama messages have no author name; left out"
        report_field_dropped(path, "name", message.name, ctx.drift, why, severity="warning")
    if message.role == "developer":
        why = "Ollama has no developer role; sent as a system message"
        report_developer(path, ctx.drift, why, severity="info")
        return "system"
    if message.role == "system" and index > 0 and not ctx.faithful:
        ctx.drift.add(
            "system-message-transformed",
            "a system message after the start stays in place; whether the model's "
            "template reads it depends on the model",
            field=path,
            original="system",
            transformed="system",
            severity="info",
        )
    return message.role


def _reasoning_fields(message: Message, path: str, parts: Parts, ctx: Context) -> None:
    """``reasoning`` kept apart from blocks is Ollama's ``thinking`` when no block says it."""
    if message.reasoning:
        blocks = "\n".join(b.text for b in message.content if isinstance(b, ThinkingBlock))
        if message.role == "assistant" and not parts.thinking:
            parts.thinking.append(message.reasoning)
        elif message.reasoning != blocks:
            why = "Ollama takes one thinking text per assistant message; left out"
            report_reasoning_text(message, path, ctx.drift, why)
    if message.reasoning_details:
        why = "Ollama has no structured reasoning details; left out"
        report_reasoning_details(message, path, ctx.drift, why)


def _wire(role: str, parts: Parts, message: Message, path: str, ctx: Context) -> dict[str, Any]:
    out: dict[str, Any] = {"role": role}
    kept = NS.fields(message.extra)
    if parts.texts or not (NS.hint(message.extra, "content") == "absent" or "content" in kept):
        out["content"] = joined(parts.texts, at(path, "content"), "content", ctx)
    if parts.thinking:
        out["thinking"] = joined(parts.thinking, at(path, "content"), "thinking", ctx)
    if parts.images:
        out["images"] = parts.images
    if parts.calls:
        out["tool_calls"] = parts.calls
    return put_fields(out, kept)


# --------------------------------------------------------------------------- tool results


def _tool_message(message: Message, path: str, ctx: Context) -> list[dict[str, Any]]:
    results = [block for block in message.content if isinstance(block, ToolResultBlock)]
    if not results:
        # A tool message holding its result as plain blocks (UMF's InternalMessage shape).
        loose = ToolResultBlock(
            tool_use_id=message.tool_call_id or "", content=list(message.content), name=message.name
        )
        return [result_wire(loose, message, path, ctx, id_path=at(path, "tool_call_id"))]
    owner = message if len(results) == 1 else None
    wires: list[dict[str, Any]] = []
    others = Parts()
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ToolResultBlock):
            wires.append(result_wire(block, owner, block_path, ctx))
        else:
            place(block, block_path, "tool" if ctx.faithful else "user", others, ctx)
    if ctx.faithful and owner is not None and not (others.texts or others.calls):
        # An Ollama tool message's thinking and images are its own fields.
        wire = wires[0]
        if others.thinking:
            wire["thinking"] = "\n".join(others.thinking)
        if others.images:
            wire["images"] = others.images
    elif not others.empty():
        wires.append(_wire("user", others, Message(role="user"), path, ctx))
        ctx.drift.add(
            "message-reordered",
            "content beside tool results has no tool message; it follows as a user message",
            field=path,
            original="tool",
            transformed="user",
        )
    return wires


def result_wire(
    block: ToolResultBlock,
    owner: Message | None,
    path: str,
    ctx: Context,
    id_path: str | None = None,
) -> dict[str, Any]:
    """One ``tool`` message. ``owner`` is the UMF tool message when it holds only this
    result (its hints and fields then belong to the wire message); ``id_path`` names where
    the id was when that is not the block's ``tool_use_id``."""
    extra = owner.extra if owner is not None else {}
    text = _result_text(block, path, ctx)
    if block.is_error:
        text = mark_error(text, path, ctx, what="tool messages")
    wire: dict[str, Any] = {"role": "tool"}
    absent = NS.hint(extra, "content") == "absent" or "content" in NS.fields(extra)
    if text or not absent:
        wire["content"] = text
    name = block.name
    if name is None and owner is not None:
        name = owner.name
    if name is None:
        name = ctx.call_names.get(block.tool_use_id)
    if name is not None and NS.hint(extra, "tool_name") != "inferred":
        wire["tool_name"] = name
    if ctx.faithful and NS.hint(extra, "tool_call_id") is None:
        wire["tool_call_id"] = block.tool_use_id
    elif not ctx.faithful:
        drop_id(block.tool_use_id, id_path or at(path, "tool_use_id"), ctx)
    return NS.put(wire, extra)


def _result_text(block: ToolResultBlock, path: str, ctx: Context) -> str:
    if isinstance(block.content, str):
        return block.content
    texts: list[str] = []
    for position, inner in enumerate(block.content):
        inner_path = item(at(path, "content"), position)
        _result_part(inner, inner_path, texts, ctx)
    return joined(texts, at(path, "content"), "tool result", ctx)


def _result_part(block: Block, path: str, texts: list[str], ctx: Context) -> None:
    """A block inside a tool result: Ollama tool messages carry text only."""
    if isinstance(block, TextBlock):
        texts.append(block.text)
        return
    text = block.text if isinstance(block, RefusalBlock) else None
    if isinstance(block, DocumentBlock):
        text = document_text(block)
    if text is not None:
        texts.append(text)
        why = f"an Ollama tool result is text; this {block.type} is sent as text"
        report_block_as_text(block, path, ctx.drift, why)
        return
    report_block_dropped(
        block,
        path,
        ctx.drift,
        f"an Ollama tool result is text; this {block.type} block is left out",
    )
