"""The ``bedrock-converse`` renderer, one matrix cell (column BR) each: tool config, unanswered
and orphan results, rewritten ids and names, arguments and tool choice."""

from __future__ import annotations

import re
from typing import Any

import pytest

from providers.formats._content_blocks.drafts import MISSING_RESULT_TEXT
from providers.umf import (
    Tool,
    ToolChoice,
    ToolUseBlock,
)
from tests.providers.formats.bedrock_converse._convert_helpers import (
    TOOLS,
    assert_converts,
    assistant,
    call,
    text,
    tool,
    user,
    user_turn,
)

EMPTY_SCHEMA = {"type": "object", "properties": {}}  # what Bedrock is sent for no schema


def test_tool_blocks_without_tools_get_tool_config_made_from_the_calls() -> None:
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call("c1", "lookup"), call("c2", "lookup")),
        tool("c1", "a"),
        tool("c2", "b"),
    )
    assert payload["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "lookup", "inputSchema": {"json": EMPTY_SCHEMA}}}]
    }
    assert warnings[-1] == ("parameter-defaulted", "warning", "tools", None, ["lookup"])


def test_unanswered_tool_call_gets_an_error_result() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(call("call_1", a=1)), tools=TOOLS
    )
    synthesized = {
        "toolResult": {
            "toolUseId": "call_1",
            "content": [{"text": MISSING_RESULT_TEXT}],
            "status": "error",
        }
    }
    assert payload["messages"][-1] == {"role": "user", "content": [synthesized]}
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[0]", None, synthesized)
    ]


def test_tool_result_answering_no_call_becomes_text() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(text("ok")), tool("call_x", "late", is_error=True)
    )
    assert payload["messages"][-1] == user_turn("[tool result call_x (error)]\nlate")
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[2].content[0]", "tool_result", "text")
    ]


def test_tool_ids_and_names_are_rewritten_the_same_way_everywhere() -> None:
    long_id = "call_" + "x" * 70
    tools = [Tool(name="functions.lookup", parameters={"type": "object"})]
    messages = (
        user(text("go")),
        assistant(call("id with spaces", "functions.lookup"), call(long_id, "functions.lookup")),
        tool("id with spaces", "r1"),
        tool(long_id, "r2"),
    )
    choice = ToolChoice(type="tool", name="functions.lookup")
    payload, warnings = assert_converts(*messages, tools=tools, tool_choice=choice)
    calls = [block["toolUse"] for block in payload["messages"][1]["content"]]
    results = [block["toolResult"] for block in payload["messages"][2]["content"]]
    assert [r["toolUseId"] for r in results] == [c["toolUseId"] for c in calls]
    assert all(re.fullmatch(r"tooluse_[0-9a-f]{24}", c["toolUseId"]) for c in calls)
    assert {c["name"] for c in calls} == {"functions_lookup"}
    assert payload["toolConfig"]["toolChoice"] == {"tool": {"name": "functions_lookup"}}
    assert warnings == [
        (
            "id-rewritten",
            "info",
            "messages[1].content[0].id",
            "id with spaces",
            calls[0]["toolUseId"],
        ),
        ("id-rewritten", "info", "messages[1].content[1].id", long_id, calls[1]["toolUseId"]),
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("id-rewritten", "info", "tools[0].name", "functions.lookup", "functions_lookup"),
        (
            "id-rewritten",
            "info",
            "messages[1].content[0].name",
            "functions.lookup",
            "functions_lookup",
        ),
        (
            "id-rewritten",
            "info",
            "messages[1].content[1].name",
            "functions.lookup",
            "functions_lookup",
        ),
        ("id-rewritten", "info", "tool_choice.name", "functions.lookup", "functions_lookup"),
    ]
    again, _ = assert_converts(*messages, tools=tools, tool_choice=choice)
    assert again == payload


def test_argument_strings_become_objects_and_invalid_ones_an_empty_object() -> None:
    invalid = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    listed = ToolUseBlock(id="c3", name="f", input=[1, 2])
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(invalid, valid, listed),
        tool("c1", "x"),
        tool("c2", "y"),
        tool("c3", "z"),
        tools=TOOLS,
    )
    assert [b["toolUse"]["input"] for b in payload["messages"][1]["content"]] == [
        {},
        {"a": [1]},
        {},
    ]
    assert warnings[:2] == [
        ("content-dropped", "warning", "messages[1].content[0].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]


@pytest.mark.parametrize(("choice", "wire"), [("auto", "auto"), ("required", "any")])
def test_tool_choice_mapping(choice: Any, wire: str) -> None:
    payload, warnings = assert_converts(
        user(text("q")), tools=TOOLS, tool_choice=ToolChoice(type=choice)
    )
    assert payload["toolConfig"]["toolChoice"] == {wire: {}}
    assert warnings == []


@pytest.mark.parametrize("name", [None, "g"])
def test_a_forced_tool_that_is_not_among_the_tools_becomes_any(name: str | None) -> None:
    # Found by converting mutated fixtures: a UMF tool choice naming no tool was sent as
    # {"tool": {"name": null}}, which Converse refuses (as it does a tool it was not given).
    choice = ToolChoice(type="tool", name=name)
    payload, warnings = assert_converts(user(text("q")), tools=TOOLS, tool_choice=choice)
    assert payload["toolConfig"]["toolChoice"] == {"any": {}}
    assert warnings == [("parameter-normalized", "warning", "tool_choice.name", name, "any")]


def test_tool_choice_without_tools_is_left_out() -> None:
    payload, warnings = assert_converts(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]


def test_tool_choice_none_leaves_the_tools_out() -> None:
    payload, warnings = assert_converts(
        user(text("q")), tools=TOOLS, tool_choice=ToolChoice(type="none")
    )
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "warning", "tool_choice", "none", None)]


def test_tool_choice_none_with_tool_history_keeps_the_tools() -> None:
    payload, warnings = assert_converts(
        user(text("q")),
        assistant(call("c1")),
        tool("c1", "r"),
        tools=TOOLS,
        tool_choice=ToolChoice(type="none"),
    )
    assert payload["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert warnings == [("tool-unsupported", "warning", "tool_choice", "none", "auto")]


def test_tool_definition_without_schema_gets_an_empty_one() -> None:
    tools = [Tool(name="ping", description="")]
    payload, warnings = assert_converts(user(text("q")), tools=tools)
    assert payload["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "ping", "inputSchema": {"json": EMPTY_SCHEMA}}}
    ]
    assert warnings == [("parameter-defaulted", "info", "tools[0].parameters", None, EMPTY_SCHEMA)]


def test_a_valid_tool_name_never_takes_the_name_another_was_fitted_to() -> None:
    # "get weather" is fitted to "get_weather"; the next tool, really named "get_weather",
    # must not be sent under the same name (Converse refuses two tools of one name).
    tools = [
        Tool(name="get weather", parameters={"type": "object"}),
        Tool(name="get_weather", parameters={"type": "object"}),
    ]
    payload, _ = assert_converts(user(text("q")), tools=tools)
    names = [spec["toolSpec"]["name"] for spec in payload["toolConfig"]["tools"]]
    assert names[0] == "get_weather"
    assert len(set(names)) == 2
    assert re.fullmatch(r"get_weather_[0-9a-f]{8}", names[1])
