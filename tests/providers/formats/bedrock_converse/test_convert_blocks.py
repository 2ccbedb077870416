"""The ``bedrock-converse`` renderer, one matrix cell (column BR) each: thinking, media,
refusals and citations, tool result contents, empty content, branches, response fields
and this provider's own blocks."""

from __future__ import annotations

import orjson
import pytest

from providers.formats.bedrock_converse import parse, render
from providers.formats.bedrock_converse._constants import (
    DOCUMENT_PROMPT_TEXT,
    EMPTY_RESULT_TEXT,
)
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
)
from tests.providers.formats.bedrock_converse._convert_helpers import (
    FIXTURES,
    OC,
    PNG,
    TOOLS,
    assert_converts,
    assert_valid_request,
    assistant,
    call,
    text,
    tool,
    user,
    user_turn,
)


def test_thinking_travels_only_back_to_bedrock() -> None:
    own = ThinkingBlock(text="mine", signature="sig-b", provider="bedrock-converse")
    redacted = ThinkingBlock(redacted=True, data="YmxvYg==", provider="bedrock-converse")
    unsigned_own = ThinkingBlock(text="deepseek style", provider="bedrock-converse")
    anthropic = ThinkingBlock(text="theirs", signature="sig-a", provider="anthropic")
    anthropic_redacted = ThinkingBlock(redacted=True, data="enc", provider="anthropic")
    unknown = ThinkingBlock(text="whose?", signature="sig")
    payload, warnings = assert_converts(
        user(text("q")),
        assistant(own, redacted, unsigned_own, anthropic, anthropic_redacted, unknown, text("a")),
    )
    assert payload["messages"][1]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "mine", "signature": "sig-b"}}},
        {"reasoningContent": {"redactedContent": "YmxvYg=="}},
        {"reasoningContent": {"reasoningText": {"text": "deepseek style"}}},
        {"text": "a"},
    ]
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].content[3]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[4]", None, None),
        ("reasoning-dropped", "warning", "messages[1].content[5]", "whose?", None),
    ]


def test_reasoning_outside_blocks_is_reported() -> None:
    _, warnings = assert_converts(
        user(text("q")),
        assistant(text("a"), reasoning="hmm", reasoning_details=[{"type": "reasoning.text"}]),
    )
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning", "hmm", None),
        (
            "reasoning-dropped",
            "warning",
            "messages[1].reasoning_details",
            [{"type": "reasoning.text"}],
            None,
        ),
    ]


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}")),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.jpg"), detail="auto"),
        ImageBlock(source=MediaSource(type="url", url="s3://bucket/cat.JPG")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/bmp", data="Qk0=")),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            title="Q3: report",
        ),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/x-python", data="cHJpbnQoMSk=")
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T", filename="t.txt"),
        DocumentBlock(source=MediaSource(type="url", url="https://x/spec.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/x-midi", data="TVRoZA==")),
        text("describe"),
    ]
    payload, warnings = assert_converts(user(*blocks))
    assert payload["messages"][0]["content"] == [
        {"image": {"format": "png", "source": {"bytes": PNG}}},
        {"text": "[image: https://x/cat.jpg]"},
        {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/cat.JPG"}}}},
        {"document": {"format": "pdf", "name": "Q3 report", "source": {"bytes": "JVBERi0="}}},
        {"document": {"format": "txt", "name": "document-1", "source": {"text": "print(1)"}}},
        {"document": {"format": "txt", "name": "T", "source": {"text": "plain"}}},
        {"text": "[document: https://x/spec.pdf]"},
        {"audio": {"format": "mpeg", "source": {"bytes": "SUQz"}}},
        {"text": "describe"},
    ]
    assert warnings == [
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[1]",
            "https://x/cat.jpg",
            "[image: https://x/cat.jpg]",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "image", "source": "base64", "media_type": "image/bmp", "size": 2},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[4]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        ("parameter-normalized", "info", "messages[0].content[5].title", "Q3: report", "Q3 report"),
        ("content-type-unsupported", "info", "messages[0].content[6]", "text/x-python", "txt"),
        ("parameter-defaulted", "info", "messages[0].content[6].filename", None, "document-1"),
        ("field-unknown", "info", "messages[0].content[7].filename", "t.txt", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[8]",
            "https://x/spec.pdf",
            "[document: https://x/spec.pdf]",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[10]",
            {"type": "audio", "source": "base64", "media_type": "audio/x-midi", "size": 4},
            None,
        ),
    ]


