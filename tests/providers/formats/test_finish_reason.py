"""A finish reason is written back as the provider wrote it, an empty string included (it
was once taken for "none" and dropped)."""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats

CHOICE: dict[str, Any] = {
    "id": "cmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": ""}
    ],
}


@pytest.mark.parametrize(
    ("format_id", "payload"),
    [
        ("cohere", {"finish_reason": "", "message": {"role": "assistant"}}),
        ("mistral", CHOICE),
        ("openai-chat", CHOICE),
    ],
)
def test_an_empty_finish_reason_round_trips(format_id: str, payload: Any) -> None:
    fmt = formats.get(format_id)
    [item] = fmt.parse(payload)
    assert item.conversation.messages[-1].provider_finish_reason == ""
    assert fmt.render(item.conversation).payload == payload
