"""The ``mistral`` format rendering other formats, one lossy step each (one test per lossy
cell of the Mistral column of the reference's conversion matrix).
"""

from __future__ import annotations

from typing import Any

from providers.formats.mistral import DEFAULT_MODEL
from providers.umf import (
    AudioBlock,
    Conversation,
    DocumentBlock,
    MediaSource,
    Message,
    Parameters,
    TextBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    PNG,
    pdf,
    png,
    summary,
)
from tests.providers.formats.mistral._helpers import (
    BRIDGE,
    assert_renders,
    call,
    one_user_message,
)

# --------------------------------------------------------------------------- one lossy step each


def test_consecutive_messages_of_one_role_are_merged() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="Hello.")]),
            Message(role="user", content=[TextBlock(text="Are you there?")]),
            Message(role="assistant", content=[TextBlock(text="Yes.")]),
            Message(role="assistant", content=[TextBlock(text="How can I help?")]),
            Message(role="user", content=[TextBlock(text="Tell me a joke.")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Hello."},
                {"type": "text", "text": "Are you there?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Yes."},
                {"type": "text", "text": "How can I help?"},
            ],
        },
        {"role": "user", "content": "Tell me a joke."},
    ]
    assert summary(warnings) == [
        ("role-merged", "messages[1]", "user", "user"),
        ("role-merged", "messages[3]", "assistant", "assistant"),
    ]


def test_assistant_media_moves_to_a_user_message_after_the_group() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-medium-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="Draw a cat and save it.")]),
            Message(
                role="assistant",
                content=[png(), ToolUseBlock(id="abc123XYZ", name="save", input={})],
            ),
            Message(role="tool", tool_call_id="abc123XYZ", content=[TextBlock(text="saved")]),
            Message(role="user", content=[TextBlock(text="Thanks")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"][1:] == [
        {"role": "assistant", "tool_calls": [call("abc123XYZ", "save", "{}")]},
        {
            "role": "tool",
            "tool_call_id": "abc123XYZ",
            "name": "save",
            "content": [{"type": "text", "text": "saved"}],
        },
        BRIDGE,
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": f"data:image/png;base64,{PNG}"},
                {"type": "text", "text": "Thanks"},
            ],
        },
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[1].content[0]", "assistant", "user"),
        ("message-reordered", "messages[1]", None, BRIDGE),
    ]


def test_media_without_a_sendable_source_is_dropped() -> None:
    payload, warnings = assert_renders(
        one_user_message(
            TextBlock(text="see"),
            pdf(),
            AudioBlock(source=MediaSource(type="url", url="https://x.test/a.mp3")),
            DocumentBlock(source=MediaSource(type="file", file_id="file-abc")),
            DocumentBlock(source=MediaSource(type="url", url="https://x.test/a.pdf"), title="Q3"),
        )
    )
    assert payload["messages"][0]["content"] == [
        {"type": "text", "text": "see"},
        {"type": "document_url", "document_url": "https://x.test/a.pdf", "document_name": "Q3"},
    ]
    assert [(w.category, w.field) for w in warnings] == [
        ("content-dropped", "messages[0].content[1]"),
        ("content-dropped", "messages[0].content[2]"),
        ("content-dropped", "messages[0].content[3]"),
    ]


def test_tool_choice_forms() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tools = [Tool(name="f", parameters={"type": "object"})]
    expected: list[tuple[ToolChoice, Any]] = [
        (ToolChoice(type="tool", name="f"), {"type": "function", "function": {"name": "f"}}),
        (ToolChoice(type="required"), "any"),
        (ToolChoice(type="none"), "none"),
        (ToolChoice(type="auto"), "auto"),
    ]
    for choice, wire in expected:
        conversation.tool_choice = choice
        payload, warnings = assert_renders(conversation)
        assert (payload["tool_choice"], warnings) == (wire, [])
    conversation.tool_choice = ToolChoice(type="tool")
    payload, warnings = assert_renders(conversation)
    assert payload["tool_choice"] == "any"
    assert summary(warnings) == [("parameter-normalized", "tool_choice", "tool", "any")]


def test_parameters_mistral_cannot_take() -> None:
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        parameters=Parameters(temperature=1.8, top_k=20, seed=4, user="u-1", custom={"safe": 1}),
        tool_choice=ToolChoice(type="required"),
    )
    payload, warnings = assert_renders(conversation)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 1.5,
        "top_k": 20,
        "random_seed": 4,
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", 1.8, 1.5),
        ("parameter-unsupported", "parameters.user", "u-1", None),
        ("parameter-unsupported", "parameters.custom.safe", 1, None),
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "tool_choice", {"type": "required"}, None),
    ]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
            Message(id="d", parent_id="c", role="user", content=[TextBlock(text="and?")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new", "and?"]
    assert summary(warnings) == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages", ["id"], None),
    ]


def test_a_result_without_its_call_becomes_user_text() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="hi")]),
            Message(
                role="tool",
                content=[ToolResultBlock(tool_use_id="gone", content="42", is_error=True)],
            ),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "text", "text": "Error"},
                {"type": "text", "text": "42"},
            ],
        }
    ]
    assert [w.category for w in warnings] == [
        "content-type-unsupported",
        "capability-unsupported",
        "role-merged",
    ]
