"""Putting rendered messages in an order OpenAI accepts.

OpenAI wants every assistant ``tool_calls`` id answered by a ``tool`` message, and those
tool messages directly after the assistant message. Conversations from other formats keep
results elsewhere (Anthropic: ``tool_result`` blocks in the next user message, possibly
after text), leave calls unanswered, or answer calls that were never made. Here:

* results move up to right after their call (``message-reordered``, info, when anything
  had to be jumped over; original value: the UMF message index, transformed value: the
  index in the rendered ``messages``);
* a call without a result gets a placeholder error result (``id-synthesized``);
* a result that answers no earlier call becomes a user message (``content-type-unsupported``);
* media that a role cannot hold travels in a user message after the group.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._shared import RenderContext

ORPHAN_CALL_RESULT = "Error: no result was recorded for this tool call."


@dataclass
class Entry:
    """One rendered message, before ordering.

    ``calls`` are the (original id, UMF path) of an assistant's tool calls; ``result_id``
    the original id a tool message answers; ``carry`` the user content parts (media) that
    must follow this message and its tool results.
    """

    wire: dict[str, Any]
    path: str
    message_index: int
    order: int = 0
    calls: list[tuple[str, str]] = field(default_factory=list)
    result_id: str | None = None
    carry: list[dict[str, Any]] = field(default_factory=list)


def assemble(entries: list[Entry], ctx: RenderContext) -> list[dict[str, Any]]:
    """The ``messages`` array: in place when faithful, else paired and ordered."""
    out: list[dict[str, Any]] = []
    if ctx.faithful:
        for entry in entries:
            out.append(entry.wire)
            _flush_carry([entry], out)
        return out
    used: set[int] = set()
    for position, entry in enumerate(entries):
        if position in used:
            continue
        if entry.result_id is not None:
            out.append(_orphan_result(entry, ctx))
            continue
        out.append(entry.wire)
        group = [entry, *_answer_calls(entries, position, used, out, ctx)]
        _flush_carry(group, out)
    return out


def _answer_calls(
    entries: list[Entry],
    position: int,
    used: set[int],
    out: list[dict[str, Any]],
    ctx: RenderContext,
) -> list[Entry]:
    matches: list[int] = []
    missing: list[tuple[str, str]] = []
    for original, call_path in entries[position].calls:
        found = _find_result(entries, position, original, used.union(matches))
        if found is None:
            missing.append((original, call_path))
        else:
            matches.append(found)
    group, expected = [], position + 1
    for found in sorted(matches):
        used.add(found)
        result = entries[found]
        result.wire["tool_call_id"] = ctx.ids(result.result_id or "", result.path)
        if found == expected:
            expected += 1
        else:
            _warn_reordered(result, len(out), ctx)
        out.append(result.wire)
        group.append(result)
    for original, call_path in missing:
        out.append(_placeholder_result(original, call_path, ctx))
    return group


def _find_result(entries: list[Entry], position: int, call_id: str, taken: set[int]) -> int | None:
    for later in range(position + 1, len(entries)):
        if later not in taken and entries[later].result_id == call_id:
            return later
    return None


def _warn_reordered(result: Entry, new_index: int, ctx: RenderContext) -> None:
    ctx.drift.add(
        "message-reordered",
        "tool result moved to right after its tool call, as OpenAI requires",
        field=result.path,
        original=result.message_index,
        transformed=new_index,
        severity="info",
    )


def _placeholder_result(original: str, call_path: str, ctx: RenderContext) -> dict[str, Any]:
    ctx.drift.add(
        "id-synthesized",
        "tool call has no recorded result; a placeholder error result was added",
        field=call_path,
        transformed=ORPHAN_CALL_RESULT,
    )
    return {
        "role": "tool",
        "tool_call_id": ctx.ids(original, call_path),
        "content": ORPHAN_CALL_RESULT,
    }


def _orphan_result(entry: Entry, ctx: RenderContext) -> dict[str, Any]:
    ctx.drift.add(
        "content-type-unsupported",
        "tool result answers no earlier tool call; sent as a user message",
        field=entry.path,
        original="tool",
        transformed="user",
    )
    content = entry.wire.get("content")
    if not isinstance(content, str | list):
        content = ""
    if entry.carry:
        text = [{"type": "text", "text": content}] if isinstance(content, str) and content else []
        content = [*(content if isinstance(content, list) else text), *entry.carry]
    return {"role": "user", "content": content}


def _flush_carry(group: list[Entry], out: list[dict[str, Any]]) -> None:
    carried = [part for entry in group for part in entry.carry]
    if carried:
        out.append({"role": "user", "content": carried})
