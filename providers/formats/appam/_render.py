"""UMF conversation -> Appam payload: the shape it was read in, else an array of
``UnifiedMessage``."""

from __future__ import annotations

from typing import Any

from providers.formats._common import report_message_metadata, wire_finish_reason
from providers.formats._kit.drift import report_no_room_for_request
from providers.formats.base import Rendered
from providers.umf import JSON, Block, Conversation, Message, ToolResultBlock, Usage

from ._parse import STOP_REASONS, USAGE_COUNTS
from ._render_blocks import render_block
from ._shared import (
    RenderContext,
    at,
    format_timestamp,
    get_hint,
    item,
    put_fields,
    report_foreign_extra,
    thread,
)

SHAPES = ("messages", "message", "exchange")
_NO_MESSAGE_METADATA = "Appam messages have no models, finish reasons, usage or metadata; left out"
_WIRE_STOP_REASONS: dict[str, str] = {v: k for k, v in reversed(STOP_REASONS.items())}


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and a warning for each thing it could not carry."""
    ctx = RenderContext()
    shape = get_hint(conversation.extra, "shape")
    report_foreign_extra(conversation.extra, "", ctx)
    report_no_room_for_request(conversation, ctx.drift, holder="Appam messages carry")
    messages = thread(conversation, ctx)
    last = messages[-1][1] if messages else None
    exchange = shape == "exchange" and last is not None and last.role == "assistant"
    _report_metadata(messages, exchange, ctx)
    payload: JSON
    if shape == "message" and len(messages) == 1:
        payload = render_message(messages[0][1], messages[0][0], ctx)
    elif exchange and last is not None:
        payload = {
            **get_hint(conversation.extra, "exchange", {}),
            "request": [render_message(m, i, ctx) for i, m in messages[:-1]],
            "response": render_message(last, messages[-1][0], ctx),
            **_answer_fields(last),
        }
    else:
        payload = [render_message(message, index, ctx) for index, message in messages]
    return Rendered(payload, ctx.drift.warnings)


def _report_metadata(
    messages: list[tuple[int, Message]], exchange: bool, ctx: RenderContext
) -> None:
    """One note for the messages' models, finish reasons, usage and metadata: a
    UnifiedMessage holds only an id and a timestamp, an exchange the answer's model, usage
    and stop reason beside it."""
    if exchange:
        index, answer = messages[-1]
        kept = answer.model_copy(update={"model": None, "usage": None, "finish_reason": None})
        messages = [*messages[:-1], (index, kept)]
    report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA, held=("id", "timestamp"))


def render_message(message: Message, index: int, ctx: RenderContext) -> dict[str, Any]:
    """One ``UnifiedMessage`` for UMF message ``index``."""
    path = item("messages", index)
    report_foreign_extra(message.extra, path, ctx)
    role, blocks = _role_and_blocks(message, path, ctx)
    content = []
    for block_path, block in blocks:
        body = render_block(block, block_path, ctx)
        if body is not None:
            content.append(body)
    out: dict[str, Any] = {"role": role, "content": content}
    if message.id is not None:
        out["id"] = message.id
    if message.timestamp is not None:
        out["timestamp"] = format_timestamp(message.timestamp, get_hint(message.extra, "timestamp"))
    if message.reasoning is not None:
        out["reasoning"] = message.reasoning
    if message.reasoning_details is not None:
        out["reasoning_details"] = message.reasoning_details
    if message.name is not None:
        ctx.drift.add(
            "content-dropped",
            "Appam messages have no name",
            field=at(path, "name"),
            original=message.name,
            severity="info",
        )
    return put_fields(out, message.extra)


def _role_and_blocks(
    message: Message, path: str, ctx: RenderContext
) -> tuple[str, list[tuple[str, Block]]]:
    """Appam's role and the blocks to write with their UMF paths. Developer instructions
    are system text; tool results are ToolResult blocks in a user message (Appam's own
    rule). A tool message holding its result as plain blocks (UMF's InternalMessage
    shape) becomes one ToolResult at the message's own path."""
    numbered = [(item(at(path, "content"), i), block) for i, block in enumerate(message.content)]
    if message.role == "developer":
        ctx.drift.add(
            "system-message-transformed",
            "Appam has no developer role; sent as a system message",
            field=at(path, "role"),
            original="developer",
            transformed="system",
        )
        return "system", numbered
    if message.role != "tool":
        return message.role, numbered
    if any(isinstance(block, ToolResultBlock) for block in message.content):
        return "user", numbered
    if message.tool_call_id is not None:
        result = ToolResultBlock(
            tool_use_id=message.tool_call_id, content=list(message.content), name=message.name
        )
        return "user", [(path, result)]
    ctx.drift.add(
        "content-type-unsupported",
        "a tool message that answers no call; sent as a user message",
        field=path,
        original="tool",
        transformed="user",
    )
    return "user", numbered


def _answer_fields(answer: Message) -> dict[str, Any]:
    """An exchange's ``usage``, ``stop_reason`` and ``model`` beside the response."""
    out: dict[str, Any] = {}
    if answer.usage is not None:
        out["usage"] = _usage(answer.usage)
    stop_reason = wire_finish_reason(answer, _WIRE_STOP_REASONS)
    if stop_reason is not None:
        out["stop_reason"] = stop_reason
    if answer.model is not None:
        out["model"] = answer.model
    return out


def _usage(usage: Usage) -> dict[str, Any]:
    if usage.raw is not None and {"input_tokens", "output_tokens"} <= usage.raw.keys():
        return usage.raw
    counts = {
        "input_tokens": usage.prompt_tokens or 0,
        "output_tokens": usage.completion_tokens or 0,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cached_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
    }
    return {key: counts[key] for key in USAGE_COUNTS if counts[key] is not None}
