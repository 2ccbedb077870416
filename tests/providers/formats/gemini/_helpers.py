"""Fixtures and helpers the ``gemini`` format tests share: loading fixtures, reading and
storing conversations, canonical bytes, and the request/response halves of a payload.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats.gemini import parse
from providers.umf import (
    Conversation,
)

ALL_FIXTURES = Path(__file__).parents[3] / "fixtures"
FIXTURES = ALL_FIXTURES / "gemini"
FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.json"))


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / f"{name}.json").read_bytes())


def read_without_warnings_but_ids(payload: Any) -> Conversation:
    """The one conversation read from ``payload``, asserting that its only warnings are
    the id-synthesized notes for calls Gemini gives no id."""
    results = parse(payload)
    assert len(results) == 1
    assert all(w.category == "id-synthesized" for w in results[0].warnings)
    return results[0].conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def request_of(payload: Any) -> dict[str, Any] | None:
    """The request inside any accepted shape (None for a bare response)."""
    if isinstance(payload, list):
        return {"contents": payload}
    if "request" in payload:
        return dict(payload["request"])
    return payload if "contents" in payload else None


def response_of(payload: Any) -> dict[str, Any] | None:
    if isinstance(payload, list) or "contents" in payload:
        return None
    return dict(payload.get("response", payload))


def _request(*contents: Any, **fields: Any) -> dict[str, Any]:
    return {"contents": list(contents), **fields}


USER = {"role": "user", "parts": [{"text": "hi"}]}
