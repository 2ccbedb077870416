"""What every format whose files hold many conversations does with other formats'
conversations, parametrised over the five (chatgpt-export, claude-export, sharegpt,
otel-genai, openai-finetune): each other fixture becomes a valid entry, no block is
dropped without a warning, and one conversation nested too deep is refused alone.

Each format's own conversions are tested in its directory.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from providers import formats
from providers.formats.base import FormatError, ParseResult
from providers.umf import Conversation
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_nothing_dropped_silently,
    every_block,
    fixtures,
    load,
    results,
    stored,
)
from tests.providers.sdk.chatgpt_export import check_chatgpt_conversation
from tests.providers.sdk.claude_export import check_claude_conversation
from tests.providers.sdk.openai_finetune import validate_finetune_text
from tests.providers.sdk.otel_genai import validate_otel_attributes
from tests.providers.sdk.sharegpt import check_sharegpt_entry


def _one_chatgpt_entry(conversation: Conversation, payload: Any) -> None:
    [entry] = payload
    check_chatgpt_conversation(entry)


def _one_claude_entry(conversation: Conversation, payload: Any) -> None:
    [entry] = payload
    check_claude_conversation(entry)


def _one_sharegpt_entry(conversation: Conversation, payload: Any) -> None:
    [entry] = payload
    first = next((m for m in conversation.messages if m.role not in ("system", "developer")), None)
    # A conversation that opens with the assistant (a bare response) is written as it is.
    check_sharegpt_entry(entry, strict=first is not None and first.role != "assistant")


def _span_attributes(conversation: Conversation, payload: Any) -> None:
    validate_otel_attributes(payload)


def _one_line(conversation: Conversation, payload: Any) -> None:
    assert isinstance(payload, str) and payload.endswith("\n")
    validate_finetune_text(payload)


# What a consumer of each format checks a rendered conversation with.
ASSERT_VALID: dict[str, Callable[[Conversation, Any], None]] = {
    "chatgpt-export": _one_chatgpt_entry,
    "claude-export": _one_claude_entry,
    "sharegpt": _one_sharegpt_entry,
    "otel-genai": _span_attributes,
    "openai-finetune": _one_line,
}
ARCHIVES = tuple(ASSERT_VALID)
OTHER_FIXTURES = fixtures("openai-chat") + fixtures("anthropic") + fixtures("umf")

# A file of two conversations, the first nested too deep: (format, the file's bytes).
_DEEP = b"[" * 300 + b"]" * 300
_FINETUNE_DEEP = b"[" * 500 + b"]" * 500
NESTED_TOO_DEEP = {
    "chatgpt-export": b'[{"mapping": {}, "x": '
    + _DEEP
    + b"},"
    + orjson.dumps(load(FIXTURES / "chatgpt-export" / "simple_text.json")[0])
    + b"]",
    "claude-export": b'[{"chat_messages": [], "x": '
    + _DEEP
    + b"},"
    + orjson.dumps(load(FIXTURES / "claude-export" / "single_object.json"))
    + b"]",
    "sharegpt": b'[{"conversations": [], "x": '
    + _DEEP
    + b'}, {"conversations": [{"from": "human", "value": "ok"}]}]',
    "otel-genai": b'[{"gen_ai.input.messages": [], "x": '
    + _DEEP
    + b"},"
    + orjson.dumps(load(FIXTURES / "otel-genai" / "tool_loop_structured.json"))
    + b"]",
    "openai-finetune": b'{"messages": [{"role": "user", "content": "x", "meta": '
    + _FINETUNE_DEEP
    + b'}]}\n{"messages":[{"role":"user","content":"ok"}]}',
}


@pytest.mark.parametrize("format_id", ARCHIVES)
@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_other_fixture_becomes_a_valid_entry(path: Path, format_id: str) -> None:
    for item in formats.get(path.parent.name).parse(load(path)):
        conversation = stored(item.conversation)
        ASSERT_VALID[format_id](conversation, formats.get(format_id).render(conversation).payload)


@pytest.mark.parametrize("format_id", ARCHIVES)
def test_no_block_is_dropped_silently(format_id: str) -> None:
    conversation = every_block()
    assert_nothing_dropped_silently(conversation, formats.get(format_id).render(conversation))


@pytest.mark.parametrize("format_id", ARCHIVES)
def test_a_conversation_nested_too_deep_is_refused_alone(format_id: str) -> None:
    refused, read = results(formats.get(format_id), NESTED_TOO_DEEP[format_id])
    assert isinstance(refused, FormatError) and "nested deeper" in refused.message
    assert refused.field in ("[0]", "line 1")
    assert isinstance(read, ParseResult)
