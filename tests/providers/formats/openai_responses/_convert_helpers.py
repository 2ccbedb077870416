"""What the ``openai-responses`` conversion tests share: rendering with the API's checks and
the check that nothing is dropped without a warning, and builders for conversations.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

from providers import formats
from providers.umf import (
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chat_completions._helpers import assert_nothing_silently_dropped
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_request,
)

FORMAT_ID = "openai-responses"
RESPONSES = formats.get(FORMAT_ID)
FIXTURES = Path(__file__).parents[3] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD"
    + "hgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="gpt-5")
RS_ID = "rs_68a1f0c2d48191b6b2f7d0a35e2c6f0a"
FC_ID = "fc_68a1f3a7c08191b1d2e3f4a5b6c7d80a"


def assert_renders(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that the API would take it, and give back payload and warnings."""
    rendered = RESPONSES.render(conversation)
    validate_openai_responses_request(rendered.payload)
    check_openai_responses_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    assert {w.source for w in rendered.warnings} <= {FORMAT_ID}
    return rendered.payload, rendered.warnings


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


def from_fixture(format_id: str, name: str) -> tuple[Any, Conversation]:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.get(format_id).parse(payload)
    return payload, Conversation.model_validate_json(item.conversation.model_dump_json())


def rewritten(call_id: str) -> str:
    """The id ToolIdMap gives a call id OpenAI refuses (documented: call_ + sha256 prefix)."""
    return "call_" + hashlib.sha256(call_id.encode()).hexdigest()[:24]


def png(url: str | None = None) -> ImageBlock:
    if url:
        return ImageBlock(source=MediaSource(type="url", url=url))
    return ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))


def chat(*messages: Message, **fields: Any) -> Conversation:
    fields.setdefault("parameters", PARAMS)
    return Conversation(messages=list(messages), **fields)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def call(call_id: str, name: str = "get_weather", **extra: Any) -> ToolUseBlock:
    return ToolUseBlock(
        id=call_id, name=name, input={"city": "Paris"}, extra={FORMAT_ID: extra} if extra else {}
    )


def result(call_id: str, content: Any = "18 °C", **fields: Any) -> Message:
    block = ToolResultBlock(tool_use_id=call_id, content=content, **fields)
    return Message(role="tool", tool_call_id=call_id, content=[block])


def own_reasoning(text: str = "Need the weather.", **extra: Any) -> ThinkingBlock:
    return ThinkingBlock(text=text, data="gAAAAABo", provider=FORMAT_ID, extra={FORMAT_ID: extra})


def pdf(data: str, title: str | None = None, filename: str | None = None) -> DocumentBlock:
    source = MediaSource(type="base64", media_type="application/pdf", data=data)
    return DocumentBlock(source=source, title=title, filename=filename)
