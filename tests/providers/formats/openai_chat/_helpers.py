"""Fixture paths, sample data and round-trip helpers shared by the ``openai-chat`` format tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.umf import (
    Conversation,
)

FIXTURE_DIR = Path(__file__).parents[3] / "fixtures" / "openai-chat"
FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
OPENAI_CHAT = formats.get("openai-chat")


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURE_DIR / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = OPENAI_CHAT.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = OPENAI_CHAT.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(conversation: Conversation) -> str:
    return str(conversation.extra["openai-chat"]["$shape"])


_USER = {"role": "user", "content": "hi"}
_CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
