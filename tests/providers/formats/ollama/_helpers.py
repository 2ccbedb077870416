"""Fixture paths, sample data and round-trip helpers shared by the ``ollama`` format tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats.ollama import FORMAT
from providers.umf import (
    Conversation,
)

FIXTURES = Path(__file__).parents[3] / "fixtures"
OLLAMA_FIXTURES = sorted((FIXTURES / "ollama").glob("*.json"))
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "kYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / "ollama" / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = FORMAT.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = FORMAT.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(payload: Any) -> str:
    return str(parse_one(payload).extra["ollama"]["$shape"])


_CALL = {"function": {"name": "f", "arguments": {}}}


_USER = {"role": "user", "content": "hi"}
