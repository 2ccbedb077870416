"""Turn-by-turn comparison of an original message and its replay: a word diff of the
text, the tool calls each side made, and token, cost and latency deltas."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from conversations import pricing, selectors

_WORDS = re.compile(r"\s+|[^\s]+")


def message_text(message: dict[str, Any] | None) -> str:
    """The visible text of a message (its text and refusal blocks)."""
    if message is None:
        return ""
    parts = [b.get("text") or "" for b in message["blocks"] if b["type"] in ("text", "refusal")]
    return "\n\n".join(parts)


def word_diff(before: str, after: str) -> SafeString:
    """Both texts merged, deletions in <del> and insertions in <ins>; every piece escaped."""
    old, new = _WORDS.findall(before), _WORDS.findall(after)
    pieces: list[str] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pieces.append(escape("".join(old[i1:i2])))
            continue
        if i2 > i1:
            pieces.append(f"<del>{escape(''.join(old[i1:i2]))}</del>")
        if j2 > j1:
            pieces.append(f"<ins>{escape(''.join(new[j1:j2]))}</ins>")
    return mark_safe("".join(pieces))


def tool_calls(message: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(name, arguments as sorted JSON) of each tool call in a message."""
    if message is None:
        return []
    return [
        (str(b.get("name", "")), json.dumps(b.get("input", {}), sort_keys=True))
        for b in message["blocks"]
        if b["type"] == "tool_use"
    ]


@dataclass
class TurnComparison:
    compared: selectors.ComparedTurn
    diff: SafeString
    same_text: bool
    calls_only_original: list[tuple[str, str]] = field(default_factory=list)
    calls_only_replay: list[tuple[str, str]] = field(default_factory=list)
    calls_shared: list[tuple[str, str]] = field(default_factory=list)
    tokens: dict[str, tuple[int | None, int | None, int | None]] = field(default_factory=dict)
    cost: tuple[Decimal | None, Decimal | None, Decimal | None] = (None, None, None)
    latency: tuple[int | None, int | None, int | None] = (None, None, None)


def _delta(before: Any, after: Any) -> Any:
    return after - before if before is not None and after is not None else None


def compare_turn(compared: selectors.ComparedTurn) -> TurnComparison:
    original, replay = compared.original, compared.replay
    before, after = message_text(original), message_text(replay)
    old_calls, new_calls = tool_calls(original), tool_calls(replay)
    result = TurnComparison(compared, word_diff(before, after), before == after)
    result.calls_shared = [c for c in new_calls if c in old_calls]
    result.calls_only_original = [c for c in old_calls if c not in new_calls]
    result.calls_only_replay = [c for c in new_calls if c not in old_calls]
    old_usage = (original or {}).get("usage") or {}
    new_usage = compared.turn.usage or (replay or {}).get("usage") or {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        a, b = old_usage.get(key), new_usage.get(key)
        result.tokens[key] = (a, b, _delta(a, b))
    old_cost = pricing.cost((original or {}).get("model"), old_usage)
    new_cost = pricing.cost((replay or {}).get("model") or compared.turn.run.model, new_usage)
    result.cost = (old_cost, new_cost, _delta(old_cost, new_cost))
    old_latency = ((original or {}).get("metadata") or {}).get("latency_ms")
    old_latency = old_latency if isinstance(old_latency, int) else None
    new_latency = compared.turn.latency_ms
    result.latency = (old_latency, new_latency, _delta(old_latency, new_latency))
    return result
