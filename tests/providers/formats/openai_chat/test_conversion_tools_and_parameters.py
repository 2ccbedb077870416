"""One lossy step each for tool results, parameters, tool choice, reasoning fields, trees
and exchanges turned into the next request."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers.umf import (
    Conversation,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_chat._conversion_helpers import (
    FIXTURES,
    OPENAI_CHAT,
    assert_renders_for_openai,
    one_user_message,
    summary,
)
from tests.providers.sdk_validation import (
    validate_openai_chat_request,
)


def test_a_result_that_answers_nothing_becomes_a_user_message() -> None:
    conversation = one_user_message(ToolResultBlock(tool_use_id="toolu_gone", content="42"))
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"] == [{"role": "user", "content": "42"}]
    assert summary(warnings) == [
        ("content-type-unsupported", "messages[0].content[0]", "tool", "user")
    ]


def test_tool_messages_without_a_result_block() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(
                role="assistant", content=[ToolUseBlock(id="call_1", name="f", input={"a": 1})]
            ),
            Message(
                role="tool",
                tool_call_id="call_1",
                content=[TextBlock(text="4"), TextBlock(text="2")],
            ),
            Message(role="tool", content=[TextBlock(text="stray")]),
        ],
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"][1:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "4\n2"},
        {"role": "user", "content": "stray"},
    ]
    assert summary(warnings) == [("content-type-unsupported", "messages[2]", "tool", "user")]


def test_what_a_tool_result_cannot_hold() -> None:
    result = ToolResultBlock(
        tool_use_id="call_1",
        content=[
            ThinkingBlock(text="hmm"),
            ToolUseBlock(id="call_2", name="g", input={}),
            RefusalBlock(text="no"),
            TextBlock(text="done"),
        ],
        is_error=True,
    )
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="call_1", name="f", input={})]),
            Message(role="user", content=[result]),
        ],
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"][1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "Error: no\ndone",
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0].content[0]", "hmm", None),
        ("content-dropped", "messages[1].content[0].content[1]", "tool_use", None),
        ("content-type-unsupported", "messages[1].content[0].content[2]", "refusal", "text"),
        ("capability-unsupported", "messages[1].content[0].is_error", True, "Error: no\ndone"),
    ]


def test_parameters_openai_cannot_take() -> None:
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        parameters=Parameters(
            model="gpt-4o",
            temperature=2.5,
            stop=["a", "b", "c", "d", "e"],
            parallel_tool_calls=False,
            custom={"thinking_budget": 512},
        ),
        tool_choice=ToolChoice(type="tool", name="f"),
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload == {
        "model": "gpt-4o",
        "temperature": 2.0,
        "stop": ["a", "b", "c", "d"],
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", 2.5, 2.0),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        (
            "stop-sequences-truncated",
            "parameters.stop",
            ["a", "b", "c", "d", "e"],
            ["a", "b", "c", "d"],
        ),
        ("parameter-unsupported", "parameters.custom.thinking_budget", 512, None),
        ("parameter-unsupported", "tool_choice", {"type": "tool", "name": "f"}, None),
    ]


@pytest.mark.parametrize(
    ("choice", "wire", "warned"),
    [
        (ToolChoice(type="tool", name="f"), {"type": "function", "function": {"name": "f"}}, []),
        (
            ToolChoice(type="tool"),
            "required",
            [("parameter-normalized", "tool_choice", "tool", "required")],
        ),
        (ToolChoice(type="none"), "none", []),
    ],
)
def test_tool_choice(choice: ToolChoice, wire: Any, warned: list[tuple[Any, ...]]) -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tools = [Tool(name="f")]
    conversation.tool_choice = choice
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["tool_choice"] == wire
    assert summary(warnings) == warned


def test_reasoning_fields_are_dropped_with_warnings() -> None:
    message = Message(
        role="assistant",
        content=[TextBlock(text="42")],
        reasoning="Six times seven.",
        reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
    )
    conversation = Conversation(parameters=Parameters(model="gpt-4o"), messages=[message])
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"] == [{"role": "assistant", "content": "42"}]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[0].reasoning", "Six times seven.", None),
        ("reasoning-dropped", "messages[0].reasoning_details", None, None),
    ]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
        ],
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new"]
    assert summary(warnings) == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages", ["id"], None),
    ]


def test_render_request_turns_an_exchange_into_the_next_request() -> None:
    from providers.formats.openai_chat import render_request

    payload = orjson.loads((FIXTURES / "openai-chat" / "exchange_usage.json").read_bytes())
    [item] = OPENAI_CHAT.parse(payload)
    request = render_request(item.conversation).payload
    validate_openai_chat_request(request)
    assert request["messages"] == [
        *payload["request"]["messages"],
        # The answer as the next turn's history; its null refusal needs no saying.
        {k: v for k, v in payload["response"]["choices"][0]["message"].items() if v is not None},
    ]
    assert request["reasoning_effort"] == "high"


def test_a_call_id_used_twice_in_a_request_is_made_unique() -> None:
    def call(name: str) -> ToolUseBlock:
        return ToolUseBlock(id="call_a", name=name, input={})

    conversation = Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="hi")]),
            Message(role="assistant", content=[call("f")]),
            Message(role="user", content=[ToolResultBlock(tool_use_id="call_a", content="1")]),
            Message(role="assistant", content=[call("g")]),
            Message(role="user", content=[ToolResultBlock(tool_use_id="call_a", content="2")]),
        ],
        parameters=Parameters(model="gpt-4o"),
    )
    payload, warnings = assert_renders_for_openai(conversation)
    fresh = payload["messages"][3]["tool_calls"][0]["id"]
    assert fresh.startswith("call_") and fresh != "call_a"
    assert payload["messages"][4] == {"role": "tool", "tool_call_id": fresh, "content": "2"}
    assert summary(warnings) == [("id-rewritten", "messages[3].content[0].id", "call_a", fresh)]
