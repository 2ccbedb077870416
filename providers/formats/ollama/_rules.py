"""The structural rule Ollama's payloads follow: tool results pair with calls by tool name
and order, not by id. Ollama often sends no tool-call ids: reading, a call without one
gets ``call_<message>_<call>`` and a result without ``tool_call_id`` answers the earliest
unanswered call with its ``tool_name`` (else the earliest unanswered call), each with an
``id-synthesized`` warning. Writing, ids are not sent (see ``_render_blocks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from providers.formats._kit.ids import report_synthesized, suffixed
from providers.formats.base import Drift


@dataclass
class ParseState:
    """What reading one payload remembers across messages: the calls not yet answered
    (``(id, name)`` in order) and the ids in use."""

    drift: Drift
    pending: list[tuple[str, str]] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    position: int = 0

    def unique(self, candidate: str) -> str:
        """``candidate``, suffixed if a real id already took it."""
        return suffixed(candidate, self.used)

    def answer(self, name: str | None) -> tuple[str, str] | None:
        """The earliest unanswered call named ``name`` (else the earliest unanswered call
        at all), now answered; None when every call has its answer."""
        for index, (_, call_name) in enumerate(self.pending):
            if call_name == name:
                return self.pending.pop(index)
        return self.pending.pop(0) if self.pending else None


def find_call(
    given_id: str | None, tool_name: str | None, path: str, state: ParseState
) -> tuple[str, str | None] | None:
    """``(call id, call name)`` of the call a result answers, or None when none did."""
    if given_id is not None:
        for entry in state.pending:
            if entry[0] == given_id:
                state.pending.remove(entry)
                return entry
        return (given_id, None) if given_id in state.used else None
    paired = state.answer(tool_name)
    if paired is not None:
        why = f"the tool result names no call id; paired with the earliest open call {paired[1]!r}"
        report_synthesized(state.drift, why, path, paired[0])
    return paired
