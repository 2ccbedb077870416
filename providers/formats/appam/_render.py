"""UMF conversation -> Appam payload: the shape it was read in, else an array of
``UnifiedMessage``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers.formats._kit.drift import (
    report_field_dropped,
    report_message_metadata,
    report_no_room_for_request,
)
from providers.formats._kit.paths import item
from providers.formats._kit.wire import wire_finish_reason
from providers.formats._message_lists.render import (
    ListContext,
    one_thread,
    render_context,
    report_foreign,
)
from providers.formats._message_lists.shapes import shaped_payload
from providers.formats.appam._constants import FORMAT_ID, LABEL, NS, STOP_REASONS, USAGE_COUNTS
from providers.formats.appam._parse import parse_timestamp
from providers.formats.appam._render_blocks import render_block
from providers.formats.appam._rules import role_and_blocks
from providers.formats.base import Rendered
from providers.umf import Conversation, Message, Usage

_NO_MESSAGE_METADATA = "Appam messages have no models, finish reasons, usage or metadata; left out"
_WIRE_STOP_REASONS: dict[str, str] = {v: k for k, v in reversed(STOP_REASONS.items())}


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as Appam JSON (see the package docstring): the payload and
    a warning for each thing it could not carry."""
    ctx = render_context(FORMAT_ID, LABEL, faithful=False)
    shape = NS.hint(conversation.extra, "shape")
    report_foreign(conversation.extra, "", ctx)
    report_no_room_for_request(conversation, ctx.drift, holder="Appam messages carry")
    thread = one_thread(conversation, ctx)
    last = thread[-1][1] if thread else None
    exchange = shape == "exchange" and last is not None and last.role == "assistant"
    _report_metadata(thread, exchange, ctx)
    groups = [[render_message(message, index, ctx)] for index, message in thread]
    payload = shaped_payload(conversation, shape, thread, groups, NS, _answer_fields)
    return Rendered(payload, ctx.drift.warnings)


def _report_metadata(messages: list[tuple[int, Message]], exchange: bool, ctx: ListContext) -> None:
    """One note for the messages' models, finish reasons, usage and metadata: a
    UnifiedMessage holds only an id and a timestamp, an exchange the answer's model, usage
    and stop reason beside it."""
    if exchange:
        index, answer = messages[-1]
        kept = answer.model_copy(update={"model": None, "usage": None, "finish_reason": None})
        messages = [*messages[:-1], (index, kept)]
    report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA, held=("id", "timestamp"))


def render_message(message: Message, index: int, ctx: ListContext) -> dict[str, Any]:
    """One ``UnifiedMessage`` for UMF message ``index``."""
    path = item("messages", index)
    report_foreign(message.extra, path, ctx)
    role, blocks = role_and_blocks(message, path, ctx)
    content = []
    for block_path, block in blocks:
        body = render_block(block, block_path, ctx)
        if body is not None:
            content.append(body)
    out: dict[str, Any] = {"role": role, "content": content}
    if message.id is not None:
        out["id"] = message.id
    if message.timestamp is not None:
        out["timestamp"] = format_timestamp(message.timestamp, NS.hint(message.extra, "timestamp"))
    if message.reasoning is not None:
        out["reasoning"] = message.reasoning
    if message.reasoning_details is not None:
        out["reasoning_details"] = message.reasoning_details
    if message.name is not None:  # a tool message's too: Appam's results carry no name
        report_field_dropped(path, "name", message.name, ctx.drift, "Appam messages have no name")
    return NS.put(out, message.extra)


def format_timestamp(value: datetime, original: str | None) -> str:
    """The timestamp as read when it still says the same instant, else RFC 3339 in UTC."""
    if original is not None and parse_timestamp(original, "") == value:
        return original
    utc = value.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}" if utc.microsecond else ""
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


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
