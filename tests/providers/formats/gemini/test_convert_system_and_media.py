"""The ``gemini`` renderer, one conversion rule at a time: system and developer prompts, and
media (the exact payload and drift warnings of each rule).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from providers.formats.gemini._render_media import url_path
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
)
from tests.providers.formats.gemini.test_convert_whole_fixtures import (
    PNG,
    assert_converts,
    assistant,
    parts_of,
    text,
    user,
)

# --------------------------------------------------------------------------- system prompts


def test_leading_system_is_the_system_instruction_and_developer_is_noted() -> None:
    payload, warnings = assert_converts(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    }
    assert warnings == []
    _, warnings = assert_converts(
        Message(role="developer", content=[text("Be brief.")]), user(text("hi"))
    )
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "systemInstruction")
    ]


def test_mid_conversation_system_message_moves_to_the_system_instruction() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = assert_converts(
        user(text("hi")),
        assistant(text("hello")),
        Message(role="system", content=[text("Now answer in French."), image]),
        user(text("ça va ?")),
    )
    assert payload["systemInstruction"] == {"parts": [{"text": "Now answer in French."}]}
    assert [content["role"] for content in payload["contents"]] == ["user", "model", "user"]
    assert warnings == [
        ("system-message-transformed", "warning", "messages[2]", "system", "systemInstruction"),
        ("content-dropped", "warning", "messages[2].content[1]", "inlineData", None),
    ]


# --------------------------------------------------------------------------- media


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(
            source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}"), detail="low"
        ),
        ImageBlock(
            source=MediaSource(type="url", url="https://example.com/cat.jpg"), detail="auto"
        ),
        ImageBlock(source=MediaSource(type="url", url="https://example.com/chart")),
        ImageBlock(
            source=MediaSource(
                type="file", file_id="https://generativelanguage.googleapis.com/v1beta/files/x1"
            )
        ),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        ImageBlock(source=MediaSource(type="base64", data=PNG)),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="not base64!")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            filename="a.pdf",
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T"),
        DocumentBlock(source=MediaSource(type="url", url="https://example.com/paper.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("describe"),
    ]
    payload, warnings = assert_converts(user(*blocks))
    assert parts_of(payload, 0) == [
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.jpg"}},
        {"fileData": {"fileUri": "https://example.com/chart"}},
        {"fileData": {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/x1"}},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0="}},
        {"inlineData": {"mimeType": "text/plain", "data": "cGxhaW4="}},
        {"fileData": {"mimeType": "application/pdf", "fileUri": "https://example.com/paper.pdf"}},
        {"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}},
        {"text": "describe"},
    ]
    cat = {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.jpg"}}
    paper = {
        "fileData": {"mimeType": "application/pdf", "fileUri": "https://example.com/paper.pdf"}
    }
    assert warnings == [
        ("field-unknown", "info", "messages[0].content[1].detail", "low", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[2]",
            cat["fileData"]["fileUri"],
            cat,
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[3]",
            "https://example.com/chart",
            {"fileData": {"fileUri": "https://example.com/chart"}},
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[5]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        (
            "parameter-defaulted",
            "info",
            "messages[0].content[6].source.media_type",
            None,
            "image/png",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[7]",
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 8},
            None,
        ),
        ("field-unknown", "info", "messages[0].content[8].filename", "a.pdf", None),
        ("field-unknown", "info", "messages[0].content[9].title", "T", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[10]",
            paper["fileData"]["fileUri"],
            paper,
        ),
    ]


def test_images_stay_in_the_model_turn() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = assert_converts(user(text("draw")), assistant(text("Here:"), image))
    assert parts_of(payload, 1) == [
        {"text": "Here:"},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
    ]
    assert warnings == []


# URLs whose path the fast reading takes, and others it leaves to urlsplit (spaces,
# controls, non-ASCII, brackets in the host, no ``//``, no scheme).
URLS = [
    "https://example.com/img/photo_1.png",
    "https://example.com",
    "https://example.com?x.png",
    "https://example.com#/x.png",
    "https://ex.com/a.png?b=c.jpg#d",
    "https://ex.com/a#b?c.gif",
    "https://e.com/a[1].png?q=[2]",
    "https://u:p@e.com:80/x.tar.gz",
    "HTTPS://E.COM/A.PNG",
    "x+y.z-1://h/p.mp3",
    "file:///tmp/x.wav",
    "gs://bucket/x/y.pdf",
    "https://",
    "http://[::1]/a.png",
    "mailto:a.png",
    "a/b.png",
    "1http://h/p.png",
    "ht_tp://e.com/a.png",
    "https:/e.com/x.png",
    " https://e.com/a.png",
    "https://e.com/a\tb.png",
    "https://e.com/a b.png",
    "https://e.com/a\x7f.png",
    "https://é.com/a.png",
]


@pytest.mark.parametrize("url", URLS)
def test_a_url_path_is_the_one_urlsplit_reads(url: str) -> None:
    assert url_path(url) == urlsplit(url).path
