"""One lossy step each for content: documents, audio, images, citations, refusals and
assistant media."""

from __future__ import annotations

from providers.umf import (
    AudioBlock,
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_chat._conversion_helpers import (
    PNG,
    assert_renders_for_openai,
    one_user_message,
    pdf,
    png,
    summary,
)

# --------------------------------------------------------------------------- one lossy step each


def test_documents_become_file_parts_or_text() -> None:
    payload, warnings = assert_renders_for_openai(
        one_user_message(
            pdf("JVBERi0x"),
            pdf("JVBERi0y", title="Q3 report"),
            pdf("JVBERi0z", title="Q4", filename="q4.pdf"),
            DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
            DocumentBlock(
                source=MediaSource(type="text", media_type="text/plain", data="plain words")
            ),
            DocumentBlock(source=MediaSource(type="file", file_id="file-abc")),
        )
    )
    uri = "data:application/pdf;base64,"
    assert payload["messages"][0]["content"] == [
        {"type": "file", "file": {"file_data": uri + "JVBERi0x", "filename": "document.pdf"}},
        {"type": "file", "file": {"file_data": uri + "JVBERi0y", "filename": "Q3 report"}},
        {"type": "file", "file": {"file_data": uri + "JVBERi0z", "filename": "q4.pdf"}},
        {"type": "text", "text": "https://example.com/a.pdf"},
        {"type": "text", "text": "plain words"},
        {"type": "file", "file": {"file_id": "file-abc"}},
    ]
    assert summary(warnings) == [
        ("parameter-defaulted", "messages[0].content[0].filename", None, "document.pdf"),
        ("content-dropped", "messages[0].content[2].title", "Q4", None),
        (
            "content-type-unsupported",
            "messages[0].content[3]",
            {"type": "document", "source": "url", "url": "https://example.com/a.pdf"},
            "text",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[4]",
            {"type": "document", "source": "text", "media_type": "text/plain"},
            "text",
        ),
    ]


def test_audio_goes_as_wav_or_mp3_or_not_at_all() -> None:
    payload, warnings = assert_renders_for_openai(
        one_user_message(
            AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
            AudioBlock(source=MediaSource(type="base64", media_type="audio/x-wav", data="UklG")),
            AudioBlock(source=MediaSource(type="base64", media_type="audio/ogg", data="T2dn")),
            AudioBlock(source=MediaSource(type="url", url="https://example.com/a.wav")),
        )
    )
    assert payload["messages"][0]["content"] == [
        {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}},
        {"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}},
    ]
    assert [(w.category, w.field) for w in warnings] == [
        ("content-dropped", "messages[0].content[2]"),
        ("content-dropped", "messages[0].content[3]"),
    ]


def test_images_by_provider_file_id_are_dropped() -> None:
    image = ImageBlock(source=MediaSource(type="file", file_id="file_011CNha8"))
    payload, warnings = assert_renders_for_openai(one_user_message(TextBlock(text="look"), image))
    assert payload["messages"] == [{"role": "user", "content": "look"}]
    assert summary(warnings) == [
        (
            "content-dropped",
            "messages[0].content[1]",
            {"type": "image", "source": "file", "file_id": "file_011CNha8"},
            None,
        )
    ]


def test_foreign_citations_are_dropped_with_a_warning() -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    payload, warnings = assert_renders_for_openai(
        one_user_message(TextBlock(text="quoted", citations=citations))
    )
    assert payload["messages"] == [{"role": "user", "content": "quoted"}]
    assert summary(warnings) == [
        ("content-dropped", "messages[0].content[0].citations", citations, None)
    ]


def test_refusals_outside_assistant_messages_become_text() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="user", content=[RefusalBlock(text="not that")]),
            Message(role="assistant", content=[RefusalBlock(text="I can't.")]),
        ],
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"] == [
        {"role": "user", "content": "not that"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]},
    ]
    assert summary(warnings) == [
        ("content-type-unsupported", "messages[0].content[0]", "refusal", "text")
    ]


def test_assistant_media_moves_to_a_user_message_after_the_tool_results() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="user", content=[TextBlock(text="draw")]),
            Message(
                role="assistant",
                content=[png(), ToolUseBlock(id="call_1", name="save", input={})],
            ),
            Message(role="tool", tool_call_id="call_1", content=[TextBlock(text="saved")]),
        ],
    )
    payload, warnings = assert_renders_for_openai(conversation)
    assert payload["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "save", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "saved"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
            ],
        },
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[1].content[0]", "assistant", "user")
    ]
