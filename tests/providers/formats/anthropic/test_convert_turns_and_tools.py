"""The ``anthropic`` renderer fed conversations from other formats, one rule each: system
prompts, defaulted and dropped parameters, turn order and merging, tool calls and results."""

from __future__ import annotations

from providers.formats._content_blocks.drafts import BRIDGE_USER_TEXT, MISSING_RESULT_TEXT
from providers.formats.anthropic import DEFAULT_MAX_TOKENS, DEFAULT_MODEL
from providers.umf import (
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    ToolUseBlock,
)
from tests.providers.formats.anthropic._convert_helpers import (
    assert_converts,
    assistant,
    text,
    tool,
    user,
)

# --------------------------------------------------------------------------- one rule each


def test_leading_system_becomes_a_string_and_developer_is_noted() -> None:
    payload, warnings = assert_converts(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == "Be brief."
    assert warnings == []
    payload, warnings = assert_converts(
        Message(role="developer", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == "Be brief."
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_system_prompt_keeps_text_only() -> None:
    image = ImageBlock(source=MediaSource(type="url", url="https://x/y.png"))
    payload, warnings = assert_converts(
        Message(role="system", content=[text("Rules"), image]), user(text("hi"))
    )
    assert payload["system"] == "Rules"
    assert warnings == [("content-dropped", "warning", "messages[0].content[1]", "image", None)]


def test_missing_model_and_max_tokens_are_defaulted() -> None:
    payload, warnings = assert_converts(user(text("hi")), parameters=Parameters())
    assert (payload["model"], payload["max_tokens"]) == (DEFAULT_MODEL, DEFAULT_MAX_TOKENS)
    assert warnings == [
        ("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-defaulted", "warning", "parameters.max_tokens", None, DEFAULT_MAX_TOKENS),
    ]


def test_sampling_and_penalties_are_dropped_when_converting() -> None:
    parameters = Parameters(
        model="m",
        max_tokens=5,
        temperature=1.0,
        top_p=0.9,
        top_k=5,
        frequency_penalty=0.5,
        presence_penalty=0.1,
        stop=["###"],
        user="u1",
        stream=True,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = assert_converts(user(text("hi")), parameters=parameters)
    assert payload == {
        "model": "m",
        "max_tokens": 5,
        "stop_sequences": ["###"],
        "stream": True,
        "metadata": {"user_id": "u1"},
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert warnings == [
        ("parameter-unsupported", "warning", "parameters.temperature", 1.0, None),
        ("parameter-unsupported", "warning", "parameters.top_p", 0.9, None),
        ("parameter-unsupported", "warning", "parameters.top_k", 5, None),
        ("parameter-unsupported", "warning", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.presence_penalty", 0.1, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_conversation_starting_with_assistant_gets_a_bridge_user_turn() -> None:
    payload, warnings = assert_converts(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["messages"][0] == {"role": "user", "content": BRIDGE_USER_TEXT}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0]",
            None,
            {"role": "user", "content": BRIDGE_USER_TEXT},
        )
    ]


def test_consecutive_same_role_messages_are_merged() -> None:
    payload, warnings = assert_converts(user(text("one")), user(text("two")), assistant(text("ok")))
    assert payload["messages"][0] == {
        "role": "user",
        "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
    }
    assert warnings == [("role-merged", "warning", "messages[1]", "user", "user")]


def test_tool_results_move_before_user_text() -> None:
    call = ToolUseBlock(id="call_1", name="f", input={})
    payload, warnings = assert_converts(
        user(text("go")), assistant(call), user(text("also this")), tool("call_1", "done")
    )
    assert [b["type"] for b in payload["messages"][2]["content"]] == ["tool_result", "text"]
    assert warnings == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", "after other content", "first"),
    ]


def test_unanswered_tool_call_gets_an_error_result() -> None:
    call = ToolUseBlock(id="call_1", name="f", input={"a": 1})
    payload, warnings = assert_converts(user(text("go")), assistant(call))
    synthesized = {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": MISSING_RESULT_TEXT,
        "is_error": True,
    }
    assert payload["messages"][-1] == {"role": "user", "content": [synthesized]}
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[0]", None, synthesized)
    ]


def test_tool_result_answering_no_call_becomes_text() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(text("ok")), tool("call_x", "late")
    )
    assert payload["messages"][-1] == {"role": "user", "content": "[tool result call_x]\nlate"}
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[2].content[0]", "tool_result", "text")
    ]


def test_tool_ids_are_rewritten_the_same_way_for_calls_and_results() -> None:
    call = ToolUseBlock(id="functions.lookup:0", name="lookup", input={})
    payload, warnings = assert_converts(
        user(text("go")), assistant(call), tool("functions.lookup:0", "r")
    )
    call_id = payload["messages"][1]["content"][0]["id"]
    assert payload["messages"][2]["content"][0]["tool_use_id"] == call_id
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "functions.lookup:0", call_id)
    ]
    again, _ = assert_converts(user(text("go")), assistant(call), tool("functions.lookup:0", "r"))
    assert again == payload


def test_invalid_argument_string_sends_an_empty_object() -> None:
    call = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    listed = ToolUseBlock(id="c3", name="f", input=[1, 2])
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call, valid, listed),
        tool("c1", "x"),
        tool("c2", "y"),
        tool("c3", "z"),
    )
    assert [b["input"] for b in payload["messages"][1]["content"]] == [{}, {"a": [1]}, {}]
    assert warnings[:2] == [
        ("content-dropped", "warning", "messages[1].content[0].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]
