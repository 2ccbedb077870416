"""Check ShareGPT entries against what LLaMA-Factory's ShareGPT loader accepts.

There is no SDK for ShareGPT; LLaMA-Factory (``data/converter.py``,
``SharegptDatasetConverter``, and the data README) is the reference consumer. An entry it
trains on has ``conversations`` of ``{"from", "value"}`` turns: an optional leading
``system`` turn (or a top-level ``system`` string), then ``human``/``observation`` at even
indexes and ``gpt``/``function_call`` at odd ones; ``function_call`` values are JSON
holding a call ``{"name", "arguments"}`` or a list of them; ``tools`` is a JSON string of
function definitions; every ``<image>`` / ``<audio>`` placeholder has its path in
``images`` / ``audios`` and the other way round.
"""

from __future__ import annotations

import json
from typing import Any

USER_SIDE = {"human", "observation"}
ASSISTANT_SIDE = {"gpt", "function_call"}
# Names the original ShareGPT dumps use besides LLaMA-Factory's.
DUMP_NAMES = {"user", "assistant", "chatgpt", "bing", "bard", "model", "tool", "system"}


def check_sharegpt_entry(entry: Any, *, strict: bool = True) -> None:
    """Raise ``AssertionError`` unless ``entry`` is an entry LLaMA-Factory trains on
    (``strict``), or, when not strict, a ShareGPT dump entry of known role names."""
    assert isinstance(entry, dict), "an entry is an object"
    turns = entry["conversations"]
    assert isinstance(turns, list) and turns, "conversations is a non-empty list"
    for turn in turns:
        assert isinstance(turn, dict) and isinstance(turn.get("value"), str), turn
        assert turn["from"] in USER_SIDE | ASSISTANT_SIDE | DUMP_NAMES, turn["from"]
    if "system" in entry:
        assert isinstance(entry["system"], str)
    if strict:
        _check_alternation(turns)
    for turn in turns:
        if turn["from"] == "function_call":
            _check_calls(json.loads(turn["value"]))
    if "tools" in entry:
        tools = json.loads(entry["tools"])
        assert isinstance(tools, list) and all(isinstance(t.get("name"), str) for t in tools)
    _check_placeholders(entry, turns)


def _check_alternation(turns: list[dict[str, Any]]) -> None:
    if turns[0]["from"] == "system":
        turns = turns[1:]
    for index, turn in enumerate(turns):
        side = USER_SIDE if index % 2 == 0 else ASSISTANT_SIDE
        assert turn["from"] in side, f"conversations[{index}] is {turn['from']!r}: roles alternate"


def _check_calls(value: Any) -> None:
    calls = value if isinstance(value, list) else [value]
    assert calls
    for call in calls:
        assert isinstance(call, dict) and isinstance(call["name"], str) and "arguments" in call


def _check_placeholders(entry: dict[str, Any], turns: list[dict[str, Any]]) -> None:
    text = "".join(turn["value"] for turn in turns)
    for key, token in (("images", "<image>"), ("audios", "<audio>")):
        assert text.count(token) == len(entry.get(key, [])), f"{token} placeholders and {key}"
