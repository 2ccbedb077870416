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

from providers.formats._chat_completions.pairing import (
    MISSING_RESULT_TEXT,
    Assembler,
    flush_carry,
    warn_orphan,
    warn_placeholder,
    warn_reordered,
)
from providers.formats._kit.ids import call_id_from_hash

from ._render_parts import RenderContext


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
    if not ctx.faithful:
        return _Assembler(entries, ctx).run()
    out: list[dict[str, Any]] = []
    for entry in entries:
        out.append(entry.wire)
        flush_carry([entry], out)
    return out


_REORDERED = "tool result moved to right after its tool call, as OpenAI requires"


class _Assembler(Assembler[Entry, RenderContext]):
    """Walks the entries once, pulling each call's results up behind it."""

    def run(self) -> list[dict[str, Any]]:
        for position, entry in enumerate(self.entries):
            if position in self.used:
                continue
            if entry.result_id is not None:
                self.out.append(_orphan_result(entry, self.ctx))
                continue
            self.out.append(entry.wire)
            flush_carry([entry, *self._answer(position)], self.out)
        return self.out

    def _answer(self, position: int) -> list[Entry]:
        entry = self.entries[position]
        matches: dict[int, str] = {}  # entry position -> the call id it answers on the wire
        missing: list[tuple[str, str]] = []
        for (original, call_path), wire_id in zip(entry.calls, self._claim_ids(entry), strict=True):
            found = self._find_result(position, original, matches)
            if found is None:
                missing.append((wire_id, call_path))
            else:
                matches[found] = wire_id
        group, expected = [], position + 1
        for found in sorted(matches):
            self.used.add(found)
            result = self.entries[found]
            result.wire["tool_call_id"] = matches[found]
            if found == expected:
                expected += 1
            else:
                warn_reordered(
                    self.ctx.drift, result.path, result.message_index, len(self.out), _REORDERED
                )
            self.out.append(result.wire)
            group.append(result)
        self.out.extend(_placeholder_result(wire_id, path, self.ctx) for wire_id, path in missing)
        return group

    def _claim_ids(self, entry: Entry) -> list[str]:
        # One request may not use a call id twice; a repeated one gets a fresh id.
        # Only calls this renderer wrote: null is kept as written, and so is a field named
        # tool_calls on a message that makes no calls (a user's, say), which calls nothing.
        calls = (entry.wire.get("tool_calls") or []) if entry.calls else []
        for call, (original, call_path) in zip(calls, entry.calls, strict=True):
            if call["id"] in self.call_ids:
                call["id"] = self.fresh_id(original, call_path, call_id_from_hash, "tool call")
            self.call_ids.add(call["id"])
        return [call["id"] for call in calls]

    def _find_result(self, position: int, call_id: str, taken: dict[int, str]) -> int | None:
        for later in range(position + 1, len(self.entries)):
            entry = self.entries[later]
            if later not in self.used and later not in taken and entry.result_id == call_id:
                return later
        return None


def _placeholder_result(call_id: str, call_path: str, ctx: RenderContext) -> dict[str, Any]:
    warn_placeholder(ctx.drift, call_path, "result")
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": MISSING_RESULT_TEXT,
    }


def _orphan_result(entry: Entry, ctx: RenderContext) -> dict[str, Any]:
    warn_orphan(ctx.drift, entry.path, "no earlier tool call")
    content = entry.wire.get("content")
    if not isinstance(content, str | list):
        content = ""
    if entry.carry:
        text = [{"type": "text", "text": content}] if isinstance(content, str) and content else []
        content = [*(content if isinstance(content, list) else text), *entry.carry]
    return {"role": "user", "content": content}
