"""The ``gemini`` renderer, one conversion rule at a time: tool schemas, tool choice, call ids
and signatures, pairing calls with results, and tool result wrapping.
"""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.gemini import SIGNATURE_PLACEHOLDER
from providers.formats.gemini._constants import MISSING_RESULT_TEXT
from providers.umf import (
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.gemini.test_convert_whole_fixtures import (
    assert_converts,
    assistant,
    call,
    parts_of,
    text,
    tool,
    user,
)

# --------------------------------------------------------------------------- tools


def test_tool_schemas() -> None:
    tools = [
        Tool(name="plain", description="d", parameters={"type": "object", "properties": {"a": {}}}),
        Tool(name="noargs", parameters={"type": "object", "properties": {}}),
        Tool(
            name="strict",
            parameters={"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
        ),
        Tool(name="bare"),
    ]
    payload, warnings = assert_converts(user(text("q")), tools=tools)
    assert payload["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "plain",
                    "description": "d",
                    "parameters": {"type": "object", "properties": {"a": {}}},
                },
                {"name": "noargs"},
                {
                    "name": "strict",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"a": {"type": ["string", "null"]}},
                    },
                },
                {"name": "bare"},
            ]
        }
    ]
    assert warnings == [
        (
            "parameter-normalized",
            "info",
            "tools[2].parameters",
            "parameters",
            "parametersJsonSchema",
        )
    ]


@pytest.mark.parametrize(
    ("choice", "config"),
    [
        (ToolChoice(type="auto"), {"mode": "AUTO"}),
        (ToolChoice(type="none"), {"mode": "NONE"}),
        (ToolChoice(type="required"), {"mode": "ANY"}),
        (ToolChoice(type="tool", name="f"), {"mode": "ANY", "allowedFunctionNames": ["f"]}),
    ],
)
def test_tool_choice(choice: ToolChoice, config: dict[str, Any]) -> None:
    payload, warnings = assert_converts(user(text("q")), tools=[Tool(name="f")], tool_choice=choice)
    assert payload["toolConfig"] == {"functionCallingConfig": config}
    assert warnings == []


def test_tool_choice_without_tools_or_with_an_unknown_tool() -> None:
    payload, warnings = assert_converts(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]
    payload, warnings = assert_converts(
        user(text("q")), tools=[Tool(name="f")], tool_choice=ToolChoice(type="tool", name="g")
    )
    assert payload["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}
    assert warnings == [("parameter-normalized", "warning", "tool_choice.name", "g", "ANY")]


def test_function_names_gemini_refuses_are_rewritten_the_same_way_everywhere() -> None:
    # Found by converting mutated fixtures: names were sent as they came, and Gemini refuses
    # one that starts with a digit (OpenAI and Anthropic take ``3d_render``), has a space,
    # or is empty. A rewritten name must not take a name another function already has.
    tools = [Tool(name="3d_render"), Tool(name="_3d_render"), Tool(name="get weather")]
    payload, warnings = assert_converts(
        user(text("q")),
        assistant(call("call_1", "3d_render")),
        tool("call_1", "done"),
        tools=tools,
        tool_choice=ToolChoice(type="tool", name="3d_render"),
    )
    declared = [tool["name"] for tool in payload["tools"][0]["functionDeclarations"]]
    assert declared == ["_3d_render", "_3d_render_36464553", "get_weather"]
    assert parts_of(payload, 1)[0]["functionCall"]["name"] == "_3d_render"
    assert parts_of(payload, 2)[0]["functionResponse"]["name"] == "_3d_render"
    assert payload["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"] == ["_3d_render"]
    renamed = [warning[2:] for warning in warnings if warning[2].endswith("name")]
    assert renamed == [
        ("messages[1].content[0].name", "3d_render", "_3d_render"),
        ("messages[2].content[0].name", "3d_render", "_3d_render"),
        ("tools[0].name", "3d_render", "_3d_render"),
        ("tools[1].name", "_3d_render", "_3d_render_36464553"),
        ("tools[2].name", "get weather", "get_weather"),
        ("tool_choice.name", "3d_render", "_3d_render"),
    ]


def test_call_ids_are_dropped_and_the_first_call_signed() -> None:
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call("call_1", "a", x=1), call("call_2", "b")),
        tool("call_1", '{"ok": true}'),
        tool("call_2", '{"ok": false}'),
    )
    assert parts_of(payload, 1) == [
        {
            "functionCall": {"name": "a", "args": {"x": 1}},
            "thoughtSignature": SIGNATURE_PLACEHOLDER,
        },
        {"functionCall": {"name": "b", "args": {}}},
    ]
    assert parts_of(payload, 2) == [
        {"functionResponse": {"name": "a", "response": {"ok": True}}},
        {"functionResponse": {"name": "b", "response": {"ok": False}}},
    ]
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "call_1", None),
        ("id-rewritten", "info", "messages[1].content[1].id", "call_2", None),
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("parameter-defaulted", "info", "messages[1].content[0]", None, SIGNATURE_PLACEHOLDER),
    ]