@pytest.mark.parametrize(
    "block",
    [
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="0")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="\x80")),
        DocumentBlock(source=MediaSource(type="url", url="data:application/pdf;base64,%%%")),
    ],
    ids=["image", "audio", "pdf data uri"],
)
def test_inline_media_that_is_not_base64_is_dropped_with_a_warning(block: Block) -> None:
    # Found by converting mutated fixtures: the string was sent as bytes, which Converse
    # (base64 on the wire) refuses.
    payload, warnings = assert_converts(user(text("look"), block))
    assert payload["messages"] == [user_turn("look")]
    assert [warning[:3] for warning in warnings] == [
        ("content-dropped", "warning", "messages[0].content[1]")
    ]


def test_media_in_assistant_turn_moves_to_the_next_user_turn() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = assert_converts(
        user(text("plot it")), assistant(text("Here:"), image), user(text("nice"))
    )
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": [{"text": "Here:"}]},
        {
            "role": "user",
            "content": [{"image": {"format": "png", "source": {"bytes": PNG}}}, {"text": "nice"}],
        },
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_document_alone_gets_a_text_block_beside_it() -> None:
    document = DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
        title="Spec",
    )
    payload, warnings = assert_converts(user(document))
    assert payload["messages"][0]["content"][-1] == {"text": DOCUMENT_PROMPT_TEXT}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0].content[0]",
            None,
            {"text": DOCUMENT_PROMPT_TEXT},
        )
    ]


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = assert_converts(
        user(text("q")), assistant(RefusalBlock(text="I can't."), cited)
    )
    assert payload["messages"][1]["content"] == [{"text": "I can't."}, {"text": "Paris"}]
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


def test_tool_result_error_flag_and_media_are_carried() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    result = ToolResultBlock(
        tool_use_id="c1", content=[text("chart"), image, text("")], is_error=True
    )
    payload, warnings = assert_converts(
        user(text("plot")), assistant(call("c1")), user(result), tools=TOOLS
    )
    assert payload["messages"][2]["content"] == [
        {
            "toolResult": {
                "toolUseId": "c1",
                "content": [
                    {"text": "chart"},
                    {"image": {"format": "png", "source": {"bytes": PNG}}},
                ],
                "status": "error",
            }
        }
    ]
    assert warnings == [("content-dropped", "info", "messages[2].content[0].content[2]", "", None)]


def test_empty_tool_result_gets_a_placeholder() -> None:
    payload, warnings = assert_converts(
        user(text("q")), assistant(call("c1")), tool("c1", ""), tools=TOOLS
    )
    placeholder = [{"text": EMPTY_RESULT_TEXT}]
    assert payload["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "c1", "content": placeholder}}
    ]
    assert warnings == [
        ("parameter-defaulted", "info", "messages[2].content[0].content", "", placeholder)
    ]


def test_tool_result_cannot_hold_audio_or_thinking() -> None:
    audio = AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg=="))
    result = ToolResultBlock(tool_use_id="c1", content=[audio, text("ok")])
    _, warnings = assert_converts(user(text("q")), assistant(call("c1")), user(result), tools=TOOLS)
    assert warnings[0][:3] == ("content-dropped", "warning", "messages[2].content[0].content[0]")


def test_empty_text_and_empty_messages_are_left_out_with_a_note() -> None:
    payload, warnings = assert_converts(
        user(text("q"), text("  ")), assistant(), user(text("again"))
    )
    assert payload["messages"] == [user_turn("q", "again")]
    assert warnings == [
        ("content-dropped", "info", "messages[0].content[1]", "  ", None),
        ("content-dropped", "info", "messages[1]", "assistant", None),
        ("role-merged", "warning", "messages[2]", "user", "user"),
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    messages = [
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    ]
    payload, warnings = assert_converts(*messages)
    assert payload["messages"] == [
        user_turn("q"),
        {"role": "assistant", "content": [{"text": "second try"}]},
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
    assert payload["messages"][1] == {"role": "assistant", "content": [{"text": "hi"}]}
    assert warnings == [
        ("content-dropped", "info", "messages", ["finish_reason", "id", "model"], None)
    ]


def test_own_blocks_keep_their_bedrock_fields_in_a_converted_conversation() -> None:
    """A Bedrock conversation that lost its shape (edited, merged) still sends its own
    reasoning and block fields, and now follows the conversion rules."""
    payload = orjson.loads((FIXTURES / "bedrock-converse" / "thinking_exchange.json").read_bytes())
    conversation = parse(payload)[0].conversation
    del conversation.extra["bedrock-converse"]["$shape"]
    rendered = render(conversation)
    assert_valid_request(rendered.payload)
    sent = rendered.payload["messages"]
    assert sent[1]["content"] == payload["request"]["messages"][1]["content"]
    assert (
        sent[3]["content"][0]["reasoningContent"]
        == (payload["response"]["output"]["message"]["content"][0]["reasoningContent"])
    )
