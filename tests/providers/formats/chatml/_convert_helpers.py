"""Constants and helpers shared by the ``chatml`` conversion tests (``test_convert_*.py``).

ChatML has no SDK: every text written must read back with this format's own parser, turn
for turn, with only the template tags where they belong (:func:`check_chatml`)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.formats._kit.wire import parse_data_uri
from providers.formats.chatml import FORMAT, render
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.seed_formats._helpers import assert_nothing_silently_dropped

FIXTURES = Path(__file__).parents[3] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "k+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
_TURN = re.compile(r"<\|im_start\|>(\w+)[^\n]*\n", re.S)


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def check_chatml(text: Any) -> Conversation:
    """The text is ChatML this format reads back: every turn closed by ``<|im_end|>\\n``,
    a known role, and each ``<tool_call>`` a JSON call."""
    assert isinstance(text, str) and (text.startswith("<|im_start|>") or not text)
    [item] = FORMAT.parse(text)
    conversation = item.conversation
    assert FORMAT.render(conversation).payload == text
    assert text.count("<|im_start|>") == text.count("<|im_end|>\n") == len(conversation.messages)
    for message in conversation.messages:
        assert message.role in ("system", "user", "assistant")
        for block in message.content:
            if isinstance(block, TextBlock):
                assert "<tool_call>" not in block.text or message.role != "assistant"
    return conversation


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the text unless a warning says why."""
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


def assert_converts(conversation: Conversation) -> tuple[str, list[tuple[Any, ...]]]:
    """Render a conversation from another format, asserting that it is ChatML this format
    reads back and that nothing was lost silently; the text and its warnings."""
    rendered = render(conversation)
    check_chatml(rendered.payload)
    assert all(w.source == "chatml" for w in rendered.warnings)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings, _markers)
    return rendered.payload, summary(rendered.warnings)


def imported(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.parse(format_id, payload).items
    return Conversation.model_validate_json(item.conversation.model_dump_json())


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def text(value: str) -> TextBlock:
    return TextBlock(text=value)


def turn(role: str, content: str) -> str:
    return f"<|im_start|>{role}\n{content}<|im_end|>\n"


def call(name: str, arguments: dict[str, Any]) -> str:
    body = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"


def response(content: str) -> str:
    return f"<tool_response>\n{content}\n</tool_response>"
