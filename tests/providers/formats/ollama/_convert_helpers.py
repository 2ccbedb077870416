"""Helpers shared by the tests of the ``ollama`` renderer fed conversations from other
formats: converting, warning summaries and the nothing-silently-dropped check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.formats.ollama import render
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    Message,
    Parameters,
    TextBlock,
)
from tests.providers.formats.chat_completions._helpers import assert_nothing_silently_dropped
from tests.providers.sdk.ollama import validate_ollama_request

FIXTURES = Path(__file__).parents[3] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "k+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="qwen3")


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def assert_converts(conversation: Conversation) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render a conversation from another format: a valid request, nothing lost silently."""
    rendered = render(conversation)
    validate_ollama_request(rendered.payload)
    assert all(w.source == "ollama" for w in rendered.warnings)
    assert_nothing_silently_dropped(
        conversation, rendered.payload, rendered.warnings, data_of_urls=True
    )
    return rendered.payload, summary(rendered.warnings)


def messages(*items: Message, **fields: Any) -> Conversation:
    fields.setdefault("parameters", PARAMS)
    return Conversation(messages=list(items), **fields)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def text(value: str) -> TextBlock:
    return TextBlock(text=value)


def imported(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.parse(format_id, payload).items
    return Conversation.model_validate_json(item.conversation.model_dump_json())
