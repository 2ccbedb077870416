"""What the tests of the chat-completions family share: fixture lists, the storage round
trip, the "nothing silently dropped" check, one block of every kind, and rendering a
conversation with the target SDK's types and rules asserted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.formats._kit.wire import parse_data_uri
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

FIXTURES = Path(__file__).parents[3] / "fixtures"
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


def _markers(block: Block, data_of_urls: bool) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        url = source.url
        inline = parse_data_uri(url) if url and data_of_urls else None
        return [
            value for value in (source.data, inline[1] if inline else url, source.file_id) if value
        ]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content] if block.content else []
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation,
    payload: Any,
    warnings: list[DriftWarning],
    *,
    data_of_urls: bool = False,
) -> None:
    """Every block's text, media or name is in the payload, or a warning names the block,
    something inside it, or its whole message. ``data_of_urls``: the target sends a data
    URL's bytes without the URL around them (Ollama's ``images``)."""
    text = orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in _markers(block, data_of_urls):
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


Check = Callable[[Any], Any]
_TARGETS: dict[str, tuple[Check, Check]] = {
    "cohere": (validate_cohere_request, check_cohere_rules),
    "mistral": (validate_mistral_request, check_mistral_rules),
}


def assert_renders(format_id: str, conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render into ``format_id``, assert that its SDK's types and rules accept the payload
    and that nothing was silently dropped; give back the payload and the warnings."""
    rendered = formats.get(format_id).render(conversation)
    validate, check_rules = _TARGETS[format_id]
    validate(rendered.payload)
    check_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def imported(format_id: str, name: str) -> Conversation:
    """A fixture of another format as storage gives it back after importing it."""
    [item] = formats.get(format_id).parse(load(FIXTURES / format_id / f"{name}.json"))
    return stored(item.conversation)


def parse_one_without_warnings(format_id: str, payload: Any) -> Conversation:
    """The one conversation ``format_id`` reads from ``payload``, asserting no warnings."""
    [item] = formats.get(format_id).parse(payload)
    assert item.warnings == []
    return item.conversation


def assert_round_trips(format_id: str, payload: Any) -> None:
    """Assert that ``payload`` comes back exactly, without warnings, whether rendered
    straight from what was read or after the storage round trip."""
    conversation = parse_one_without_warnings(format_id, payload)
    for candidate in (conversation, stored(conversation)):
        rendered = formats.get(format_id).render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(format_id: str, conversation: Conversation) -> str:
    """The payload shape ``format_id`` recorded on a conversation it read."""
    return str(conversation.extra[format_id]["$shape"])
