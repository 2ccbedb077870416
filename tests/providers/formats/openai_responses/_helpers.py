"""What the ``openai-responses`` parse and render tests share: the fixtures, reading one
conversation, and checking that a payload is written back exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.umf import (
    Conversation,
)

FORMAT_ID = "openai-responses"
FIXTURES_ROOT = Path(__file__).parents[3] / "fixtures"
FIXTURE_DIR = FIXTURES_ROOT / FORMAT_ID
FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
RESPONSES = formats.get(FORMAT_ID)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURE_DIR / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = RESPONSES.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = RESPONSES.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(conversation: Conversation) -> str:
    return str(conversation.extra[FORMAT_ID]["$shape"])


def ours(conversation: Conversation, index: int) -> dict[str, Any]:
    return conversation.messages[index].extra.get(FORMAT_ID, {})
