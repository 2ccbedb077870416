"""Media that is not what it claims (``providers.formats._kit.media``): an image, document
or audio clip whose base64 data does not decode, or a data URL that is not one, is imported
with a warning naming its field, and no conversion sends it on without a warning."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers import formats
from providers.formats._kit import media
from providers.formats._kit.media import find_misclaimed
from providers.umf import (
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

BAD = "not*base64*at*all"
PNG = "iVBORw0KGgo="

# One payload per source format, each with one media block that is not what it claims.
SOURCES: dict[str, tuple[str, Any, str]] = {
    "anthropic base64": (
        "anthropic",
        {
            "model": "claude-x",
            "max_tokens": 100,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "look"},
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/png", "data": BAD},
                        },
                    ],
                }
            ],
        },
        "messages[0].content[1].source.data",
    ),
    "openai-chat data URL": (
        "openai-chat",
        {
            "model": "gpt-4o",
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "look"},
                        {"type": "image_url", "image_url": {"url": f"data:image/png,{BAD}"}},
                    ],
                }
            ],
        },
        "messages[0].content[1].source.url",
    ),
    "gemini inlineData": (
        "gemini",
        {
            "contents": [
                {
                    "role": "user",
                    "parts": [
                        {"text": "look"},
                        {"inlineData": {"mimeType": "application/pdf", "data": BAD}},
                    ],
                }
            ],
        },
        "messages[0].content[1].source.data",
    ),
    "bedrock-converse bytes": (
        "bedrock-converse",
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"text": "look"},
                        {"image": {"format": "png", "source": {"bytes": BAD}}},
                    ],
                }
            ]
        },
        "messages[0].content[1].source.data",
    ),
}
SOURCES["openai-finetune line"] = (
    "openai-finetune",
    orjson.dumps(SOURCES["openai-chat data URL"][1] | {"model": None}).decode(),
    "messages[0].content[1].source.url",
)
TARGETS = [fmt.id for fmt in formats.all_formats()]


def _media_warnings(warnings: list[Any]) -> list[tuple[str, str | None]]:
    return [
        (warning.category, warning.field)
        for warning in warnings
        if "does not decode" in warning.message or "not a base64 data URL" in warning.message
    ]


@pytest.mark.parametrize(("source", "payload", "field"), SOURCES.values(), ids=SOURCES.keys())
def test_misclaimed_media_is_imported_with_a_warning_naming_its_field(
    source: str, payload: Any, field: str
) -> None:
    [item] = formats.parse(source, payload).items
    assert _media_warnings(item.warnings) == [("content-type-unsupported", field)]
    assert [block.type for block in item.conversation.messages[0].content][1] in (
        "image",
        "document",
    )


@pytest.mark.parametrize(("source", "payload", "field"), SOURCES.values(), ids=SOURCES.keys())
def test_the_round_trip_gives_it_back_with_a_warning(source: str, payload: Any, field: str) -> None:
    converted = formats.convert(source, source, payload)
    assert converted.payload == payload
    rendered = [w for w in converted.warnings if w.source == source and w.field == field]
    assert _media_warnings(rendered)[-1] == ("content-type-unsupported", field)


CONVERSIONS = [
    pytest.param(source, payload, field, target, id=f"{name}-to-{target}")
    for name, (source, payload, field) in SOURCES.items()
    for target in TARGETS
    if target != source
]


@pytest.mark.parametrize(("source", "payload", "field", "target"), CONVERSIONS)
def test_no_conversion_sends_it_on_without_a_warning(
    source: str, payload: Any, field: str, target: str
) -> None:
    converted = formats.convert(source, target, payload)
    render_warnings = [w for w in converted.warnings if w.source == target]
    if target == "umf":  # UMF carries anything: kept, and said so
        assert _media_warnings(render_warnings) == [("content-type-unsupported", field)]
        return
    block = field.rsplit(".source", 1)[0]
    assert _media_warnings(render_warnings) == [("content-dropped", block)]
    assert BAD.encode() not in orjson.dumps(converted.payload)
    assert b"look" in orjson.dumps(converted.payload)


def test_media_that_decodes_gives_no_warning() -> None:
    good = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                    },
                    {"type": "text", "text": "look"},
                ],
            }
        ],
    }
    for target in TARGETS:
        assert _media_warnings(formats.convert("anthropic", target, good).warnings) == []


def test_a_conversion_walks_the_blocks_once_when_the_parse_found_them_clean(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks: list[int] = []
    walk = media.find_misclaimed

    def counted(conversation: Conversation) -> list[media.Misclaimed]:
        walks.append(len(conversation.messages))
        return walk(conversation)

    monkeypatch.setattr(media, "find_misclaimed", counted)
    good = {"messages": [{"role": "user", "content": "look"}]}
    formats.convert("openai-chat", "anthropic", good)
    assert walks == [1]  # the parse's check; the render's would find the same nothing
    # A render of its own, and a conversion whose parse found something, still look.
    formats.get("anthropic").render(formats.parse("openai-chat", good).items[0].conversation)
    assert walks == [1, 1, 1]
    source, payload, _ = SOURCES["openai-chat data URL"]
    converted = formats.convert(source, "anthropic", payload)
    assert walks == [1, 1, 1, 1, 1]
    assert [w.category for w in converted.warnings if w.source == "anthropic"][:1] == [
        "content-dropped"
    ]


def test_media_inside_a_tool_result_is_checked_too() -> None:
    image = ImageBlock(source=MediaSource(type="url", url="data:image/png;base64"))
    pdf = DocumentBlock(source=MediaSource(type="base64", media_type="application/pdf", data=PNG))
    call = ToolUseBlock(id="t1", name="fetch", input={})
    result = ToolResultBlock(tool_use_id="t1", content=[pdf, image])
    conversation = Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="fetch it")]),
            Message(role="assistant", content=[call]),
            Message(role="user", content=[result]),
        ]
    )
    found = find_misclaimed(conversation)
    assert [(problem.path, problem.field) for problem in found] == [
        ("messages[2].content[0].content[1]", "messages[2].content[0].content[1].source.url")
    ]
    rendered = formats.get("anthropic").render(conversation)
    [tool_result] = rendered.payload["messages"][2]["content"]
    assert [block["type"] for block in tool_result["content"]] == ["document"]
    assert _media_warnings(rendered.warnings) == [
        ("content-dropped", "messages[2].content[0].content[1]")
    ]
