"""The ``bedrock-converse`` renderer, one matrix cell (column BR) each: system prompts,
model and parameters, turn order and merging."""

from __future__ import annotations

from providers.formats._content_blocks.drafts import BRIDGE_USER_TEXT
from providers.formats.bedrock_converse import DEFAULT_MODEL
from providers.umf import (
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
)
from tests.providers.formats.bedrock_converse._convert_helpers import (
    PNG,
    assert_converts,
    assistant,
    call,
    text,
    tool,
    user,
    user_turn,
)

# --------------------------------------------------------------------------- one rule each


def test_leading_system_is_a_system_block_and_developer_is_noted() -> None:
    payload, warnings = assert_converts(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Be brief."}]
    assert warnings == []
    payload, warnings = assert_converts(
        Message(role="developer", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Be brief."}]
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_system_prompt_keeps_text_only() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = assert_converts(
        Message(role="system", content=[text("Rules"), image, text(" ")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Rules"}]
    assert warnings == [
        ("content-dropped", "warning", "messages[0].content[1]", "image", None),
        ("content-dropped", "info", "messages[0].content[2]", " ", None),
    ]


def test_missing_model_is_defaulted() -> None:
    payload, warnings = assert_converts(user(text("hi")), parameters=Parameters())
    assert payload == {"modelId": DEFAULT_MODEL, "messages": [user_turn("hi")]}
    assert warnings == [("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL)]


def test_parameters_map_clamp_or_are_reported() -> None:
    parameters = Parameters(
        model="m",
        max_tokens=0,
        temperature=1.7,
        top_p=0.9,
        top_k=5,
        seed=3,
        frequency_penalty=0.5,
        presence_penalty=0.1,
        stop=["###"],
        user="u1",
        stream=True,
        parallel_tool_calls=False,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = assert_converts(user(text("hi")), parameters=parameters)
    assert payload["inferenceConfig"] == {
        "maxTokens": 1,
        "temperature": 1.0,
        "topP": 0.9,
        "stopSequences": ["###"],
    }
    assert warnings == [
        ("parameter-clamped", "warning", "parameters.max_tokens", 0, 1),
        ("parameter-clamped", "warning", "parameters.temperature", 1.7, 1.0),
        ("parameter-unsupported", "info", "parameters.stream", True, None),
        ("parameter-unsupported", "warning", "parameters.top_k", 5, None),
        ("parameter-unsupported", "warning", "parameters.seed", 3, None),
        ("parameter-unsupported", "warning", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.presence_penalty", 0.1, None),
        ("parameter-unsupported", "warning", "parameters.user", "u1", None),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_conversation_starting_with_assistant_gets_a_bridge_user_turn() -> None:
    payload, warnings = assert_converts(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["messages"][0] == user_turn(BRIDGE_USER_TEXT)
    assert warnings == [
        ("message-reordered", "warning", "messages[0]", None, user_turn(BRIDGE_USER_TEXT))
    ]


def test_consecutive_same_role_messages_are_merged() -> None:
    payload, warnings = assert_converts(user(text("one")), user(text("two")), assistant(text("ok")))
    assert payload["messages"][0] == user_turn("one", "two")
    assert warnings == [("role-merged", "warning", "messages[1]", "user", "user")]


def test_user_right_after_tool_results_joins_their_turn() -> None:
    payload, warnings = assert_converts(
        user(text("go")),
        assistant(call("call_1"), call("call_2")),
        tool("call_1", "one"),
        tool("call_2", "two"),
        user(text("and now?")),
    )
    assert payload["messages"][2] == {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": "call_1", "content": [{"text": "one"}]}},
            {"toolResult": {"toolUseId": "call_2", "content": [{"text": "two"}]}},
            {"text": "and now?"},
        ],
    }
    assert warnings == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("role-merged", "warning", "messages[4]", "user", "user"),
        ("parameter-defaulted", "warning", "tools", None, ["f"]),
    ]


def test_tool_results_move_before_user_text() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(call("call_1")), user(text("also this")), tool("call_1", "ok")
    )
    assert [next(iter(b)) for b in payload["messages"][2]["content"]] == ["toolResult", "text"]
    assert warnings[:2] == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", "after other content", "first"),
    ]
