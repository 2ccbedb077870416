"""``response`` objects: the ``output`` items become the last assistant message.

The message gets the response ``id`` and ``model``, ``usage`` (the provider's object in
``usage.raw``) and a finish reason derived from ``status`` and ``incomplete_details`` (the
Responses API has none): completed with function or custom tool calls -> ``tool_calls``,
completed -> ``stop``, incomplete for ``max_output_tokens`` -> ``length``, for
``content_filter`` -> ``content_filter``, failed -> ``error``, cancelled -> ``cancelled``.
``provider_finish_reason`` keeps the raw value (the incomplete reason, else the status).
Every other response field (``object``, ``created_at``, ``status``, ``error``, the echoed
request settings...) is kept verbatim in the ``$response`` hint of that message.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers.formats._common import require_mapping, split
from providers.formats.base import FormatError
from providers.umf import JSON, FinishReason, Message, ToolUseBlock, Usage

from ._parse_items import ItemReader
from ._shared import add_hints, at, get_hint, is_int, is_number, plain

_INCOMPLETE: dict[str, FinishReason] = {
    "max_output_tokens": "length",
    "content_filter": "content_filter",
}
_STATUSES: dict[str, FinishReason] = {"failed": "error", "cancelled": "cancelled"}


def is_response(payload: JSON) -> bool:
    """Whether ``payload`` looks like a ``response`` object."""
    return isinstance(payload, dict) and (
        payload.get("object") == "response" or isinstance(payload.get("output"), list)
    )


def parse_response(raw: JSON, base: str, reader: ItemReader) -> Message:
    """The assistant message of a ``response`` object (``base`` is where it is)."""
    response = plain(raw, base)
    if "output" not in response:
        raise FormatError("a response needs output", field=at(base, "output"))
    message = reader.read_output(response["output"], at(base, "output"))
    fields, rest = split(response, ("id", "model", "usage"), handled=("output",), path=base)
    for key in ("id", "model"):
        if key in fields and not isinstance(fields[key], str):
            raise FormatError("expected a string", field=at(base, key))
    message.id, message.model = fields.get("id"), fields.get("model")
    if "usage" in fields:
        message.usage = parse_usage(fields["usage"], at(base, "usage"))
    has_calls = any(isinstance(block, ToolUseBlock) for block in message.content)
    message.finish_reason, message.provider_finish_reason = _finish(rest, base, has_calls)
    message.timestamp = _timestamp(rest.get("created_at"))
    add_hints(message.extra, response=rest)
    return message


def _finish(
    rest: dict[str, Any], base: str, has_calls: bool
) -> tuple[FinishReason | None, str | None]:
    status = rest.get("status")
    if status is None:
        return None, None
    if not isinstance(status, str):
        raise FormatError("expected a string", field=at(base, "status"))
    if status == "completed":
        return ("tool_calls" if has_calls else "stop"), status
    if status != "incomplete":
        return _STATUSES.get(status), status
    details = rest.get("incomplete_details")
    if details is not None and not isinstance(details, dict):
        raise FormatError("expected an object", field=at(base, "incomplete_details"))
    reason = details.get("reason") if details else None
    if not isinstance(reason, str):
        return None, status
    return _INCOMPLETE.get(reason), reason


def _timestamp(created: JSON) -> datetime | None:
    if not is_number(created):
        return None
    try:
        return datetime.fromtimestamp(created, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None  # not a plausible time: it stays only in the kept fields


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` normalised; counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    input_details = usage.get("input_tokens_details")
    output_details = usage.get("output_tokens_details")
    inputs = input_details if isinstance(input_details, dict) else {}
    outputs = output_details if isinstance(output_details, dict) else {}
    return Usage(
        prompt_tokens=_count(usage, "input_tokens"),
        completion_tokens=_count(usage, "output_tokens"),
        total_tokens=_count(usage, "total_tokens"),
        cached_tokens=_count(inputs, "cached_tokens"),
        cache_write_tokens=_count(inputs, "cache_write_tokens"),
        reasoning_tokens=_count(outputs, "reasoning_tokens"),
        raw=dict(usage),
    )


def _count(source: dict[str, Any], key: str) -> int | None:
    value = source.get(key)
    return value if isinstance(value, int) and is_int(value) else None


def render_usage(usage: Usage) -> dict[str, Any]:
    """The Responses usage object: the provider's own when kept, else built from the counts."""
    if usage.raw is not None:
        return usage.raw
    prompt, completion = usage.prompt_tokens or 0, usage.completion_tokens or 0
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": usage.cached_tokens or 0},
        "output_tokens": completion,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens or 0},
        "total_tokens": usage.total_tokens or prompt + completion,
    }


def render_response(message: Message, output: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``response`` object whose ``output`` is ``output``, the rendered ``message``."""
    kept = get_hint(message.extra, "response")
    response = dict(kept) if isinstance(kept, dict) else {"object": "response"}
    if message.id is not None:
        response["id"] = message.id
    if message.model is not None:
        response["model"] = message.model
    if message.usage is not None:
        response["usage"] = render_usage(message.usage)
    response["output"] = output
    return response
