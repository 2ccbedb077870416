"""The ``openai-responses`` renderer fed other formats' fixtures: exact payloads and drift
warnings for Anthropic and Chat Completions loops, and valid requests for every fixture.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from providers import formats
from providers.umf import (
    Conversation,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    FIXTURES,
    FORMAT_ID,
    assert_renders,
    from_fixture,
    summary,
)

# --------------------------------------------------------------------------- whole fixtures


def test_anthropic_thinking_loop_converts_with_exact_payload_and_warnings() -> None:
    source, conversation = from_fixture("anthropic", "thinking_tool_loop.json")
    payload, warnings = assert_renders(conversation)
    sql = source["messages"][1]["content"][2]
    assert payload == {
        "model": "claude-opus-4-1-20250805",
        "max_output_tokens": 16000,
        "input": [
            {"role": "user", "content": source["messages"][0]["content"]},
            {
                "type": "function_call",
                "call_id": sql["id"],
                "name": "run_sql",
                "arguments": orjson.dumps(sql["input"]).decode(),
            },
            {
                "type": "function_call_output",
                "call_id": sql["id"],
                "output": source["messages"][2]["content"][0]["content"],
            },
            {"role": "assistant", "content": source["messages"][3]["content"][0]["text"]},
            {"role": "user", "content": source["messages"][4]["content"]},
        ],
        "tools": [
            {
                "type": "function",
                "name": "run_sql",
                "description": source["tools"][0]["description"],
                "parameters": source["tools"][0]["input_schema"],
                "strict": False,
            }
        ],
        "tool_choice": "auto",
    }
    thinking = source["messages"][1]["content"][0]["thinking"]
    assert summary(warnings) == [
        ("field-unknown", "extra.anthropic", {"thinking": source["thinking"]}, None),
        ("reasoning-dropped", "messages[1].content[0]", thinking, None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    assert [w.details for w in warnings[1:]] == [
        {"provider": "anthropic", "redacted": False, "signed": True},
        {"provider": "anthropic", "redacted": True, "signed": True},
    ]


def test_anthropic_parallel_loop_warns_for_error_flag_and_anthropic_fields() -> None:
    _, conversation = from_fixture("anthropic", "tool_loop_parallel.json")
    payload, warnings = assert_renders(conversation)
    error_output = [
        {"type": "input_text", "text": "Error:"},
        {"type": "input_text", "text": ("WeatherServiceError: upstream timeout after 10s")},
    ]
    assert payload["input"][7]["output"] == error_output
    assert payload["input"][8]["output"][1]["type"] == "input_image"  # results hold images
    assert summary(warnings) == [
        ("capability-unsupported", "messages[3].content[1].is_error", True, error_output),
        (
            "field-unknown",
            "messages[5].content[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
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


def test_openai_chat_parallel_loop_converts_with_exact_payload() -> None:
    source, conversation = from_fixture("openai-chat", "tool_loop_parallel.json")
    payload, warnings = assert_renders(conversation)
    messages = source["messages"]

    def call_item(wire: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function_call", "call_id": wire["id"], **wire["function"]}

    def output_item(wire: dict[str, Any]) -> dict[str, Any]:
        content = wire["content"]
        if isinstance(content, list):
            content = [{"type": "input_text", "text": part["text"]} for part in content]
        return {"type": "function_call_output", "call_id": wire["tool_call_id"], "output": content}

    assert payload["input"] == [
        {"role": "system", "content": messages[0]["content"]},
        {"role": "user", "content": messages[1]["content"]},
        *[call_item(wire) for wire in messages[2]["tool_calls"]],
        *[output_item(wire) for wire in messages[3:6]],
        {"role": "assistant", "content": messages[6]["content"]},
        {"role": "user", "content": messages[7]["content"]},
        {"role": "assistant", "content": messages[8]["content"]},
        call_item(messages[8]["tool_calls"][0]),
        output_item(messages[9]),
    ]
    assert payload["tools"] == [
        {"type": "function", **tool["function"], "strict": False}
        if "parameters" in tool["function"]
        else {"type": "function", **tool["function"], "parameters": {}, "strict": False}
        for tool in source["tools"]
    ]
    assert {key: payload[key] for key in ("model", "temperature", "parallel_tool_calls")} == {
        key: source[key] for key in ("model", "temperature", "parallel_tool_calls")
    }
    assert summary(warnings) == [
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None)
    ]


def test_openai_chat_refusals_and_audio_are_warned() -> None:
    _, refusals = from_fixture("openai-chat", "refusal_exchange.json")
    payload, warnings = assert_renders(refusals)
    assert payload["input"][1] == {
        "role": "assistant",
        "content": "I can't help with getting into someone else's home.",
    }
    assert summary(warnings)[-2:] == [
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
    ]
    assert warnings[1].category == "content-dropped" and warnings[1].field == "messages"
    assert warnings[1].original_value == ["finish_reason", "id", "model", "timestamp", "usage"]
    _, media = from_fixture("openai-chat", "multimodal_request.json")
    _, warnings = assert_renders(media)
    assert summary(warnings) == [
        ("field-unknown", "extra.openai-chat", {"modalities": ["text"]}, None),
        (
            "content-dropped",
            "messages[1].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 364},
            None,
        ),
    ]


@pytest.mark.parametrize(
    "path",
    sorted(
        path
        for directory in FIXTURES.iterdir()
        if directory.is_dir() and directory.name != FORMAT_ID
        for path in directory.glob("*.json")
    ),
    ids=lambda p: f"{p.parent.name}-{p.stem}",
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    try:
        fmt = formats.get(path.parent.name)
    except formats.FormatError:
        pytest.skip(f"{path.parent.name} is not a registered format")
    for item in fmt.parse(orjson.loads(path.read_bytes())):
        assert_renders(Conversation.model_validate_json(item.conversation.model_dump_json()))
