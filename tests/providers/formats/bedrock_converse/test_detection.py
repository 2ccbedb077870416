"""The ``bedrock-converse`` format: its registration, and detection of its own and other
formats' fixtures."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats import get
from providers.formats.bedrock_converse import FORMAT, detect
from tests.providers.formats.bedrock_converse._helpers import (
    USER,
    _request,
    _user,
)

# --------------------------------------------------------------------------- registry, detect


def test_registered_under_its_contract_id() -> None:
    assert get("bedrock-converse") is FORMAT
    assert FORMAT.provider == "bedrock"
    assert FORMAT.capabilities.reasoning_signatures
    assert "tool" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        (_request(USER), 2),
        ({"messages": [USER], "inferenceConfig": {"maxTokens": 5}}, 2),
        ({"messages": [USER]}, 2),
        ({"messages": [_user({"futureBlock": {}})]}, 1),
        ({"messages": [{"role": "user", "content": "hi"}]}, 0),
        ({"messages": [_user({"type": "text", "text": "hi"})]}, 0),
        ({"model": "m", "messages": [USER]}, 0),
        ({"messages": [USER], "parameters": {}}, 0),
        ([USER, {"role": "assistant", "content": [{"text": "hello"}]}], 2),
        ([{"role": "user", "parts": [{"text": "x"}]}], 0),
        ({"output": {"message": {"role": "assistant", "content": [{"text": "x"}]}}}, 2),
        ({"output": "x"}, 0),
        ({"from": "human", "value": "x"}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score
