"""How strongly ``detect`` claims a payload as ``ollama``."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.ollama import detect
from tests.providers.formats.ollama._helpers import (
    _CALL,
    _USER,
    PNG,
)

DETECT_CASES: dict[str, tuple[Any, int]] = {
    "plain messages": ([_USER, {"role": "assistant", "content": "a"}], 1),
    "options": ({"model": "m", "messages": [_USER], "options": {}}, 2),
    "think": ({"model": "m", "messages": [_USER], "think": "high"}, 2),
    "images": ([{"role": "user", "content": "x", "images": [PNG]}], 2),
    "tool_name": ([{"role": "tool", "tool_name": "f", "content": "x"}], 2),
    "object arguments without type": ([{"role": "assistant", "tool_calls": [_CALL]}], 2),
    "string arguments": (
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        0,
    ),
    "content parts": ([{"role": "user", "content": [{"type": "text", "text": "a"}]}], 0),
    "openai name": ([{"role": "user", "content": "a", "name": "x"}], 0),
    "anthropic request": ({"model": "m", "max_tokens": 5, "messages": [_USER]}, 0),
    "response": ({"message": {"role": "assistant", "content": "a"}, "done": True}, 2),
    "response without done": ({"message": {"role": "assistant", "content": "a"}}, 0),
    "a string": ("<|im_start|>user\nhi<|im_end|>", 0),
    "empty list": ([], 0),
}


@pytest.mark.parametrize(("payload", "score"), DETECT_CASES.values(), ids=DETECT_CASES.keys())
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score
