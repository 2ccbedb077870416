"""Helpers shared by the tests of ``openai-chat`` rendering conversations from other
formats: rendering, warning summaries, sample blocks and the nothing-silently-dropped check."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
)

OPENAI_CHAT = formats.get("openai-chat")
FIXTURES = Path(__file__).parents[3] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD"
    + "hgGAWjR9awAAAABJRU5ErkJggg=="
)
LONG_ID = "fc_68309c2e5b7c8191a2b3c4d5e6f708190a1b2c3d4e5f60718293a4b5c6d7e8f9"


def assert_renders_for_openai(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, assert that OpenAI would take it and that nothing was lost silently, and
    give back payload and warnings."""
    rendered = OPENAI_CHAT.render(conversation)
    validate_openai_chat_request(rendered.payload)
    check_openai_chat_tool_pairing(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text]
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        return [value for value in (source.data, source.url, source.file_id) if value]
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


def rewritten(call_id: str) -> str:
    """The id ToolIdMap gives a call id OpenAI refuses (documented: call_ + sha256 prefix)."""
    return "call_" + hashlib.sha256(call_id.encode()).hexdigest()[:24]


def png(url: str | None = None) -> ImageBlock:
    if url:
        return ImageBlock(source=MediaSource(type="url", url=url))
    return ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="gpt-4o"), messages=[Message(role="user", content=list(blocks))]
    )


def pdf(data: str, *, title: str | None = None, filename: str | None = None) -> DocumentBlock:
    return DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data=data),
        title=title,
        filename=filename,
    )
