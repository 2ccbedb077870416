"""Conversion matrix cells (column OL) for content and tools: late system messages,
images, documents, audio, tool choice, tool results and tool errors."""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.ollama._convert_helpers import (
    PNG,
    assert_converts,
    assistant,
    messages,
    text,
    user,
)


def test_system_messages_after_the_start_stay_with_a_note() -> None:
    conversation = messages(
        Message(role="system", content=[text("Be brief.")]),
        user(text("hi")),
        Message(role="developer", content=[text("Prices in EUR.")]),
        Message(role="system", content=[text("Now in French.")]),
    )
    payload, warnings = assert_converts(conversation)
    assert [m["role"] for m in payload["messages"]] == ["system", "user", "system", "system"]
    assert warnings == [
        ("system-message-transformed", "info", "messages[2]", "developer", "system"),
        ("system-message-transformed", "info", "messages[3]", "system", "system"),
    ]


def test_image_sources() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="not base64!")),
        text("what is it?"),
    ]
    payload, warnings = assert_converts(messages(user(*blocks)))
    assert payload["messages"] == [{"role": "user", "content": "what is it?", "images": [PNG, PNG]}]
    assert warnings == [
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 8},
            None,
        ),
    ]


def test_images_in_assistant_turns_move_to_a_user_message() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = assert_converts(
        messages(user(text("plot it")), assistant(text("Here:"), image))
    )
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": "Here:"},
        {"role": "user", "content": "", "images": [PNG]},
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_documents_and_audio() -> None:
    blocks: list[Block] = [
        DocumentBlock(source=MediaSource(type="text", data="Clause 4: payment in 30 days.")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/csv", data="YSxiCjEsMg==")
        ),
        DocumentBlock(source=MediaSource(type="url", url="https://x/contract.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/mp3", data="SUQz")),
    ]
    payload, warnings = assert_converts(messages(user(*blocks)))
    assert payload["messages"] == [
        {"role": "user", "content": "Clause 4: payment in 30 days.\na,b\n1,2"}
    ]
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[0].content[0]", "document", "text"),
        ("content-type-unsupported", "warning", "messages[0].content[1]", "document", "text"),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "document", "source": "url", "url": "https://x/contract.pdf"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/mp3", "size": 3},
            None,
        ),
        ("content-type-unsupported", "info", "messages[0].content", 2, "string"),
    ]


@pytest.mark.parametrize(
    ("choice", "has_tools", "expected"),
    [
        (
            ToolChoice(type="auto"),
            True,
            ("parameter-normalized", "info", "tool_choice", "auto", None),
        ),
        (
            ToolChoice(type="none"),
            False,
            ("parameter-normalized", "warning", "tool_choice", "none", {"tools": None}),
        ),
        (
            ToolChoice(type="required"),
            True,
            ("tool-unsupported", "warning", "tool_choice", "required", None),
        ),
        (
            ToolChoice(type="tool", name="f"),
            True,
            ("tool-unsupported", "warning", "tool_choice", "f", None),
        ),
    ],
)
def test_tool_choice_has_no_ollama_equivalent(
    choice: ToolChoice, has_tools: bool, expected: tuple[Any, ...]
) -> None:
    conversation = messages(user(text("q")), tools=[Tool(name="f")], tool_choice=choice)
    payload, warnings = assert_converts(conversation)
    assert ("tools" in payload) is has_tools
    assert warnings == [expected]


def test_tool_results_become_tool_messages_before_the_user_text() -> None:
    call = ToolUseBlock(id="toolu_1", name="lookup", input={"q": "x"})
    results = user(
        text("also this"),
        ToolResultBlock(tool_use_id="toolu_1", content="found"),
    )
    payload, warnings = assert_converts(messages(user(text("go")), assistant(call), results))
    assert payload["messages"][2:] == [
        {"role": "tool", "content": "found", "tool_name": "lookup"},
        {"role": "user", "content": "also this"},
    ]
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "toolu_1", None),
        ("id-rewritten", "info", "messages[2].content[1].tool_use_id", "toolu_1", None),
        ("message-reordered", "warning", "messages[2].content", "after other content", "first"),
    ]


def test_tool_errors_and_media_in_results() -> None:
    call = ToolUseBlock(id="c", name="plot", input={})
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    failed = ToolResultBlock(tool_use_id="c", content="timeout", is_error=True)
    chart = ToolResultBlock(tool_use_id="c", content=[text("chart"), image])
    payload, warnings = assert_converts(
        messages(user(text("go")), assistant(call), Message(role="tool", content=[failed, chart]))
    )
    assert payload["messages"][2:] == [
        {"role": "tool", "content": "Error: timeout", "tool_name": "plot"},
        {"role": "tool", "content": "chart", "tool_name": "plot"},
    ]
    assert warnings[1:] == [
        (
            "capability-unsupported",
            "warning",
            "messages[2].content[0].is_error",
            True,
            "Error: timeout",
        ),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", "c", None),
        (
            "content-dropped",
            "warning",
            "messages[2].content[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 70},
            None,
        ),
        ("id-rewritten", "info", "messages[2].content[1].tool_use_id", "c", None),
    ]


@pytest.mark.parametrize(
    ("payload", "shape"),
    [
        ([{"role": "user", "content": "hi"}], "messages"),
        ({"model": "llama3.2", "message": {"role": "assistant", "content": "hi"}}, "response"),
    ],
)
def test_a_bare_shape_says_it_has_no_room_for_tools_or_a_tool_choice(
    payload: Any, shape: str
) -> None:
    # A message list or a response carries no tools and no tool choice: both are dropped
    # with a warning (the tool choice was dropped silently).
    [item] = formats.get("ollama").parse(payload)
    conversation = item.conversation
    assert conversation.extra["ollama"]["$shape"] == shape
    conversation.tools = [Tool(name="f")]
    conversation.tool_choice = ToolChoice(type="required")
    rendered = formats.get("ollama").render(conversation)
    assert rendered.payload == payload
    dropped = [(w.category, w.field) for w in rendered.warnings]
    assert ("tool-unsupported", "tools") in dropped
    assert ("parameter-unsupported", "tool_choice") in dropped
