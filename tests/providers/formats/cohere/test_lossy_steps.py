"""The ``cohere`` format rendering other formats: tool choice, and one lossy step each (one
test per lossy cell of the Cohere column of the reference's conversion matrix).
"""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats
from providers.formats._chat_completions.pairing import MISSING_RESULT_TEXT
from providers.formats.cohere import DEFAULT_MODEL
from providers.umf import (
    Conversation,
    Message,
    Parameters,
    TextBlock,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    BLOCKS,
    png,
    summary,
)
from tests.providers.formats.cohere._helpers import (
    assert_renders,
    one_user_message,
)
from tests.providers.sdk.cohere import validate_cohere_request

# --------------------------------------------------------------------------- tool choice

_OPENAI_TOOLS_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "Book the 08:12 to Paris."}],
    "tools": [
        {
            "type": "function",
            "function": {"name": "search_trains", "parameters": {"type": "object"}},
        },
        {"type": "function", "function": {"name": "book_seat", "parameters": {"type": "object"}}},
    ],
}


def test_forcing_one_tool_requires_a_tool_and_offers_only_that_one() -> None:
    request = {
        **_OPENAI_TOOLS_REQUEST,
        "tool_choice": {"type": "function", "function": {"name": "book_seat"}},
    }
    converted = formats.convert("openai-chat", "cohere", request)
    validate_cohere_request(converted.payload)
    assert converted.payload["tool_choice"] == "REQUIRED"
    assert converted.payload["tools"] == [request["tools"][1]]
    assert summary(converted.warnings) == [
        ("parameter-normalized", "tool_choice", {"type": "tool", "name": "book_seat"}, "REQUIRED")
    ]
    assert converted.warnings[0].details == {"tools_left_out": ["search_trains"]}


@pytest.mark.parametrize(
    ("choice", "wire"), [("auto", None), ("required", "REQUIRED"), ("none", "NONE")]
)
def test_tool_choice_modes(choice: str, wire: str | None) -> None:
    converted = formats.convert(
        "openai-chat", "cohere", {**_OPENAI_TOOLS_REQUEST, "tool_choice": choice}
    )
    assert converted.payload.get("tool_choice") == wire
    assert converted.warnings == []


def test_tool_choice_without_tools_is_left_out() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tool_choice = ToolChoice(type="required")
    payload, warnings = assert_renders(conversation)
    assert "tool_choice" not in payload
    assert summary(warnings) == [
        ("parameter-unsupported", "tool_choice", {"type": "required"}, None)
    ]


# --------------------------------------------------------------------------- one lossy step each


def test_images_outside_user_messages_are_dropped() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-vision-07-2025"),
        messages=[
            Message(role="system", content=[TextBlock(text="Describe charts."), png()]),
            Message(role="user", content=[TextBlock(text="Draw it."), png("https://x.test/a.png")]),
            Message(role="assistant", content=[TextBlock(text="Here:"), png()]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"] == [
        {"role": "system", "content": "Describe charts."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Draw it."},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
            ],
        },
        {"role": "assistant", "content": "Here:"},
    ]
    image = {"type": "image", "source": "base64", "media_type": "image/png", "size": 70}
    assert summary(warnings) == [
        ("content-dropped", "messages[0].content[1]", image, None),
        ("content-dropped", "messages[2].content[1]", image, None),
    ]


def test_a_call_without_a_result_gets_a_placeholder() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="Search.")]),
            Message(role="assistant", content=[ToolUseBlock(id="call 1", name="search", input={})]),
            Message(role="user", content=[TextBlock(text="Well?")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    new_id = payload["messages"][1]["tool_calls"][0]["id"]
    assert payload["messages"][2] == {
        "role": "tool",
        "tool_call_id": new_id,
        "content": MISSING_RESULT_TEXT,
    }
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", "call 1", new_id),
        ("id-synthesized", "messages[1].content[0]", None, MISSING_RESULT_TEXT),
    ]


def test_parameters_cohere_cannot_take() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.parameters = Parameters(
        model="command-a-03-2025",
        temperature=-0.5,
        top_p=1.0,
        top_k=900,
        frequency_penalty=1.5,
        stop=["a", "b", "c", "d", "e", "f"],
        user="u-1",
        parallel_tool_calls=False,
        custom={"logit_bias": {}},
    )
    payload, warnings = assert_renders(conversation)
    assert payload == {
        "model": "command-a-03-2025",
        "temperature": 0.0,
        "p": 0.99,
        "k": 500,
        "frequency_penalty": 1.0,
        "stop_sequences": ["a", "b", "c", "d", "e"],
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", -0.5, 0.0),
        ("parameter-clamped", "parameters.top_p", 1.0, 0.99),
        ("parameter-clamped", "parameters.top_k", 900, 500),
        (
            "stop-sequences-truncated",
            "parameters.stop",
            ["a", "b", "c", "d", "e", "f"],
            ["a", "b", "c", "d", "e"],
        ),
        ("parameter-clamped", "parameters.frequency_penalty", 1.5, 1.0),
        ("parameter-unsupported", "parameters.user", "u-1", None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "parameters.custom.logit_bias", {}, None),
    ]


def test_no_model_gets_the_default() -> None:
    conversation = Conversation(messages=[Message(role="user", content=[TextBlock(text="hi")])])
    payload, warnings = assert_renders(conversation)
    assert payload["model"] == DEFAULT_MODEL
    assert summary(warnings) == [("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL)]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new"]
    assert summary(warnings) == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages", ["id"], None),
    ]


def test_a_reasoning_field_becomes_thinking() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-reasoning-08-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="6 x 7?")]),
            Message(role="assistant", content=[TextBlock(text="42")], reasoning="Six sevens."),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Six sevens."},
            {"type": "text", "text": "42"},
        ],
    }
    assert warnings == []


def test_result_documents_stay_documents() -> None:
    result = ToolResultBlock(
        tool_use_id="call_1",
        content=[BLOCKS["document text"], BLOCKS["pdf"], TextBlock(text="done")],
    )
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="call_1", name="fetch", input={})]),
            Message(role="tool", content=[result]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"][1]["content"] == [
        {"type": "document", "document": {"data": {"text": "doc words"}}},
        {"type": "text", "text": "done"},
    ]
    assert [(w.category, w.field, w.transformed_value) for w in warnings] == [
        ("content-type-unsupported", "messages[1].content[0].content[0]", "document"),
        ("content-dropped", "messages[1].content[0].content[1]", None),
    ]
