"""Every format, given a conversation from another: each message's id, timestamp, model,
finish reason, usage, metadata and name is either in the output or named in a warning.

The table says what each format holds; a fact it does not hold must be in the one info
note (``content-dropped`` on ``messages``) with the messages it was on, or, for a name, in
its own note. ChatML notes each message apart, and its tests say so.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers import formats
from providers.umf import Conversation

META = ("id", "timestamp", "model", "finish_reason", "usage", "metadata")
# What each value looks like in an output that holds it.
WRITTEN = {
    "id": ("msg_0001", "q_0001"),
    "timestamp": ("2025-03-04T05:06:0", "17410647"),
    "model": ("model-z9",),
    "finish_reason": ('"length"', '"max_tokens"', '"MAX_TOKENS"'),
    "usage": ("727",),
    "metadata": ('"mark"',),
}
CONVERSATION = Conversation.model_validate(
    {
        "messages": [
            {
                "role": "user",
                "id": "q_0001",
                "name": "alice_zz",
                "timestamp": "2025-03-04T05:06:07Z",
                "metadata": {"mark": "u"},
                "content": [{"type": "text", "text": "hi"}],
            },
            {
                "role": "assistant",
                "id": "msg_0001",
                "timestamp": "2025-03-04T05:06:09Z",
                "model": "model-z9",
                "finish_reason": "length",
                "usage": {"prompt_tokens": 313, "completion_tokens": 727},
                "metadata": {"mark": "a"},
                "content": [{"type": "text", "text": "hello"}],
            },
        ]
    }
)
# Format -> (what every message keeps, what the final answer keeps besides).
HOLDS: dict[str, tuple[set[str], set[str]]] = {
    "anthropic": (set(), set()),
    "bedrock-converse": (set(), set()),
    "cohere": (set(), set()),
    "mistral": (set(), set()),
    "ollama": (set(), set()),
    "openai-chat": (set(), set()),
    "openai-finetune": (set(), set()),
    "openai-responses": (set(), set()),
    "gemini": (set(), set()),
    "appam": ({"id", "timestamp"}, set()),
    "art": (set(), set()),
    "forge": (set(), set()),
    "matey-ir": ({"metadata"}, set()),
    "chatgpt-export": ({"id", "timestamp", "model", "finish_reason"}, set()),
    "claude-export": ({"id", "timestamp"}, set()),
    "sharegpt": (set(), set()),
    "otel-genai": (set(), {"id", "model", "finish_reason", "usage"}),
}
NAMED = {"openai-chat", "openai-finetune", "art", "matey-ir", "otel-genai"}


def test_the_table_covers_every_format_but_umf_and_chatml() -> None:
    assert HOLDS.keys() == {fmt.id for fmt in formats.all_formats()} - {"umf", "chatml"}


@pytest.mark.parametrize("format_id", sorted(HOLDS))
def test_each_fact_is_carried_or_named_in_one_note(format_id: str) -> None:
    every, answer = HOLDS[format_id]
    rendered = formats.convert("umf", format_id, CONVERSATION.model_dump(mode="json"))
    written = orjson.dumps(rendered.payload).decode()
    expected: dict[str, list[int]] = {}
    for index, message in enumerate(CONVERSATION.messages):
        kept = every | (answer if index == len(CONVERSATION.messages) - 1 else set())
        for name in META:
            if getattr(message, name) and name not in kept:
                expected.setdefault(name, []).append(index)
    for name in every | answer:
        assert any(form in written for form in WRITTEN[name]), f"{format_id} lost {name}"
    notes = [
        w for w in rendered.warnings if w.category == "content-dropped" and w.field == "messages"
    ]
    if expected:
        [note] = notes
        assert note.severity == "info"
        assert note.original_value == sorted(expected)
        assert note.details == {"messages": expected}
    else:
        assert notes == []


@pytest.mark.parametrize("format_id", sorted(HOLDS))
def test_a_speakers_name_is_carried_or_named(format_id: str) -> None:
    rendered = formats.convert("umf", format_id, CONVERSATION.model_dump(mode="json"))
    names: list[Any] = [
        (w.category, w.original_value) for w in rendered.warnings if w.field == "messages[0].name"
    ]
    if format_id in NAMED:
        assert "alice_zz" in orjson.dumps(rendered.payload).decode()
        assert names == []
    else:
        assert names == [("content-dropped", "alice_zz")]
