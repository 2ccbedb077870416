"""Constants and helpers shared by the ``anthropic`` conversion tests (``test_convert_*.py``)."""

from __future__ import annotations

import re
from typing import Any

from providers.formats.anthropic import render
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    Message,
    Parameters,
    TextBlock,
    ToolResultBlock,
)
from tests.providers.sdk_validation import validate_anthropic_request

OC = "openai-chat"
# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="claude-sonnet-4-5", max_tokens=1000)
TOOL_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def assert_converts(
    *messages: Message, **fields: Any
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render messages from another format; the payload must be a request the API takes."""
    fields.setdefault("parameters", PARAMS)
    rendered = render(Conversation(messages=list(messages), **fields))
    assert_valid_request(rendered.payload)
    assert all(w.source == "anthropic" for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def blocks_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def assert_valid_request(payload: dict[str, Any]) -> None:
    """The SDK's request type, plus the rules a TypedDict cannot say."""
    validate_anthropic_request(payload)
    messages = payload["messages"]
    assert messages and messages[0]["role"] == "user"
    previous_calls: list[str] = []
    for index, message in enumerate(messages):
        assert message["role"] in ("user", "assistant")
        if index:
            assert message["role"] != messages[index - 1]["role"]
        blocks = blocks_of(message)
        assert blocks
        for block in blocks:
            assert block["type"] != "text" or block["text"].strip()
        types = [block["type"] for block in blocks]
        results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
        assert types[: len(results)] == ["tool_result"] * len(results)
        assert sorted(results) == sorted(previous_calls)
        previous_calls = [b["id"] for b in blocks if b["type"] == "tool_use"]
        assert all(TOOL_ID.fullmatch(call) for call in previous_calls)
        assert message["role"] == "assistant" or not previous_calls
    assert not previous_calls
    system = payload.get("system")
    if isinstance(system, list):
        assert all(block["type"] == "text" and block["text"].strip() for block in system)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def tool(call_id: str, content: str, **fields: Any) -> Message:
    result = ToolResultBlock(tool_use_id=call_id, content=content, **fields)
    return Message(role="tool", tool_call_id=call_id, content=[result])


def text(value: str) -> TextBlock:
    # openai-chat marks string content with its own hint; hints never travel or warn.
    return TextBlock(text=value, extra={OC: {"$content": "string"}})
