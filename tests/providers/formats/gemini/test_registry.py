"""The ``gemini`` format in the registry: its contract id, detection scores, and detection of
its own fixtures and of other formats' fixtures.
"""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats import get
from providers.formats.gemini import FORMAT, detect
from tests.providers.formats.gemini._helpers import (
    USER,
    _request,
)

# --------------------------------------------------------------------------- registry


def test_registered_under_its_contract_id() -> None:
    assert get("gemini") is FORMAT
    assert FORMAT.provider == "gemini"
    assert FORMAT.capabilities.reasoning_signatures
    assert "tool" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        (_request(USER), 2),
        ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, 0),
        ({"contents": [{"role": "user", "content": "x"}]}, 0),
        ([USER, {"role": "model", "parts": [{"functionCall": {"name": "f"}}]}], 2),
        ([{"role": "user", "content": "x"}], 0),
        ([{"role": "user", "parts": [{"type": "text", "content": "x"}]}], 0),
        ({"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}}]}, 2),
        ({"candidates": [{"finishReason": "SAFETY", "content": {"role": "model"}}]}, 2),
        ({"promptFeedback": {"blockReason": "SAFETY"}}, 2),
        ({"request": _request(USER), "response": {"candidates": []}}, 2),
        ({"request": {"messages": []}, "response": {"candidates": []}}, 0),
        ({"messages": [{"role": "user", "content": "x"}]}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score
