"""Non-streamed ``/api/chat`` responses: ``message`` becomes the last assistant message.

The message gets the response's ``model``, the normalised finish reason (``done_reason``
raw in ``provider_finish_reason``; ``stop`` with tool calls is UMF ``tool_calls``, ``load``
and ``unload`` have no UMF name) and usage (``prompt_eval_count`` as prompt tokens,
``eval_count`` as completion tokens; Ollama reports no cached or reasoning tokens).
``usage.raw`` keeps every count and nanosecond timing as sent. ``created_at`` sets the
message timestamp; it and every other response field (``done``...) stay verbatim in the
message's ``$response`` hint so they come back.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from providers.formats.base import FormatError
from providers.umf import FinishReason, Message, ToolUseBlock, Usage

from ._messages import ParseState, parse_message
from ._shared import DONE_REASONS, FINISH_REASONS, FORMAT_ID, METRICS, Fields, get_hint, is_int

# Go writes nanoseconds; Python's datetime holds microseconds.
_EXTRA_DIGITS = re.compile(r"(\.\d{6})\d+")


def parse_response(raw: Any, path: str, state: ParseState) -> Message:
    """The assistant message of a chat response (``path`` is where the response is)."""
    fields = Fields(raw, path)
    message = parse_message(fields.mapping("message", required=True), fields.at("message"), state)
    if message.role != "assistant":
        raise FormatError(
            "a response message has role 'assistant'", field=fields.at("message.role")
        )
    message.model = fields.string("model")
    reason = fields.string("done_reason")
    if reason is not None:
        message.provider_finish_reason = reason
        message.finish_reason = _finish_reason(reason, message)
    metrics: dict[str, Any] = {key: fields.rest.pop(key) for key in METRICS if key in fields.rest}
    if metrics:
        message.usage = _usage(metrics)
    message.timestamp = _timestamp(fields.rest.get("created_at"))
    message.extra.setdefault(FORMAT_ID, {})["$response"] = fields.rest
    return message


def _finish_reason(reason: str, message: Message) -> FinishReason | None:
    finish = FINISH_REASONS.get(reason)
    if finish == "stop" and any(isinstance(block, ToolUseBlock) for block in message.content):
        return "tool_calls"  # Ollama says "stop" when the turn ends on tool calls
    return finish


def _usage(metrics: dict[str, Any]) -> Usage:
    prompt = metrics.get("prompt_eval_count")
    completion = metrics.get("eval_count")
    prompt = prompt if is_int(prompt) else None
    completion = completion if is_int(completion) else None
    total = prompt + completion if prompt is not None and completion is not None else None
    return Usage(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=total, raw=metrics
    )


def _timestamp(created_at: Any) -> datetime | None:
    if not isinstance(created_at, str):
        return None
    try:
        return datetime.fromisoformat(_EXTRA_DIGITS.sub(r"\1", created_at))
    except ValueError:
        return None  # not a time we can read: it stays only in the kept fields


def render_response(message: Message, wire: dict[str, Any]) -> dict[str, Any]:
    """A chat response whose ``message`` is ``wire``, the rendered ``message``."""
    response = dict(get_hint(message.extra, "response", {"done": True}))
    if message.model is not None:
        response["model"] = message.model
    response["message"] = wire
    reason = message.provider_finish_reason
    if reason is None:
        reason = DONE_REASONS.get(message.finish_reason or "")
    if reason is not None:
        response["done_reason"] = reason
    if message.usage is not None:
        response.update(render_metrics(message.usage))
    return response


def render_metrics(usage: Usage) -> dict[str, Any]:
    """Ollama's count and timing fields: as sent when they came from Ollama, else the
    counts UMF has."""
    raw = usage.raw or {}
    if raw and set(raw) <= set(METRICS):
        return dict(raw)
    counts = {"prompt_eval_count": usage.prompt_tokens, "eval_count": usage.completion_tokens}
    return {key: value for key, value in counts.items() if value is not None}
