"""The ``anthropic`` format: its registration and detection."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats import get
from providers.formats.anthropic import FORMAT, detect
from tests.providers.formats.anthropic._helpers import (
    USER,
)

# --------------------------------------------------------------------------- registry


def test_registered_under_its_contract_id() -> None:
    assert get("anthropic") is FORMAT
    assert FORMAT.provider == "anthropic"
    assert FORMAT.capabilities.reasoning_signatures
    assert "developer" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        ({"model": "m", "max_tokens": 5, "system": "s", "messages": [USER]}, 2),
        ({"model": "m", "messages": [USER]}, 1),
        ({"model": "m", "messages": [{"role": "tool", "content": "x", "tool_call_id": "c"}]}, 0),
        ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, 0),
        ({"messages": [USER], "parameters": {}}, 0),
        ([USER, {"role": "assistant", "content": "hello"}], 1),
        ({"from": "human", "value": "x"}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score
