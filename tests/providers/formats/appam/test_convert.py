"""The ``appam`` format rendering conversations read from other formats: exact payloads
and exact warnings for every lossy step (every block in every role, other formats'
fixtures and random conversations are in ``test_seed_formats.py``)."""

from __future__ import annotations

from typing import Any

from providers.umf import (
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
)
from tests.providers.formats.seed_formats._conversion_sources import (
    DROPPED_AUDIO,
    anthropic_import,
    openai_import,
)
from tests.providers.formats.seed_formats._helpers import (
    PNG,
    assert_renders,
    message_summary,
    summary,
)


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def test_an_anthropic_import_becomes_these_messages() -> None:
    rendered = assert_renders("appam", anthropic_import())
    assert rendered.payload == [
        {"role": "system", "content": [_text("You are terse.")]},
        {
            "role": "user",
            "content": [
                _text("Weather in Paris and Rome?"),
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Need both cities.", "redacted": False},
                _text("Checking both."),
                _use("toolu_01Paris", "get_weather", {"city": "Paris"}),
                _use("toolu_01Rome", "get_weather", {"city": "Rome"}),
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Paris",
                    "content": [
                        _text("18 °C, sunny"),
                        {
                            "type": "image",
                            "source": {"type": "url", "url": "https://maps.example/radar.png"},
                        },
                    ],
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Rome",
                    "content": "upstream timeout",
                    "is_error": True,
                },
                _text("Also, is it windy?"),
            ],
        },
        {"role": "assistant", "content": [_use("toolu_01Wind", "get_wind", {"city": "Paris"})]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01Wind", "content": "12 km/h"},
                {
                    "type": "document",
                    "source": {
                        "type": "base64_pdf",
                        "media_type": "application/pdf",
                        "data": "JVBERi0x",
                    },
                    "title": "Forecast",
                },
            ],
        },
    ]


def test_an_anthropic_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("appam", anthropic_import())
    assert message_summary(rendered.warnings) == [
        ("signature-stripped", "messages[2].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
    ]
    assert rendered.warnings[-1].details == {"redacted": True, "signed": True}


def test_an_openai_import_becomes_these_messages() -> None:
    rendered = assert_renders("appam", openai_import())
    assert rendered.payload == [
        {"role": "system", "content": [_text("Answer briefly.")]},
        {
            "role": "user",
            "content": [
                _text("What is in this photo and recording?"),
                {
                    "type": "image",
                    "source": {"type": "url", "url": "https://example.com/photo.jpg"},
                    "detail": "high",
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                _use("call_1", "describe", {"target": "photo"}),
                _use("call_2", "transcribe", {}),
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "call_1",
                    "content": "A red bicycle leaning on a wall.",
                }
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_2", "content": "unsupported codec"}
            ],
        },
        {
            "role": "assistant",
            "content": [_text("A red bicycle."), _text("I can't transcribe that audio.")],
        },
        {"role": "user", "content": [_text("Thanks!")]},
    ]


def test_an_openai_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("appam", openai_import())
    assert message_summary(rendered.warnings) == [
        ("system-message-transformed", "messages[0].role", "developer", "system"),
        ("content-dropped", "messages[0].name", "acme", None),
        ("content-dropped", "messages[1].content[2]", DROPPED_AUDIO, None),
        ("content-dropped", "messages[2].content[1].raw_arguments", '{"target": "aud', {}),
        ("content-type-unsupported", "messages[5].content[1]", "refusal", "text"),
        ("content-dropped", "messages[6].name", "maria", None),
    ]
    assert [w.severity for w in rendered.warnings if w.field and w.field.endswith(".name")] == [
        "info",
        "info",
    ]


def test_documents_fill_what_appam_requires() -> None:
    conversation = Conversation(
        messages=[
            Message(
                role="user",
                content=[
                    DocumentBlock(source=MediaSource(type="text", data="notes"), filename="n.txt"),
                    DocumentBlock(
                        source=MediaSource(type="base64", data="JVBE"), title="T", filename="t.pdf"
                    ),
                    DocumentBlock(source=MediaSource(type="file", file_id="file-1")),
                ],
            )
        ]
    )
    rendered = assert_renders("appam", conversation)
    assert rendered.payload[0]["content"] == [
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "notes"},
            "title": "n.txt",
        },
        {
            "type": "document",
            "source": {"type": "base64_pdf", "media_type": "application/pdf", "data": "JVBE"},
            "title": "T",
        },
    ]
    assert summary(rendered.warnings) == [
        ("parameter-defaulted", "messages[0].content[0].source.media_type", None, "text/plain"),
        (
            "parameter-defaulted",
            "messages[0].content[1].source.media_type",
            None,
            "application/pdf",
        ),
        ("content-dropped", "messages[0].content[1].filename", "t.pdf", None),
        (
            "content-dropped",
            "messages[0].content[2]",
            {"type": "document", "source": "file", "file_id": "file-1"},
            None,
        ),
    ]


def test_an_image_without_a_media_type_gets_the_default_with_a_note_at_its_field() -> None:
    image = ImageBlock(source=MediaSource(type="base64", data=PNG))
    rendered = assert_renders(
        "appam", Conversation(messages=[Message(role="user", content=[image])])
    )
    assert rendered.payload[0]["content"][0]["source"]["media_type"] == "image/png"
    assert summary(rendered.warnings) == [
        ("parameter-defaulted", "messages[0].content[0].source.media_type", None, "image/png")
    ]


def test_foreign_signatures_are_stripped_and_appam_ones_kept() -> None:
    conversation = Conversation(
        messages=[
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(text="mine", signature="sig-appam", provider="appam"),
                    ThinkingBlock(text="theirs", signature="sig-anthropic", provider="anthropic"),
                    ThinkingBlock(text="", signature="sig-empty", provider="appam", redacted=True),
                    TextBlock(text="done"),
                ],
            )
        ]
    )
    rendered = assert_renders("appam", conversation)
    assert rendered.payload[0]["content"][:3] == [
        {"type": "thinking", "thinking": "mine", "signature": "sig-appam", "redacted": False},
        {"type": "thinking", "thinking": "theirs", "redacted": False},
        {"type": "thinking", "thinking": "", "signature": "sig-empty", "redacted": True},
    ]
    assert summary(rendered.warnings) == [
        ("signature-stripped", "messages[0].content[1]", "anthropic", None)
    ]


def test_tool_messages_become_user_messages_of_results() -> None:
    conversation = Conversation(
        messages=[
            Message(role="tool", tool_call_id="c1", content=[TextBlock(text="4")]),
            Message(role="tool", content=[TextBlock(text="stray")]),
        ]
    )
    rendered = assert_renders("appam", conversation)
    assert rendered.payload == [
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "c1", "content": [_text("4")]}],
        },
        {"role": "user", "content": [_text("stray")]},
    ]
    assert summary(rendered.warnings) == [
        ("content-type-unsupported", "messages[1]", "tool", "user")
    ]
