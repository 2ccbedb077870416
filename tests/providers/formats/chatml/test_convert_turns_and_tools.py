"""The ``chatml`` renderer, one matrix cell (column CM) each: system messages, media, tool
choice and parameters, tool definitions and tool results."""

from __future__ import annotations

from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chatml._convert_helpers import (
    PNG,
    assert_converts,
    assistant,
    call,
    response,
    text,
    turn,
    user,
)

# --------------------------------------------------------------------------- matrix cells


def test_system_messages_anywhere_and_developer() -> None:
    written, warnings = assert_converts(
        Conversation(
            messages=[
                Message(role="developer", content=[text("Rules.")]),
                user(text("hi")),
                Message(role="system", content=[text("Now in French.")]),
            ]
        )
    )
    assert written == turn("system", "Rules.") + turn("user", "hi") + turn(
        "system", "Now in French."
    )
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_media_cannot_be_written() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.png")),
        DocumentBlock(source=MediaSource(type="base64", media_type="application/pdf", data="JVBE")),
        DocumentBlock(source=MediaSource(type="text", data="Clause 4: net 30.")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("What do you see?"),
    ]
    written, warnings = assert_converts(
        Conversation(messages=[user(*blocks), assistant(text("A cat."), blocks[0])])
    )
    assert written == turn("user", "Clause 4: net 30.\nWhat do you see?") + turn(
        "assistant", "A cat."
    )
    assert warnings == [
        (
            "content-dropped",
            "warning",
            "messages[0].content[0]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 70},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[1]",
            {"type": "image", "source": "url", "url": "https://x/cat.png"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "document", "source": "base64", "media_type": "application/pdf", "size": 3},
            None,
        ),
        ("content-type-unsupported", "warning", "messages[0].content[3]", "document", "text"),
        (
            "content-dropped",
            "warning",
            "messages[0].content[4]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 4},
            None,
        ),
        ("content-type-unsupported", "info", "messages[0].content", 2, "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 70},
            None,
        ),
    ]


def test_tool_choice_and_parameters_have_no_place_in_text() -> None:
    conversation = Conversation(
        messages=[user(text("q"))],
        tool_choice=ToolChoice(type="tool", name="f"),
        parameters=Parameters(model="m", temperature=0.5, stop=["###"]),
    )
    written, warnings = assert_converts(conversation)
    assert written == turn("user", "q")
    assert warnings == [
        ("parameter-unsupported", "warning", "parameters.model", "m", None),
        ("parameter-unsupported", "warning", "parameters.temperature", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.stop", ["###"], None),
        ("tool-unsupported", "warning", "tool_choice", "f", None),
    ]


def test_tools_join_an_existing_system_turn() -> None:
    tool = Tool(name="f", description="Does f.", parameters={"type": "object"})
    written, warnings = assert_converts(
        Conversation(messages=[Message(role="system", content=[text("Be brief.")])], tools=[tool])
    )
    assert written.startswith("<|im_start|>system\nBe brief.\n\n# Tools\n\n")
    assert '\n{"type": "function", "function": {"name": "f", "description": "Does f.", ' in written
    assert warnings == [("content-type-unsupported", "info", "tools", ["f"], "system text")]


def test_consecutive_tool_results_share_one_user_turn() -> None:
    calls = [ToolUseBlock(id="a", name="f", input={}), ToolUseBlock(id="b", name="g", input={})]
    written, warnings = assert_converts(
        Conversation(
            messages=[
                user(text("go")),
                assistant(*calls),
                Message(
                    role="tool",
                    tool_call_id="a",
                    name="f",
                    content=[ToolResultBlock(tool_use_id="a", content="A", name="f")],
                ),
                Message(role="tool", tool_call_id="b", content=[text("B")]),
                user(text("thanks")),
            ]
        )
    )
    assert written == (
        turn("user", "go")
        + turn("assistant", call("f", {}) + "\n" + call("g", {}))
        + turn("user", response("A") + "\n" + response("B"))
        + turn("user", "thanks")
    )
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "a", None),
        ("id-rewritten", "info", "messages[1].content[1].id", "b", None),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", "a", None),
        ("id-rewritten", "info", "messages[3].tool_call_id", "b", None),
        ("role-merged", "info", "messages[3]", "tool", "user"),
    ]


def test_errors_and_media_inside_tool_results() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    results = user(
        ToolResultBlock(tool_use_id="c1", content="timeout", is_error=True),
        ToolResultBlock(tool_use_id="c2", content=[text("chart"), image]),
    )
    written, warnings = assert_converts(Conversation(messages=[results]))
    assert written == turn("user", response("Error: timeout") + "\n" + response("chart"))
    assert warnings == [
        ("id-rewritten", "info", "messages[0].content[0].tool_use_id", "c1", None),
        (
            "capability-unsupported",
            "warning",
            "messages[0].content[0].is_error",
            True,
            "Error: timeout",
        ),
        ("id-rewritten", "info", "messages[0].content[1].tool_use_id", "c2", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 70},
            None,
        ),
    ]
