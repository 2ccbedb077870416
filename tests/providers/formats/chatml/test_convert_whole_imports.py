"""The ``chatml`` renderer fed whole imports of other formats: the exact text it writes (the
Qwen2.5/Qwen3 template conventions) and the exact drift warnings."""

from __future__ import annotations

import json

import orjson

from tests.providers.formats.chatml._convert_helpers import (
    FIXTURES,
    assert_converts,
    call,
    imported,
    response,
    turn,
)

# --------------------------------------------------------------------------- whole imports


def test_anthropic_thinking_tool_loop_is_written_as_qwen_would() -> None:
    source = orjson.loads((FIXTURES / "anthropic" / "thinking_tool_loop.json").read_bytes())
    written, warnings = assert_converts(imported("anthropic", "thinking_tool_loop.json"))
    tool = {
        "type": "function",
        "function": {
            "name": "run_sql",
            "description": source["tools"][0]["description"],
            "parameters": source["tools"][0]["input_schema"],
        },
    }
    thinking = source["messages"][1]["content"][0]["thinking"]
    query = source["messages"][1]["content"][2]["input"]
    assert written == (
        turn(
            "system",
            "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n"
            f"<tools>\n{json.dumps(tool)}\n</tools>\n\nFor each function call, return a json "
            "object with function name and arguments within <tool_call></tool_call> XML tags:"
            '\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n'
            "</tool_call>",
        )
        + turn("user", source["messages"][0]["content"])
        + turn("assistant", f"<think>\n{thinking}\n</think>\n\n" + call("run_sql", query))
        + turn("user", response('[{"late": 42, "total": 1380}]'))
        + turn("assistant", "42 of last month's 1,380 orders shipped late, about 3.0%.")
        + turn("user", "Which carrier was responsible for most of them?")
    )
    call_id = "toolu_01NXq3wPqLsGkVbZ6rT8uYc2"
    assert warnings == [
        (
            "signature-stripped",
            "warning",
            "messages[1].content[0]",
            {"provider": "anthropic", "signed": True},
            "<think>",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[1]", None, None),
        ("id-rewritten", "info", "messages[1].content[2].id", call_id, None),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", call_id, None),
        ("content-type-unsupported", "info", "tools", ["run_sql"], "system text"),
        ("parameter-unsupported", "warning", "parameters.model", "claude-opus-4-1-20250805", None),
        ("parameter-unsupported", "warning", "parameters.max_tokens", 16000, None),
        ("tool-unsupported", "warning", "tool_choice", "auto", None),
        (
            "field-unknown",
            "info",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
    ]


def test_openai_message_list_is_written_exactly() -> None:
    written, warnings = assert_converts(imported("openai-chat", "bare_messages.json"))
    arguments = {"value": 72, "from": "F", "to": "C"}
    assert written == (
        turn("system", "You are a helpful assistant.")
        + turn("user", "Convert 72 °F to Celsius.")
        + turn("assistant", call("convert_temperature", arguments))
        + turn("user", response("22.2"))
        + turn("assistant", "72 °F is about 22.2 °C.")
        + turn("user", "")
    )
    call_id = "call_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8"
    assert warnings == [
        ("id-rewritten", "info", "messages[2].content[0].id", call_id, None),
        ("id-rewritten", "info", "messages[3].content[0].tool_use_id", call_id, None),
    ]


def test_openai_refusal_exchange_drops_response_metadata() -> None:
    written, warnings = assert_converts(imported("openai-chat", "refusal_exchange.json"))
    assert written.endswith(turn("assistant", "I'm sorry, I can't help with that."))
    dropped = [w for w in warnings if w[2] == "messages[3]"]
    assert len(dropped) == 1
    category, severity, _, original, _ = dropped[0]
    assert (category, severity) == ("content-dropped", "info")
    assert set(original) == {
        "id",
        "timestamp",
        "model",
        "finish_reason",
        "provider_finish_reason",
        "usage",
    }
