"""The ``anthropic`` renderer fed conversations from other formats, one rule each: thinking,
media, refusals and citations, empty content, tool results with blocks, tool choice,
branches and response fields."""

from __future__ import annotations

import pytest

from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.anthropic._convert_helpers import (
    OC,
    PNG,
    assert_converts,
    assistant,
    text,
    user,
)


def test_thinking_travels_only_back_to_anthropic() -> None:
    own = ThinkingBlock(text="mine", signature="sig-a", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    foreign = ThinkingBlock(text="theirs", signature="enc", provider="openai-responses")
    unknown = ThinkingBlock(text="whose?", signature="sig")
    unsigned = ThinkingBlock(text="no signature", provider="anthropic")
    payload, warnings = assert_converts(
        user(text("q")), assistant(own, redacted, foreign, unknown, unsigned, text("answer"))
    )
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "mine", "signature": "sig-a"},
        {"type": "redacted_thinking", "data": "blob"},
        {"type": "text", "text": "answer"},
    ]
    assert [w[:5] for w in warnings] == [
        ("reasoning-dropped", "warning", "messages[1].content[2]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[3]", "whose?", None),
        ("reasoning-dropped", "warning", "messages[1].content[4]", "no signature", None),
    ]
    assert "enc" not in str(payload) and "'sig'" not in str(payload)


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(
            source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}"), detail="low"
        ),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.jpg"), detail="auto"),
        ImageBlock(source=MediaSource(type="base64", media_type="image/bmp", data="Qk0=")),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            filename="a.pdf",
        ),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/csv", data="YSxiCjEsMg==")
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T", filename="t.txt"),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("describe"),
    ]
    payload, warnings = assert_converts(user(*blocks))
    assert payload["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "image", "source": {"type": "url", "url": "https://x/cat.jpg"}},
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
            "title": "a.pdf",
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "a,b\n1,2"},
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "plain"},
            "title": "T",
        },
        {"type": "text", "text": "describe"},
    ]
    assert warnings == [
        ("field-unknown", "info", "messages[0].content[0].detail", "low", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "image", "source": "base64", "media_type": "image/bmp", "size": 2},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        ("field-unknown", "info", "messages[0].content[6].filename", "t.txt", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[7]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 4},
            None,
        ),
    ]


def test_media_in_assistant_turn_moves_to_the_next_user_turn() -> None:
    image = ImageBlock(source=MediaSource(type="url", url="https://x/chart.png"))
    payload, warnings = assert_converts(
        user(text("plot it")), assistant(text("Here:"), image), user(text("nice"))
    )
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": "Here:"},
        {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "url", "url": "https://x/chart.png"}},
                {"type": "text", "text": "nice"},
            ],
        },
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = assert_converts(
        user(text("q")), assistant(RefusalBlock(text="I can't."), cited)
    )
    assert payload["messages"][1]["content"] == [
        {"type": "text", "text": "I can't."},
        {"type": "text", "text": "Paris"},
    ]
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
    ]


def test_empty_text_and_empty_messages_are_left_out_with_a_note() -> None:
    payload, warnings = assert_converts(
        user(text("q"), text("  ")), assistant(), user(text("again"))
    )
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "q"}, {"type": "text", "text": "again"}],
        }
    ]
    assert warnings == [
        ("content-dropped", "info", "messages[0].content[1]", "  ", None),
        ("content-dropped", "info", "messages[1]", "assistant", None),
        ("role-merged", "warning", "messages[2]", "user", "user"),
    ]


def test_tool_result_with_blocks_keeps_text_and_images() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    result = ToolResultBlock(
        tool_use_id="c1", content=[text("chart"), image, text("")], is_error=False
    )
    call = ToolUseBlock(id="c1", name="plot", input={})
    payload, warnings = assert_converts(user(text("plot")), assistant(call), user(result))
    assert payload["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "c1",
            "content": [
                {"type": "text", "text": "chart"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
            "is_error": False,
        }
    ]
    assert warnings == [("content-dropped", "info", "messages[2].content[0].content[2]", "", None)]


def test_tool_message_without_result_block_is_wrapped() -> None:
    call = ToolUseBlock(id="c1", name="f", input={})
    bare = Message(role="tool", tool_call_id="c1", content=[text("42")])
    payload, warnings = assert_converts(user(text("q")), assistant(call), bare)
    assert payload["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "42"}]}
    ]
    assert warnings == []


def test_tool_choice_without_tools_is_left_out() -> None:
    payload, warnings = assert_converts(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "tool_choice" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]


def test_named_tool_choice() -> None:
    tools = [Tool(name="f", parameters={"type": "object"})]
    payload, _ = assert_converts(
        user(text("q")), tools=tools, tool_choice=ToolChoice(type="tool", name="f")
    )
    assert payload["tool_choice"] == {"type": "tool", "name": "f"}


@pytest.mark.parametrize("name", [None, "g"])
def test_a_forced_tool_that_is_not_among_the_tools_becomes_any(name: str | None) -> None:
    # Found by converting mutated fixtures: a UMF tool choice naming no tool (or one not
    # offered) was sent as {"type": "tool"}, which the API refuses.
    tools = [Tool(name="f", parameters={"type": "object"})]
    payload, warnings = assert_converts(
        user(text("q")), tools=tools, tool_choice=ToolChoice(type="tool", name=name)
    )
    assert payload["tool_choice"] == {"type": "any"}
    assert warnings == [("parameter-normalized", "warning", "tool_choice.name", name, "any")]


def test_branches_are_reduced_to_the_main_thread() -> None:
    messages = [
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    ]
    payload, warnings = assert_converts(*messages)
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "second try"},
    ]
    assert warnings == [
        ("content-dropped", "warning", "messages", 3, 2),
        ("content-dropped", "info", "messages", ["id"], None),
    ]


def test_response_fields_stay_out_of_a_converted_request() -> None:
    answer = assistant(
        text("hi"),
        id="chatcmpl-1",
        model="gpt-4o",
        finish_reason="stop",
        extra={OC: {"$response": True}},
    )
    payload, warnings = assert_converts(user(text("q")), answer)
    assert payload["messages"][1] == {"role": "assistant", "content": "hi"}
    assert warnings == [
        ("content-dropped", "info", "messages", ["finish_reason", "id", "model"], None)
    ]
