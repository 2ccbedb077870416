"""Rendered items before they are put in order, and the pieces every role's writer shares:
warnings for dropped reasoning and moved content, and tool results as output items."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import result_part
from providers.formats._chat_completions.turns import mark_error
from providers.formats._kit.paths import at, item
from providers.umf import Message, ThinkingBlock, ToolResultBlock

from ._constants import NS
from ._render_parts import render_part
from ._rules import Context, Entry, valid_item_id


def drop_reasoning(block: ThinkingBlock, path: str, why: str, ctx: Context) -> None:
    """Warn that a thinking block is left out (its signature or data never travels)."""
    ctx.drift.add(
        "reasoning-dropped",
        f"{why}; left out",
        field=path,
        original=block.text or None,
        details={
            "provider": block.provider,
            "redacted": block.redacted,
            "signed": bool(block.signature or block.data),
        },
    )


def without_id(fields: dict[str, Any], why: str, path: str, ctx: Context) -> dict[str, Any]:
    """``fields`` (of the item at ``path``) without their ``id``, said (``id-rewritten``)."""
    ctx.drift.add("id-rewritten", why, field=at(path, "id"), original=fields["id"])
    return {key: value for key, value in fields.items() if key != "id"}


def checked_id(fields: dict[str, Any], prefix: str, path: str, ctx: Context) -> dict[str, Any]:
    """``fields`` (of the item at ``path``) without an ``id`` the API refuses for items
    whose ids start ``prefix``."""
    if "id" not in fields or valid_item_id(fields["id"], prefix):
        return fields
    why = f"item ids of this type start with {prefix!r}; the id is left out"
    return without_id(fields, why, path, ctx)


def result_entry(
    block: ToolResultBlock,
    path: str,
    index: int,
    ctx: Context,
    owner: Message | None,
    order: int = 0,
) -> Entry:
    """A ``function_call_output`` (or custom one) answering ``block.tool_use_id``; the
    call id on the wire is settled when the result is paired with its call."""
    custom = owner is not None and NS.hint(owner.extra, "type") == "custom"
    wire: dict[str, Any] = {
        "type": "custom_tool_call_output" if custom else "function_call_output",
        "call_id": block.tool_use_id,
        "output": _output(block, path, ctx),
    }
    if owner is not None:
        NS.put(wire, owner.extra)
    return Entry(wire, path, index, order, result=block.tool_use_id)


_NO_REASONING = "a tool result cannot hold reasoning"


def _output(block: ToolResultBlock, path: str, ctx: Context) -> Any:
    if isinstance(block.content, str):
        output: Any = block.content
    else:
        output = []
        for position, inner in enumerate(block.content):
            inner_path = item(at(path, "content"), position)
            part = result_part(inner, inner_path, ctx, render_part, _NO_REASONING)
            if part is not None:
                output.append(part)
    if block.is_error:
        output = mark_error(output, path, ctx, what="tool outputs", text_type="input_text")
    return output
