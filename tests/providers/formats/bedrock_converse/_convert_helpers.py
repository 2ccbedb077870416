"""Constants and helpers shared by the ``bedrock-converse`` conversion tests
(``test_convert_*.py``). Every request is validated against botocore's Converse input shape
and the rules the shape cannot express."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats import parse as parse_as
from providers.formats.bedrock_converse import FORMAT
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    Message,
    Parameters,
    TextBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk.bedrock import check_converse_rules, validate_converse_request

FIXTURES = Path(__file__).parents[3] / "fixtures"
OC = "openai-chat"
# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="anthropic.claude-3-5-sonnet-20240620-v1:0")
TOOLS = [Tool(name="f", parameters={"type": "object"})]


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def assert_valid_request(payload: dict[str, Any]) -> None:
    validate_converse_request(payload)
    check_converse_rules(payload)


def assert_converts(
    *messages: Message, **fields: Any
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render messages from another format; the payload must be a request Converse takes."""
    fields.setdefault("parameters", PARAMS)
    # As registered: the kit checks media for every format on this way out.
    rendered = FORMAT.render(Conversation(messages=list(messages), **fields))
    assert_valid_request(rendered.payload)
    assert all(w.source == "bedrock-converse" for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def assert_fixture_converts(
    format_id: str, name: str
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render another format's fixture; the payload must be a request Converse takes."""
    payload = orjson.loads((FIXTURES / format_id / f"{name}.json").read_bytes())
    [item] = parse_as(format_id, payload).items
    rendered = FORMAT.render(item.conversation)
    assert_valid_request(rendered.payload)
    return rendered.payload, summary(rendered.warnings)


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


def call(call_id: str, name: str = "f", **arguments: Any) -> ToolUseBlock:
    return ToolUseBlock(id=call_id, name=name, input=arguments)


def user_turn(*texts: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"text": value} for value in texts]}
