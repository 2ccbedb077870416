"""Converting into ``openai-responses``: media parts, media a role cannot hold, refusals,
citations, names, reasoning fields and branches.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

from providers.umf import (
    AudioBlock,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    PNG,
    assert_renders,
    assistant,
    call,
    chat,
    pdf,
    png,
    result,
    summary,
    user,
)

# --------------------------------------------------------------------------- content


def test_media_parts_and_their_losses() -> None:
    payload, warnings = assert_renders(
        chat(
            user(
                png("https://example.com/cat.png"),
                ImageBlock(source=MediaSource(type="file", file_id="file-AbC"), detail="high"),
                ImageBlock(source=MediaSource(type="file", file_id="file_011CNha8")),
                pdf("JVBERi0x"),
                pdf("JVBERi0y", title="Q3 report"),
                DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
                DocumentBlock(
                    source=MediaSource(type="text", media_type="text/plain", data="notes")
                ),
                AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
            )
        )
    )
    uri = "data:application/pdf;base64,"
    assert payload["input"][0]["content"] == [
        {"type": "input_image", "detail": "auto", "image_url": "https://example.com/cat.png"},
        {"type": "input_image", "detail": "high", "file_id": "file-AbC"},
        {"type": "input_file", "file_data": uri + "JVBERi0x", "filename": "document.pdf"},
        {"type": "input_file", "file_data": uri + "JVBERi0y", "filename": "Q3 report"},
        {"type": "input_file", "file_url": "https://example.com/a.pdf"},
        {"type": "input_text", "text": "notes"},
    ]
    assert summary(warnings) == [
        (
            "content-dropped",
            "messages[0].content[2]",
            {"type": "image", "source": "file", "file_id": "file_011CNha8"},
            None,
        ),
        ("parameter-defaulted", "messages[0].content[3].filename", None, "document.pdf"),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": "text", "media_type": "text/plain"},
            "input_text",
        ),
        (
            "content-dropped",
            "messages[0].content[7]",
            {"type": "audio", "source": "base64", "media_type": "audio/mpeg", "size": 3},
            None,
        ),
    ]


def test_media_a_role_cannot_hold_moves_to_a_user_message_after_it() -> None:
    conversation = chat(
        Message(role="system", content=[TextBlock(text="Be brief."), png("https://x/logo.png")]),
        user(TextBlock(text="Draw a cat")),
        assistant(png(), TextBlock(text="Here."), call("call_1", name="save")),
        result("call_1", "saved"),
    )
    payload, warnings = assert_renders(conversation)
    image = {"type": "input_image", "detail": "auto", "image_url": f"data:image/png;base64,{PNG}"}
    assert payload["input"] == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "input_image", "detail": "auto", "image_url": "https://x/logo.png"}
            ],
        },
        {"role": "user", "content": "Draw a cat"},
        {"role": "assistant", "content": "Here."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "save",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "saved"},
        {"role": "user", "content": [image]},
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[0].content[1]", "system", "user"),
        ("message-reordered", "messages[2].content[0]", "assistant", "user"),
    ]


def test_refusals_citations_and_names() -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    conversation = chat(
        user(RefusalBlock(text="not that"), name="maria"),
        assistant(RefusalBlock(text="I can't."), TextBlock(text="quoted", citations=citations)),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"] == [
        {"role": "user", "content": "not that"},
        {"role": "assistant", "content": "I can't."},
        {"role": "assistant", "content": "quoted"},
    ]
    assert summary(warnings) == [
        ("content-dropped", "messages[0].name", "maria", None),
        ("content-type-unsupported", "messages[0].content[0]", "refusal", "input_text"),
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-dropped", "messages[1].content[1].citations", citations, None),
    ]


def test_reasoning_fields_and_branches_are_dropped_with_warnings() -> None:
    conversation = chat(
        Message(id="a", role="user", content=[TextBlock(text="hi")]),
        Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
        Message(
            id="c",
            parent_id="a",
            role="assistant",
            content=[TextBlock(text="new")],
            reasoning="Six times seven.",
            reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
        ),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "new"},
    ]
    assert summary(warnings) == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages", ["id"], None),
        ("reasoning-dropped", "messages[2].reasoning", "Six times seven.", None),
        ("reasoning-dropped", "messages[2].reasoning_details", None, None),
    ]
