"""Fixtures and helpers shared by the ``anthropic`` format tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats.anthropic import parse
from providers.umf import Conversation

FIXTURES = Path(__file__).parents[3] / "fixtures" / "anthropic"
FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.json"))


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / f"{name}.json").read_bytes())


def read_without_warnings(payload: Any) -> Conversation:
    """The one conversation read from ``payload``, asserting that nothing was warned."""
    results = parse(payload)
    assert len(results) == 1
    assert results[0].warnings == []
    return results[0].conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def request_of(payload: Any) -> dict[str, Any]:
    """The request inside any accepted shape (a bare list gets the required fields)."""
    if isinstance(payload, list):
        return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": payload}
    request: dict[str, Any] = payload.get("request", payload)
    return request


def _request(*messages: Any, **fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 5, "messages": list(messages), **fields}


USER = {"role": "user", "content": "hi"}