def test_results_are_answered_in_call_order_and_first() -> None:
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call("c1", "a"), call("c2", "b")),
        user(text("also"), ToolResultBlock(tool_use_id="c2", content="{}")),
        tool("c1", "{}"),
    )
    assert [next(iter(part)) for part in parts_of(payload, 2)] == [
        "functionResponse",
        "functionResponse",
        "text",
    ]
    assert [part["functionResponse"]["name"] for part in parts_of(payload, 2)[:2]] == ["a", "b"]
    assert [w for w in warnings if w[0] in ("message-reordered", "role-merged")] == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", 2, 0),
    ]


def test_unanswered_call_gets_an_error_response() -> None:
    payload, warnings = assert_converts(user(text("go")), assistant(call("c1", "lookup")))
    inserted = {"functionResponse": {"name": "lookup", "response": {"error": MISSING_RESULT_TEXT}}}
    assert payload["contents"][-1] == {"role": "user", "parts": [inserted]}
    assert ("message-reordered", "warning", "messages[1].content[0]", None, inserted) in warnings


def test_result_answering_no_call_becomes_text() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(text("ok")), tool("call_x", "late")
    )
    assert parts_of(payload, 2) == [{"text": '[function result call_x] call_x: {"output":"late"}'}]
    assert warnings[-1] == (
        "content-type-unsupported",
        "warning",
        "messages[2].content[0]",
        "tool_result",
        "text",
    )


def test_misplaced_call_becomes_text() -> None:
    payload, warnings = assert_converts(user(text("q"), call("c1", "f", a=1)))
    assert parts_of(payload, 0) == [{"text": "q"}, {"text": '[function call c1] f({"a":1})'}]
    assert warnings == [
        ("id-rewritten", "info", "messages[0].content[1].id", "c1", None),
        ("content-type-unsupported", "warning", "messages[0].content[1]", "tool_use", "text"),
    ]


def test_tool_result_wrapping() -> None:
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call("c1", "a"), call("c2", "b"), call("c3", "c")),
        tool("c1", '{"temp": 18}'),
        tool("c2", "18 C"),
        tool("c3", '{"code": 404}', is_error=True),
    )
    assert [part["functionResponse"]["response"] for part in parts_of(payload, 2)] == [
        {"temp": 18},
        {"output": "18 C"},
        {"error": {"code": 404}},
    ]
    assert [w for w in warnings if w[0] == "content-type-unsupported"] == [
        (
            "content-type-unsupported",
            "warning",
            "messages[3].content[0]",
            "18 C",
            {"output": "18 C"},
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[4].content[0]",
            '{"code": 404}',
            {"error": {"code": 404}},
        ),
    ]


def test_invalid_argument_string_sends_an_empty_object() -> None:
    broken = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    payload, warnings = assert_converts(
        user(text("go")), assistant(broken, valid), tool("c1", "{}"), tool("c2", "{}")
    )
    assert [part["functionCall"]["args"] for part in parts_of(payload, 1)] == [{}, {"a": [1]}]
    assert (
        "content-dropped",
        "warning",
        "messages[1].content[0].raw_arguments",
        "{not json",
        {},
    ) in warnings
