"""An Anthropic import rendered as an ``openai-chat`` request: the exact request and
a warning for each lossy step."""

from __future__ import annotations

import orjson

from providers.formats._chat_completions.pairing import MISSING_RESULT_TEXT
from providers.formats.openai_chat import DEFAULT_MODEL
from providers.umf import (
    Conversation,
    Message,
    Parameters,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_chat._conversion_helpers import (
    LONG_ID,
    PNG,
    assert_renders_for_openai,
    png,
    rewritten,
    summary,
)

# --------------------------------------------------------------------------- an Anthropic import


def anthropic_import() -> Conversation:
    """A conversation as the anthropic format reads one: top-level system as a leading
    system message, results inside user messages, signed and redacted thinking."""
    paris, rome, wind = "toolu_01A09q90qw90lq917835lq9", LONG_ID, "toolu_01CwzZ3k7gQ2Hh8L"
    return Conversation(
        messages=[
            Message(role="system", content=[TextBlock(text="You are terse.")]),
            Message(role="user", content=[TextBlock(text="Weather in Paris and Rome?"), png()]),
            Message(
                role="assistant",
                model="claude-sonnet-4-5",
                content=[
                    ThinkingBlock(
                        text="Need both cities.", signature="EqQBCkgIARAB", provider="anthropic"
                    ),
                    TextBlock(text="Checking both."),
                    ToolUseBlock(id=paris, name="get_weather", input={"city": "Paris"}),
                    ToolUseBlock(id=rome, name="get_weather", input={"city": "Rome"}),
                ],
            ),
            Message(
                role="user",
                content=[
                    ToolResultBlock(
                        tool_use_id=paris,
                        content=[
                            TextBlock(text="18 °C, sunny"),
                            png("https://maps.example/radar.png"),
                        ],
                    ),
                    TextBlock(text="Also, is it windy?"),
                    ToolResultBlock(tool_use_id=rome, content="upstream timeout", is_error=True),
                ],
            ),
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(redacted=True, data="EmwKAhgBEgy3va", provider="anthropic"),
                    ToolUseBlock(id=wind, name="get_wind", input={"city": "Paris"}),
                ],
            ),
        ],
        tools=[
            Tool(
                name="get_weather",
                description="Weather by city",
                parameters={"type": "object", "properties": {"city": {"type": "string"}}},
                extra={"anthropic": {"cache_control": {"type": "ephemeral"}}},
            ),
            Tool(name="get_wind", parameters={"type": "object"}),
        ],
        tool_choice=ToolChoice(
            type="auto", extra={"anthropic": {"disable_parallel_tool_use": True}}
        ),
        parameters=Parameters(max_tokens=1024, top_k=40, temperature=0.7, stop=["\n\nHuman:"]),
        extra={"anthropic": {"metadata": {"user_id": "u-1"}, "$system": "string"}},
    )


def test_anthropic_import_renders_the_exact_request() -> None:
    payload, _ = assert_renders_for_openai(anthropic_import())
    rome = rewritten(LONG_ID)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 0.7,
        "max_completion_tokens": 1024,
        "stop": ["\n\nHuman:"],
        "messages": [
            {"role": "system", "content": "You are terse."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Weather in Paris and Rome?"},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                ],
            },
            {
                "role": "assistant",
                "content": "Checking both.",
                "tool_calls": [
                    {
                        "id": "toolu_01A09q90qw90lq917835lq9",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    },
                    {
                        "id": rome,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
                    },
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "toolu_01A09q90qw90lq917835lq9",
                "content": "18 °C, sunny",
            },
            {"role": "tool", "tool_call_id": rome, "content": "Error: upstream timeout"},
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "https://maps.example/radar.png"}}
                ],
            },
            {"role": "user", "content": "Also, is it windy?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "toolu_01CwzZ3k7gQ2Hh8L",
                        "type": "function",
                        "function": {"name": "get_wind", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "toolu_01CwzZ3k7gQ2Hh8L",
                "content": MISSING_RESULT_TEXT,
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Weather by city",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                },
            },
            {
                "type": "function",
                "function": {"name": "get_wind", "parameters": {"type": "object"}},
            },
        ],
        "tool_choice": "auto",
    }


def test_anthropic_import_warns_for_each_lossy_step() -> None:
    _, warnings = assert_renders_for_openai(anthropic_import())
    rome = rewritten(LONG_ID)
    assert summary(warnings) == [
        ("field-unknown", "extra.anthropic", {"metadata": {"user_id": "u-1"}}, None),
        ("content-dropped", "messages", ["model"], None),
        ("reasoning-dropped", "messages[2].content[0]", "Need both cities.", None),
        ("id-rewritten", "messages[2].content[3].id", LONG_ID, rome),
        ("message-reordered", "messages[3].content[0].content[1]", "tool", "user"),
        (
            "capability-unsupported",
            "messages[3].content[2].is_error",
            True,
            "Error: upstream timeout",
        ),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
        ("message-reordered", "messages[3].content[2]", 3, 4),
        ("id-synthesized", "messages[4].content[1]", None, MISSING_RESULT_TEXT),
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "parameters.top_k", 40, None),
        (
            "field-unknown",
            "tools[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        ("field-unknown", "tool_choice.extra.anthropic", {"disable_parallel_tool_use": True}, None),
    ]
    assert warnings[6].details == {"redacted": True, "signed": True}
    assert {w.source for w in warnings} == {"openai-chat"}
    assert [w.severity for w in warnings if w.category in ("field-unknown", "id-rewritten")] == [
        "info"
    ] * 4


def test_signatures_and_redacted_data_never_travel() -> None:
    payload, _ = assert_renders_for_openai(anthropic_import())
    text = orjson.dumps(payload).decode()
    assert "EqQBCkgIARAB" not in text and "EmwKAhgBEgy3va" not in text
