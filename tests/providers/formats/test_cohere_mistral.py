"""What the ``cohere`` and ``mistral`` tests share, and the conversions between the two.

The helpers here (fixture lists, storage round trip, the "nothing silently dropped"
check, one block of every kind, JSON mutation for fuzzing) are imported by
``test_cohere*.py`` and ``test_mistral*.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from providers import formats
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk.cohere import check_cohere_rules, validate_cohere_request
from tests.providers.sdk.mistral import check_mistral_rules, validate_mistral_request

FIXTURES = Path(__file__).parents[2] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD"
    + "hgGAWjR9awAAAABJRU5ErkJggg=="
)


def fixtures_of(format_id: str) -> list[Path]:
    """The fixture files of one format."""
    return sorted((FIXTURES / format_id).glob("*.json"))


def foreign_fixtures(format_id: str) -> list[Path]:
    """The fixture files of every other registered format."""
    known = {fmt.id for fmt in formats.all_formats()} - {format_id}
    return [
        path
        for directory in sorted(FIXTURES.iterdir())
        if directory.is_dir() and directory.name in known
        for path in sorted(directory.glob("*.json"))
    ]


def load(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


# --------------------------------------------------------------------------- silent loss


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        return [value for value in (source.data, source.url, source.file_id) if value]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content] if block.content else []
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation, payload: Any, warnings: list[DriftWarning]
) -> None:
    """Every block's text, media or name is in the payload, or a warning names the block,
    something inside it, or its whole message."""
    text = orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in _markers(block):
            assert orjson.dumps(marker).decode()[1:-1] in text, f"{path} lost {marker!r} silently"
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            for index, inner in enumerate(block.content):
                check(inner, f"{path}.content[{index}]")

    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            check(block, f"messages[{index}].content[{position}]")


# --------------------------------------------------------------------------- every block


def pdf(data: str = "JVBERi0xLjQK", filename: str | None = None) -> DocumentBlock:
    source = MediaSource(type="base64", media_type="application/pdf", data=data)
    return DocumentBlock(source=source, filename=filename)


def png(url: str | None = None) -> ImageBlock:
    if url:
        return ImageBlock(source=MediaSource(type="url", url=url))
    return ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))


BLOCKS: dict[str, Block] = {
    "text": TextBlock(text="plain words"),
    "text with citations": TextBlock(text="cited", citations=[{"type": "page_location"}]),
    "refusal": RefusalBlock(text="I won't"),
    "image base64": png(),
    "image url": png("https://example.com/cat.png"),
    "image file": ImageBlock(source=MediaSource(type="file", file_id="file-img")),
    "pdf": pdf(filename="a.pdf"),
    "document url": DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
    "document text": DocumentBlock(source=MediaSource(type="text", data="doc words")),
    "document file": DocumentBlock(source=MediaSource(type="file", file_id="file-doc")),
    "audio wav": AudioBlock(
        source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")
    ),
    "audio url": AudioBlock(source=MediaSource(type="url", url="https://example.com/a.mp3")),
    "tool use": ToolUseBlock(id="call_table", name="lookup", input={"q": 1}),
    "tool result text": ToolResultBlock(tool_use_id="call_table", content="found it"),
    "tool result blocks": ToolResultBlock(
        tool_use_id="call_table", content=[TextBlock(text="rows"), png()]
    ),
    "tool result error": ToolResultBlock(tool_use_id="call_table", content="broke", is_error=True),
    "thinking unsigned": ThinkingBlock(text="let me think"),
    "thinking signed": ThinkingBlock(text="signed thought", signature="sig", provider="anthropic"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}
ROLES = ("system", "developer", "user", "assistant", "tool")


# --------------------------------------------------------------------------- fuzzing

# --------------------------------------------------------------------------- cohere <-> mistral

Check = Callable[[Any], Any]
_TARGETS: dict[str, tuple[Check, Check]] = {
    "cohere": (validate_cohere_request, check_cohere_rules),
    "mistral": (validate_mistral_request, check_mistral_rules),
}


@pytest.mark.parametrize(
    ("source", "target"), [("cohere", "mistral"), ("mistral", "cohere")], ids=lambda v: v
)
def test_each_format_s_fixtures_convert_to_the_other(source: str, target: str) -> None:
    validate, check = _TARGETS[target]
    for path in fixtures_of(source):
        [item] = formats.get(source).parse(load(path))
        conversation = stored(item.conversation)
        rendered = formats.get(target).render(conversation)
        validate(rendered.payload)
        check(rendered.payload)
        assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)


def test_cohere_thinking_becomes_mistral_thinking_and_back() -> None:
    payload = load(FIXTURES / "cohere" / "exchange_reasoning_usage.json")
    to_mistral = formats.convert("cohere", "mistral", payload)
    answer = to_mistral.payload["messages"][-1]
    assert answer["content"][0] == {
        "type": "thinking",
        "thinking": [
            {"type": "text", "text": payload["response"]["message"]["content"][0]["thinking"]}
        ],
    }
    back = formats.convert("mistral", "cohere", to_mistral.payload)
    assert (
        back.payload["messages"][-1]["content"][0] == payload["response"]["message"]["content"][0]
    )
