"""The ``gemini`` renderer fed whole conversations imported from the ``openai-chat`` and
``anthropic`` fixtures: the exact request and the exact drift warnings.

One rule at a time is in ``test_convert_*.py``; every block in every role, random
conversations and every other format's fixtures in ``test_convert_any.py``. The
helpers here are shared by both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats import parse as parse_as
from providers.formats.gemini import SIGNATURE_PLACEHOLDER, render
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk.gemini import check_gemini_rules, validate_gemini_request

FIXTURES = Path(__file__).parents[3] / "fixtures"
OC = "openai-chat"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
SIGNED = {"thoughtSignature": SIGNATURE_PLACEHOLDER}


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def assert_valid_request(payload: dict[str, Any]) -> None:
    """The SDK's types, plus the rules a type cannot say."""
    validate_gemini_request(payload)
    check_gemini_rules(payload)


def assert_converts(
    *messages: Message, **fields: Any
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render messages from another format; the payload must be a request the API takes."""
    rendered = render(Conversation(messages=list(messages), **fields))
    assert_valid_request(rendered.payload)
    assert all(w.source == "gemini" and w.field for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def from_fixture(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / f"{name}.json").read_bytes())
    return parse_as(format_id, payload).items[0].conversation


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


def parts_of(payload: dict[str, Any], index: int) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = payload["contents"][index]["parts"]
    return parts


# --------------------------------------------------------------------------- whole imports


def test_openai_chat_tool_loop_converts_with_exact_payload_and_warnings() -> None:
    rendered = render(from_fixture(OC, "tool_loop_parallel"))
    assert_valid_request(rendered.payload)
    weather = {"name": "get_weather"}
    assert rendered.payload == {
        "systemInstruction": {
            "parts": [
                {"text": "You are a travel assistant. Use the tools; never guess the weather."}
            ]
        },
        "contents": [
            {
                "role": "user",
                "parts": [
                    {
                        "text": "What's the weather in Paris and Tokyo right now, and what time "
                        "is it in Tokyo?"
                    }
                ],
            },
            {
                "role": "model",
                "parts": [
                    {"functionCall": {**weather, "args": {"city": "Paris", "unit": "celsius"}}}
                    | SIGNED,
                    {"functionCall": {**weather, "args": {"city": "Tokyo", "unit": "celsius"}}},
                    {"functionCall": {"name": "get_time", "args": {"timezone": "Asia/Tokyo"}}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            **weather,
                            "response": {"city": "Paris", "temp_c": 14, "conditions": "light rain"},
                        }
                    },
                    {
                        "functionResponse": {
                            **weather,
                            "response": {"city": "Tokyo", "temp_c": 21, "conditions": "clear"},
                        }
                    },
                    {
                        "functionResponse": {
                            "name": "get_time",
                            "response": {"output": "2025-05-23T22:05:00+09:00"},
                        }
                    },
                ],
            },
            {
                "role": "model",
                "parts": [
                    {
                        "text": "Paris: 14 °C with light rain. Tokyo: 21 °C and clear, and it is "
                        "22:05 there."
                    }
                ],
            },
            {
                "role": "user",
                "parts": [{"text": "Great. Find me a sushi place in Shibuya for two tonight."}],
            },
            {
                "role": "model",
                "parts": [
                    {"text": "Searching now."},
                    {"functionCall": {"name": "search_restaurants", "args": {}}} | SIGNED,
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "search_restaurants",
                            "response": {"output": "error: arguments are not valid JSON"},
                        }
                    }
                ],
            },
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        **weather,
                        "description": "Current weather for a city.",
                        "parametersJsonSchema": {
                            "type": "object",
                            "properties": {
                                "city": {"type": "string"},
                                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                            },
                            "required": ["city", "unit"],
                            "additionalProperties": False,
                        },
                    },
                    {
                        "name": "get_time",
                        "description": "Local time in an IANA timezone.",
                        "parameters": {
                            "type": "object",
                            "properties": {"timezone": {"type": "string"}},
                            "required": ["timezone"],
                        },
                    },
                    {
                        "name": "search_restaurants",
                        "parameters": {
                            "type": "object",
                            "properties": {
                                "city": {"type": "string"},
                                "area": {"type": "string"},
                                "cuisine": {"type": "string"},
                                "party_size": {"type": "integer"},
                            },
                        },
                    },
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"temperature": 0.2},
    }
    arguments = '{"city":"Tokyo","area":"Shibuya","cuisine":"sushi","party_size":2,'
    timestamp, failure = "2025-05-23T22:05:00+09:00", "error: arguments are not valid JSON"
    assert summary(rendered.warnings) == [
        (
            "id-rewritten",
            "info",
            "messages[2].content[0].id",
            "call_pWq3kq8mJ2u7vT1sXbN0aZcD",
            None,
        ),
        (
            "id-rewritten",
            "info",
            "messages[2].content[1].id",
            "call_Lr9dE5fGh2JkL0mNoP3qRsTu",
            None,
        ),
        (
            "id-rewritten",
            "info",
            "messages[2].content[2].id",
            "call_Zx8cV7bN6mA5sD4fG3hJ2kL1",
            None,
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[5].content[0]",
            timestamp,
            {"output": timestamp},
        ),
        ("content-dropped", "warning", "messages[8].content[1].raw_arguments", arguments, {}),
        (
            "id-rewritten",
            "info",
            "messages[8].content[1].id",
            "call_Qm4nB8vC2xZ6lK0jH9gF7dS5",
            None,
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[9].content[0]",
            failure,
            {"output": failure},
        ),
        ("role-merged", "warning", "messages[4]", "tool", "user"),
        ("role-merged", "warning", "messages[5]", "tool", "user"),
        ("parameter-defaulted", "info", "messages[2].content[0]", None, SIGNATURE_PLACEHOLDER),
        ("parameter-defaulted", "info", "messages[8].content[1]", None, SIGNATURE_PLACEHOLDER),
        (
            "parameter-normalized",
            "info",
            "tools[0].parameters",
            "parameters",
            "parametersJsonSchema",
        ),
        ("field-unknown", "info", "tools[0].extra.openai-chat", {"strict": True}, None),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", True, None),
        ("parameter-unsupported", "info", "parameters.model", "gpt-4.1-2025-04-14", None),
    ]


def test_anthropic_thinking_tool_loop_converts_with_exact_payload_and_warnings() -> None:
    conversation = from_fixture("anthropic", "thinking_tool_loop")
    rendered = render(conversation)
    assert_valid_request(rendered.payload)
    query = (
        "SELECT count(*) FILTER (WHERE shipped_at > promised_at) AS late, count(*) AS total "
        "FROM orders WHERE ordered_at >= date '2025-05-01' AND ordered_at < date '2025-06-01'"
    )
    rows = '[{"late": 42, "total": 1380}]'
    assert rendered.payload == {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {
                        "text": "How many orders shipped late last month, and what share of all "
                        "orders is that?"
                    }
                ],
            },
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "run_sql", "args": {"query": query}}} | SIGNED],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "run_sql", "response": {"output": rows}}}],
            },
            {
                "role": "model",
                "parts": [{"text": "42 of last month's 1,380 orders shipped late, about 3.0%."}],
            },
            {
                "role": "user",
                "parts": [{"text": "Which carrier was responsible for most of them?"}],
            },
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "run_sql",
                        "description": "Run a read-only SQL query against the analytics warehouse.",
                        "parameters": {
                            "type": "object",
                            "properties": {"query": {"type": "string"}},
                            "required": ["query"],
                        },
                    }
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {"maxOutputTokens": 16000},
    }
    thinking = conversation.messages[1].content[0]
    assert isinstance(thinking, ThinkingBlock)
    assert summary(rendered.warnings) == [
        ("reasoning-dropped", "warning", "messages[1].content[0]", thinking.text, None),
        ("reasoning-dropped", "warning", "messages[1].content[1]", None, None),
        (
            "id-rewritten",
            "info",
            "messages[1].content[2].id",
            "toolu_01NXq3wPqLsGkVbZ6rT8uYc2",
            None,
        ),
        ("content-type-unsupported", "warning", "messages[2].content[0]", rows, {"output": rows}),
        ("parameter-defaulted", "info", "messages[1].content[2]", None, SIGNATURE_PLACEHOLDER),
        ("parameter-unsupported", "info", "parameters.model", "claude-opus-4-1-20250805", None),
        (
            "field-unknown",
            "info",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
    ]


def test_anthropic_tool_results_with_errors_and_images() -> None:
    rendered = render(from_fixture("anthropic", "tool_loop_parallel"))
    assert_valid_request(rendered.payload)
    results = [part["functionResponse"] for part in parts_of(rendered.payload, 2)]
    assert results == [
        {"name": "get_weather", "response": {"temp_c": 18, "conditions": "cloudy"}},
        {
            "name": "get_weather",
            "response": {"error": "WeatherServiceError: upstream timeout after 10s"},
        },
        {
            "name": "get_local_time",
            "response": {"output": "14:05 CEST (UTC+2)"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG}}],
        },
    ]
    wrapped = [w for w in summary(rendered.warnings) if w[0] == "content-type-unsupported"]
    assert wrapped == [
        (
            "content-type-unsupported",
            "warning",
            "messages[3].content[1]",
            "WeatherServiceError: upstream timeout after 10s",
            {"error": "WeatherServiceError: upstream timeout after 10s"},
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[3].content[2]",
            "14:05 CEST (UTC+2)",
            {"output": "14:05 CEST (UTC+2)"},
        ),
    ]
    # The user text after the last result joins the results' turn, after them.
    assert [next(iter(part)) for part in parts_of(rendered.payload, 4)] == [
        "functionResponse",
        "text",
    ]
