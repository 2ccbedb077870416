"""Helpers shared by the tests of the ``ollama`` renderer fed conversations from other
formats: converting, warning summaries and the nothing-silently-dropped check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.formats._kit.wire import parse_data_uri
from providers.formats.ollama import render
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk.ollama import validate_ollama_request

FIXTURES = Path(__file__).parents[3] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "k+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="qwen3")


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        inline = parse_data_uri(source.url) if source.url else None
        url = inline[1] if inline else source.url
        return [value for value in (source.data, url, source.file_id) if value]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content]
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation, payload: Any, warnings: list[DriftWarning]
) -> None:
    text = orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        # A warning on the block, inside it, or on its whole message accounts for it.
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


def convert(conversation: Conversation) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render a conversation from another format: a valid request, nothing lost silently."""
    rendered = render(conversation)
    validate_ollama_request(rendered.payload)
    assert all(w.source == "ollama" for w in rendered.warnings)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def messages(*items: Message, **fields: Any) -> Conversation:
    fields.setdefault("parameters", PARAMS)
    return Conversation(messages=list(items), **fields)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def text(value: str) -> TextBlock:
    return TextBlock(text=value)


def imported(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.parse(format_id, payload).items
    return Conversation.model_validate_json(item.conversation.model_dump_json())
