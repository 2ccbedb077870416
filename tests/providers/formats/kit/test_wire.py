"""The kit's wire values (``providers.formats._kit.wire``) and what a warning says about
media and dropped blocks (``_kit.drift.describe``): never their bytes."""

from __future__ import annotations

import base64

from providers.formats._kit.drift import describe, report_block_dropped
from providers.formats._kit.wire import (
    document_text,
    json_digest,
    media_summary,
    parse_object,
    tool_definition,
)
from providers.formats.base import Drift
from providers.umf import (
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
)

_BYTES = base64.b64encode(b"RIFF" + bytes(3000)).decode()
_DATA_URL = f"data:audio/wav;base64,{_BYTES}"


def test_a_media_summary_names_the_source_but_never_holds_the_bytes() -> None:
    as_url = media_summary(MediaSource(type="url", url=_DATA_URL))
    as_base64 = media_summary(MediaSource(type="base64", media_type="audio/wav", data=_BYTES))
    fetched = media_summary(MediaSource(type="url", url="https://example.com/a.wav"))
    # The data URL's media type and size are said; its bytes are not.
    assert as_url == {"source": "url", "media_type": "audio/wav", "size": 3004}
    assert as_base64 == {"source": "base64", "media_type": "audio/wav", "size": 3004}
    assert fetched == {"source": "url", "url": "https://example.com/a.wav"}


def test_a_dropped_block_is_described_without_bytes_or_secrets() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=_BYTES))
    result = ToolResultBlock(tool_use_id="call_1", content=[TextBlock(text="chart"), image])
    thinking = ThinkingBlock(text="plan", signature="sig-secret", data="opaque-secret")
    drift = Drift(source="test")
    report_block_dropped(result, "messages[0].content[0]", drift, "no room")
    report_block_dropped(thinking, "messages[0].content[1]", drift, "no room")
    assert [(w.category, w.field, w.message) for w in drift.warnings] == [
        ("content-dropped", "messages[0].content[0]", "no room"),
        ("content-dropped", "messages[0].content[1]", "no room"),
    ]
    assert drift.warnings[0].original_value == {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": [
            {"type": "text", "text": "chart"},
            {"type": "image", "source": "base64", "media_type": "image/png", "size": 3004},
        ],
    }
    assert describe(thinking) == {"type": "thinking", "text": "plan", "redacted": False}


def test_a_plain_text_document_is_read_as_text_and_other_bytes_are_not() -> None:
    def document(**source: str) -> DocumentBlock:
        return DocumentBlock(source=MediaSource(**source))  # type: ignore[arg-type]

    hello = base64.b64encode(b"hello").decode()
    assert document_text(document(type="text", data="notes")) == "notes"
    assert document_text(document(type="base64", media_type="text/plain", data=hello)) == "hello"
    assert document_text(document(type="base64", media_type="application/pdf", data=hello)) is None
    assert document_text(document(type="url", url="https://example.com/a.txt")) is None


def test_a_tool_definition_names_only_what_the_tool_has_and_a_digest_ignores_key_order() -> None:
    assert tool_definition(Tool(name="f")) == {"name": "f"}
    full = tool_definition(Tool(name="f", description="d", parameters={"type": "object"}))
    assert list(full) == ["name", "description", "parameters"]
    assert json_digest({"a": 1, "b": [2]}) == json_digest({"b": [2], "a": 1})
    assert json_digest({"a": 1}) != json_digest({"a": 2})


def test_only_text_that_opens_an_object_is_decoded_as_one() -> None:
    # JSON whitespace may come before the brace; anything else (or nothing) is plain text.
    assert parse_object('{"a": 1}') == {"a": 1}
    assert parse_object(' \t\r\n{"a": 1}') == {"a": 1}
    assert parse_object("") is None
    assert parse_object("  ") is None
    assert parse_object("\u00a0{}") is None
    assert parse_object('x{"a": 1}') is None
    assert parse_object("[1]") is None
    assert parse_object("{not json") is None
