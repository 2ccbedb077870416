"""The structural rules of generateContent, applied to turns converted from another format.

In order: no empty text parts, no empty contents; one content per turn (same-role runs
merged, tool results joining the user turn); the first turn is the user's; every model turn
with function calls is answered by the very next user turn with exactly one
``functionResponse`` per call, in the calls' order and before anything else, and every
response answers a call of the turn before it; the first call of each step carries a
``thoughtSignature`` (Google's placeholder when Gemini did not produce the call).
"""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.drafts import BRIDGE_USER_TEXT
from providers.formats._content_blocks.rules import report_bridge, report_empty_turn
from providers.formats._kit.ids import report_rewritten
from providers.formats.base import Drift
from providers.formats.gemini._constants import MISSING_RESULT_TEXT, SIGNATURE_PLACEHOLDER
from providers.formats.gemini._render_parts import Context, Part
from providers.formats.gemini._render_turns import Turn, result_as_text

# The keys of a text part that may be blank (an empty thought is as empty).
_TEXT_KEYS = frozenset({"text", "thought"})


class Contents:
    """The ``contents`` of a converted request, given the turns a batch at a time as they
    are built (:meth:`add`, see ``_render_turns.BATCH``) and complete at :meth:`close`;
    every change is a warning.

    The rules run pass by pass over each batch, the last merged turn waiting for the next
    one (a turn of its role may still join it). The warnings keep the order of the rules,
    each rule's in the order of the turns: each rule keeps its own until :meth:`close`."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._contents: list[dict[str, Any]] = []
        self._open: Turn | None = None  # the last merged turn, which the next may join
        self._calls: list[Part] = []  # those of the last turn written, if the model's
        self._bridged: str | None = None  # the path the bridge turn was put before
        source = ctx.drift.source
        self._dropped, self._merges = Drift(source), Drift(source)
        self._pairs, self._signs = Drift(source), Drift(source)

    def add(self, turns: list[Turn]) -> None:
        """Take the next turns built."""
        self._write(self._merged(turns))

    def close(self) -> list[dict[str, Any]]:
        """The contents, with a closing user turn when the model has the last word."""
        last = self._open
        if last is None:  # no turn at all
            self._bridge("messages")
        else:
            self._write([last])
            if self._calls:  # the model has the last word: its calls still need answers
                closing = Turn("user", [], last.path, "user")
                _answer_calls(closing, self._calls, self._pairs)
                self._contents.append(closing.payload())
        warnings = self._ctx.drift.warnings
        warnings += self._dropped.warnings
        warnings += self._merges.warnings
        if self._bridged is not None:
            report_bridge(self._bridged, self._ctx.drift, "Gemini", _bridge_turn())
        warnings += self._pairs.warnings
        warnings += self._signs.warnings
        return self._contents

    def _merged(self, turns: list[Turn]) -> list[Turn]:
        """No empty text parts, no empty contents (info notes), then consecutive same-role
        turns as one (tool messages join the user turn): the complete ones."""
        complete: list[Turn] = []
        previous = self._open
        for turn in turns:
            parts = turn.parts
            for part in parts:
                body = part.body
                if body.get("text") == "" and body.keys() <= _TEXT_KEYS:  # Gemini refuses it
                    parts = turn.parts = _without_blank(parts, self._dropped)
                    break
            if not parts:
                report_empty_turn(turn.path, turn.source_role, self._dropped, "Gemini")
                continue
            if previous is None or previous.role != turn.role:
                if previous is not None:
                    complete.append(previous)
                previous = turn
                continue
            self._merges.add(
                "role-merged",
                "Gemini takes one content per turn; merged with the message before",
                field=turn.path,
                original=turn.source_role,
                transformed=turn.role,
                details={"merged_into": previous.path},
            )
            previous.parts.extend(parts)
            if turn.extra:
                previous.extra = {**previous.extra, **turn.extra}
        self._open = previous
        return complete

    def _write(self, turns: list[Turn]) -> None:
        """Complete turns: each model turn's calls answered by the next turn
        (:func:`_answer_calls`) and its first call signed (:func:`_sign_first_call`)."""
        if not self._contents and turns and turns[0].role != "user":
            self._bridge(turns[0].path)
        calls = self._calls
        for turn in turns:
            if turn.role == "user":
                _answer_calls(turn, calls, self._pairs)
                calls = []
            else:
                calls = []
                for part in turn.parts:  # not a list comprehension: see Turn.payload
                    if part.call_id is not None:
                        calls.append(part)
                if calls:
                    _sign_first_call(calls[0], self._signs)
        self._calls = calls
        contents = self._contents
        for turn in turns:
            contents.append(turn.payload())

    def _bridge(self, path: str) -> None:
        """The user turn put first when the conversation would start with the model."""
        self._bridged = path
        self._contents.append(_bridge_turn())


def _bridge_turn() -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": BRIDGE_USER_TEXT}]}


def _without_blank(parts: list[Part], drift: Drift) -> list[Part]:
    kept = []
    for part in parts:
        body = part.body
        if body.get("text") == "" and body.keys() <= _TEXT_KEYS:
            drift.add(
                "content-dropped",
                "Gemini refuses empty text parts; left out",
                field=part.path,
                original="",
                severity="info",
            )
        else:
            kept.append(part)
    return kept


def _answer_calls(turn: Turn, calls: list[Part], drift: Drift) -> None:
    """One response per call of the previous turn, in the calls' order and first; a
    response that answers nothing there becomes text, an unanswered call gets an error.
    Calls that share an id (some providers number them per turn) take results in order."""
    if not calls:
        for part in turn.parts:
            if part.answers is not None:
                break
        else:
            return  # no call to answer and no response: the turn stays as it is
    elif _answered_in_order(turn.parts, calls):  # the common turn: only names to check
        parts = turn.parts
        for index, call in enumerate(calls):  # not zip(..., strict=False): see below
            _named(parts[index], call, drift)
        return
    pending: dict[str | None, int] = {}
    for call in calls:
        pending[call.call_id] = pending.get(call.call_id, 0) + 1
    taken: list[Part] = []
    others: list[Part] = []
    for part in turn.parts:
        if part.answers is None:
            others.append(part)
        elif pending.get(part.answers, 0) > 0:
            pending[part.answers] -= 1
            taken.append(part)
        else:
            others.extend(result_as_text(part, drift))
    queues: dict[str | None, list[Part]] = {}
    for part in taken:
        queues.setdefault(part.answers, []).append(part)
    ordered = [
        _named(queues[call.call_id].pop(0), call, drift)
        if queues.get(call.call_id)
        else _missing_result(call, drift)
        for call in calls
    ]
    before = {id(part): index for index, part in enumerate(turn.parts)}
    turn.parts = ordered + others
    for index, part in enumerate(turn.parts):
        if part.answers is not None and before.get(id(part), index) != index:
            _warn_reordered(part, before[id(part)], index, drift)


def _answered_in_order(parts: list[Part], calls: list[Part]) -> bool:
    """Whether ``parts`` start with one response per call, in the calls' order, and hold
    no other response: what :func:`_answer_calls` would leave where it is."""
    count = len(calls)
    if len(parts) < count:
        return False
    # Indexes, not zip(parts, calls, strict=False) (a keyword makes zip take CPython's slow
    # call, 2k instructions more), and loops, not all() over a generator: once per step.
    for index, call in enumerate(calls):
        if parts[index].answers != call.call_id:
            return False
    for part in parts[count:]:  # noqa: SIM110  (a loop, not all(): see above)
        if part.answers is not None:
            return False
    return True


def _named(result: Part, call: Part, drift: Drift) -> Part:
    """A response named as the call it answers: the name is how Gemini pairs them."""
    response = result.body["functionResponse"]
    if response["name"] != call.name:
        report_rewritten(
            drift,
            "Gemini pairs a response with its call by function name; renamed to the call's",
            f"{result.path}.name",
            response["name"],
            call.name,
        )
        response["name"] = call.name
    return result


def _warn_reordered(part: Part, original: int, transformed: int, drift: Drift) -> None:
    """A response moved inside its turn (original and new position in the turn's parts)."""
    drift.add(
        "message-reordered",
        "Gemini wants the function responses first, in the order of the calls; moved",
        field=part.path,
        original=original,
        transformed=transformed,
    )


def _missing_result(call: Part, drift: Drift) -> Part:
    body = {"functionResponse": {"name": call.name, "response": {"error": MISSING_RESULT_TEXT}}}
    drift.add(
        "message-reordered",
        "Gemini needs a response for every function call; an error response was inserted",
        field=call.path,
        transformed=body,
    )
    return Part(body, call.path, answers=call.call_id, name=call.name)


def _sign_first_call(first: Part, drift: Drift) -> None:
    """Gemini 3 refuses a step whose first function call has no thought signature."""
    if "thoughtSignature" in first.body:
        return
    first.body["thoughtSignature"] = SIGNATURE_PLACEHOLDER
    # The kit's report_defaulted says the same, but this runs once per step of every
    # converted conversation: its extra call cost 0.18% of bench/convert_instructions.py's
    # gemini figure (115 instructions per message).
    drift.add(
        "parameter-defaulted",
        "Gemini 3 wants a thought signature on the first function call of a step; "
        "Google's placeholder for calls it did not produce was used",
        field=first.path,
        transformed=SIGNATURE_PLACEHOLDER,
        severity="info",
    )
