"""Every format, given media it cannot hold: its warnings name the field and describe the
media (type, media type, size, a real URL), never its bytes. Warnings are stored as rows and
returned by the API: a dropped 5 MB clip must not be copied into them.

The conversation holds a ``data:`` audio clip, a base64 image and a base64 PDF where a user
speaks, where the assistant speaks and inside a tool result, so that each format meets them
where it has no place for some of them.
"""

from __future__ import annotations

import base64

import orjson
import pytest

from providers import formats
from providers.umf import Conversation

# Three different payloads, long enough (~3 KB) that any copy of them is unmistakable.
AUDIO = base64.b64encode(b"RIFF\x00\x01WAVEfmt audio clip " * 128).decode()
IMAGE = base64.b64encode(b"\x89PNG\r\n\x1a\n image pixels " * 128).decode()
PDF = base64.b64encode(b"%PDF-1.7 document pages " * 128).decode()
MEDIA = [
    {"type": "audio", "source": {"type": "url", "url": f"data:audio/wav;base64,{AUDIO}"}},
    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": IMAGE}},
    {
        "type": "document",
        "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
    },
]
CONVERSATION = Conversation.model_validate(
    {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "listen"}, *MEDIA]},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "here"},
                    *MEDIA,
                    {"type": "tool_use", "id": "call_1", "name": "fetch", "input": {}},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": [{"type": "text", "text": "fetched"}, *MEDIA],
                    }
                ],
            },
        ],
        "tools": [{"name": "fetch", "parameters": {"type": "object"}}],
    }
)
FORMAT_IDS = sorted(fmt.id for fmt in formats.all_formats())


def test_every_format_is_covered() -> None:
    assert len(FORMAT_IDS) == 19
    assert len(MEDIA_AT) == 9


@pytest.mark.parametrize("format_id", FORMAT_IDS)
def test_warnings_describe_media_without_its_bytes(format_id: str) -> None:
    rendered = formats.get(format_id).render(CONVERSATION)
    for warning in rendered.warnings:
        said = orjson.dumps(
            [warning.original_value, warning.transformed_value, warning.message, warning.details]
        ).decode()
        for data in (AUDIO, IMAGE, PDF):
            assert data[:64] not in said, (warning.field, warning.message)
    # A warning that shows a media block names where that block is, and says what it was.
    for warning in rendered.warnings:
        shown = warning.original_value
        if isinstance(shown, dict) and shown.get("type") in ("audio", "image", "document"):
            assert MEDIA_AT.get(warning.field or "") == shown["type"], warning.field
            assert {"source", "media_type"} <= shown.keys()
            assert "data" not in shown


def _media_paths() -> dict[str, str]:
    """Where each media block of CONVERSATION is (its UMF path) and its type."""
    found: dict[str, str] = {}
    for index, message in enumerate(CONVERSATION.messages):
        for position, block in enumerate(message.content):
            path = f"messages[{index}].content[{position}]"
            inner = block.content if block.type == "tool_result" else []
            for nested, item in enumerate(inner if isinstance(inner, list) else []):
                found[f"{path}.content[{nested}]"] = item.type
            found[path] = block.type
    return {path: kind for path, kind in found.items() if kind in ("audio", "image", "document")}


MEDIA_AT = _media_paths()
