"""Putting rendered items in an order the Responses API accepts.

The API refuses a ``function_call`` no output answers ("No tool output found for function
call") and an output that answers no earlier call. Conversations from other formats keep
results elsewhere (Anthropic: ``tool_result`` blocks in the next user message, possibly
after text), leave calls unanswered, or answer calls that were never made. Here, unless the
conversation is written back as the document it was read from:

* the outputs of a message's calls follow right after that message's items
  (``message-reordered``, info, when anything had to be jumped over; original value: the
  UMF message index, transformed value: the index in the rendered ``input``);
* a call without an output gets a placeholder error output (``id-synthesized``);
* an output that answers no earlier call becomes a user message (``content-type-unsupported``);
* a call id used twice in one request is made unique (``id-rewritten``, info);
* media that a role cannot hold travels in a user message after the group.

Call ids take OpenAI's alphabet and a length every OpenAI API takes; item ids the prefix
of their item's type (:func:`valid_item_id`).
"""

from __future__ import annotations

import re
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
from providers.formats._kit.context import RenderContext
from providers.formats._kit.ids import ToolIdMap, call_id_from_hash, full_match
from providers.umf import JSON

# Call ids: OpenAI's alphabet, and a length every OpenAI API takes.
_VALID_CALL_ID = full_match(r"[A-Za-z0-9_-]{1,64}")
# Item ids: letters, digits, _ and - only, behind the prefix of the item's type.
_ITEM_ID = re.compile(r"[A-Za-z0-9_-]+")


def valid_item_id(value: JSON, prefix: str) -> bool:
    """Whether ``value`` is an item id the API takes for an item whose ids start ``prefix``
    (``fc`` for function calls, ``rs`` reasoning, ``msg`` messages...)."""
    return (
        isinstance(value, str)
        and value.startswith(prefix)
        and _ITEM_ID.fullmatch(value) is not None
    )


@dataclass
class Context(RenderContext):
    """A render, with the map of call ids it rewrote (a result follows its call's new id).
    ``faithful``: an openai-responses payload read back, kept exactly even where the API
    would refuse it; else a request the API accepts."""

    ids: ToolIdMap = field(init=False)

    def __post_init__(self) -> None:
        self.ids = ToolIdMap(self.drift, _VALID_CALL_ID, call_id_from_hash)


@dataclass
class Entry:
    """One rendered item, before ordering.

    ``call`` is the original id of the call this item makes, ``result`` the original id
    an output answers; ``carry`` the user content parts (media a role could not hold)
    that must follow this message's group; ``order`` the block position it came from.
    """

    wire: dict[str, Any]
    path: str
    message_index: int
    order: int = 0
    call: str | None = None
    result: str | None = None
    carry: list[dict[str, Any]] = field(default_factory=list)


def assemble(entries: list[Entry], ctx: Context) -> list[dict[str, Any]]:
    """The ``input`` item list: in place when faithful, else paired and ordered."""
    if ctx.faithful:
        out: list[dict[str, Any]] = []
        for start, end in _groups(entries):
            out.extend(entry.wire for entry in entries[start:end])
            flush_carry(entries[start:end], out)
        return out
    return _Assembler(entries, ctx).run()


def _groups(entries: list[Entry]) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of entries from one UMF message."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for position in range(1, len(entries) + 1):
        if (
            position == len(entries)
            or entries[position].message_index != entries[start].message_index
        ):
            bounds.append((start, position))
            start = position
    return bounds


_REORDERED = "tool output moved to right after its call, as the API requires"


class _Assembler(Assembler[Entry, Context]):
    """Walks the groups once, pulling each group's outputs up behind it."""

    def run(self) -> list[dict[str, Any]]:
        """The item list, each group followed by the outputs of its calls."""
        for start, end in _groups(self.entries):
            group = [p for p in range(start, end) if p not in self.used]
            own_calls = {self.entries[p].call for p in group if self.entries[p].call is not None}
            for position in group:
                entry = self.entries[position]
                if entry.result is not None and entry.result not in own_calls:
                    self.used.add(position)
                    self.out.append(_orphan_output(entry, self.ctx))
                elif entry.result is None:
                    self._claim(entry)
                    self.out.append(entry.wire)
            answered = self._answer(start, end, group)
            for position in group:  # a second output for one of this group's calls
                if self.entries[position].result is not None and position not in self.used:
                    self.used.add(position)
                    self.out.append(_orphan_output(self.entries[position], self.ctx))
            flush_carry([self.entries[p] for p in group] + answered, self.out)
        return self.out

    def _claim(self, entry: Entry) -> None:
        # One request may not use a call id twice; a repeated one gets a fresh id.
        if entry.call is None:
            return
        if entry.wire["call_id"] in self.call_ids:
            entry.wire["call_id"] = self.fresh_id(entry.call, entry.path, call_id_from_hash, "call")
        self.call_ids.add(entry.wire["call_id"])

    def _answer(self, start: int, end: int, group: list[int]) -> list[Entry]:
        taken: dict[int, Entry] = {}  # output position -> the call entry it answers
        missing: list[Entry] = []
        for position in group:
            call = self.entries[position]
            if call.call is None:
                continue
            found = self._find(start, call.call, taken)
            if found is None:
                missing.append(call)
            else:
                taken[found] = call
        answered, expected = [], end
        for found in sorted(taken):
            self.used.add(found)
            result, call = self.entries[found], taken[found]
            result.wire["call_id"] = call.wire["call_id"]
            result.wire["type"] = _output_type(call)
            if found == expected:
                expected += 1
            elif found >= end:
                warn_reordered(
                    self.ctx.drift, result.path, result.message_index, len(self.out), _REORDERED
                )
            self.out.append(result.wire)
            answered.append(result)
        self.out.extend(_placeholder(call, self.ctx) for call in missing)
        return answered

    def _find(self, start: int, call_id: str, taken: dict[int, Entry]) -> int | None:
        for later in range(start, len(self.entries)):
            entry = self.entries[later]
            if later not in self.used and later not in taken and entry.result == call_id:
                return later
        return None


def _output_type(call: Entry) -> str:
    custom = call.wire.get("type") == "custom_tool_call"
    return "custom_tool_call_output" if custom else "function_call_output"


def _placeholder(call: Entry, ctx: Context) -> dict[str, Any]:
    warn_placeholder(ctx.drift, call.path, "output")
    return {
        "type": _output_type(call),
        "call_id": call.wire["call_id"],
        "output": MISSING_RESULT_TEXT,
    }


def _orphan_output(entry: Entry, ctx: Context) -> dict[str, Any]:
    warn_orphan(ctx.drift, entry.path, "no tool call still open")
    output = entry.wire.get("output")
    return {"role": "user", "content": output if isinstance(output, str | list) and output else ""}
