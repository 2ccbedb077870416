"""Conversions between the two linearizing formats of the chat-completions family,
``cohere`` and ``mistral``."""

from __future__ import annotations

import pytest

from providers import formats
from tests.providers.formats.chat_completions._helpers import (
    FIXTURES,
    assert_renders,
    fixtures_of,
    load,
    stored,
)


@pytest.mark.parametrize(
    ("source", "target"), [("cohere", "mistral"), ("mistral", "cohere")], ids=lambda v: v
)
def test_each_format_s_fixtures_convert_to_the_other(source: str, target: str) -> None:
    for path in fixtures_of(source):
        [item] = formats.get(source).parse(load(path))
        assert_renders(target, stored(item.conversation))


def test_cohere_thinking_becomes_mistral_thinking_and_back() -> None:
    payload = load(FIXTURES / "cohere" / "exchange_reasoning_usage.json")
    to_mistral = formats.convert("cohere", "mistral", payload)
    answer = to_mistral.payload["messages"][-1]
    assert answer["content"][0] == {
        "type": "thinking",
        "thinking": [
            {"type": "text", "text": payload["response"]["message"]["content"][0]["thinking"]}
        ],
    }
    back = formats.convert("mistral", "cohere", to_mistral.payload)
    assert (
        back.payload["messages"][-1]["content"][0] == payload["response"]["message"]["content"][0]
    )
