"""The ``cohere`` format rendering realistic imports from other formats: the exact requests of
tool loops, refusals and thinking, and a warning for each lossy step.

Every rendered request must be one the cohere SDK's types accept (plus the rules they
cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

from typing import Any

import orjson

from tests.providers.formats.chat_completions._helpers import (
    FIXTURES,
    load,
    summary,
)
from tests.providers.formats.cohere._helpers import (
    assert_renders,
    imported,
)

# --------------------------------------------------------------------------- realistic imports


def test_anthropic_tool_loop_renders_the_exact_request() -> None:
    payload, _ = assert_renders(imported("anthropic", "tool_loop_parallel"))
    source = load(FIXTURES / "anthropic" / "tool_loop_parallel.json")
    paris, tokyo, time, retry = (
        "toolu_01A09q90qw90lq917835lq9",
        "toolu_01B2xKk5PnB4nqBwa9Ypc4Xj",
        "toolu_01C7Z3bJ2uLqTeKvQ9d8wM1r",
        "toolu_01D4mRrT6yWq8sVn2pXc5Hk",
    )

    def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
        return {
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }

    assert payload == {
        "model": "claude-sonnet-4-5-20250929",
        "max_tokens": 2048,
        "messages": [
            {"role": "system", "content": source["system"]},
            {"role": "user", "content": source["messages"][0]["content"]},
            {
                "role": "assistant",
                "tool_plan": "I'll look up both cities at once.",
                "tool_calls": [
                    call(paris, "get_weather", '{"city":"Paris","unit":"celsius"}'),
                    call(tokyo, "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                    call(time, "get_local_time", '{"city":"Paris"}'),
                ],
            },
            {
                "role": "tool",
                "tool_call_id": paris,
                "content": '{"temp_c": 18, "conditions": "cloudy"}',
            },
            {
                "role": "tool",
                "tool_call_id": tokyo,
                "content": [
                    {"type": "text", "text": "Error:"},
                    {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": time,
                "content": [{"type": "text", "text": "14:05 CEST (UTC+2)"}],
            },
            {
                "role": "assistant",
                "tool_plan": source["messages"][3]["content"][0]["text"],
                "tool_calls": [call(retry, "get_weather", '{"city":"Tokyo","unit":"celsius"}')],
            },
            {
                "role": "tool",
                "tool_call_id": retry,
                "content": '{"temp_c": 24, "conditions": "sunny"}',
            },
            {"role": "user", "content": "Thanks. And in Fahrenheit?"},
            {"role": "assistant", "content": source["messages"][5]["content"]},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": tool["name"],
                    "description": tool["description"],
                    "parameters": tool["input_schema"],
                },
            }
            for tool in source["tools"]
        ],
    }


def test_anthropic_tool_loop_warns_for_each_lossy_step() -> None:
    _, warnings = assert_renders(imported("anthropic", "tool_loop_parallel"))
    assert summary(warnings) == [
        (
            "field-unknown",
            "messages[5].content[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        (
            "capability-unsupported",
            "messages[3].content[1].is_error",
            True,
            [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        ),
        (
            "content-dropped",
            "messages[3].content[2].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 70},
            None,
        ),
        (
            "field-unknown",
            "tools[1].extra.anthropic",
            {"strict": True, "cache_control": {"type": "ephemeral"}},
            None,
        ),
        (
            "field-unknown",
            "tool_choice.extra.anthropic",
            {"disable_parallel_tool_use": False},
            None,
        ),
    ]
    assert {w.source for w in warnings} == {"cohere"}


def test_openai_refusals_render_the_exact_request_as_text() -> None:
    payload, warnings = assert_renders(imported("openai-chat", "refusal_exchange"))
    source = load(FIXTURES / "openai-chat" / "refusal_exchange.json")
    assert payload == {
        "model": "gpt-4o-2024-08-06",
        "messages": [
            source["request"]["messages"][0],
            {"role": "assistant", "content": "I can't help with getting into someone else's home."},
            source["request"]["messages"][2],
            {"role": "assistant", "content": "I'm sorry, I can't help with that."},
        ],
    }
    assert summary(warnings) == [
        (
            "field-unknown",
            "extra.openai-chat",
            {"response_format": source["request"]["response_format"]},
            None,
        ),
        (
            "content-dropped",
            "messages",
            ["finish_reason", "id", "model", "timestamp", "usage"],
            None,
        ),
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
    ]


def test_anthropic_thinking_keeps_its_text_but_not_its_signature() -> None:
    payload, warnings = assert_renders(imported("anthropic", "thinking_tool_loop"))
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    thinking = source["messages"][1]["content"][0]
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": thinking["thinking"]}
    ]
    assert summary(warnings) == [
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    text = orjson.dumps(payload).decode()
    assert thinking["signature"] not in text
    assert source["messages"][1]["content"][1]["data"] not in text
