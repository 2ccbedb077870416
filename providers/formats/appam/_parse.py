"""Appam payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``):

* ``messages``: a JSON array of ``UnifiedMessage`` (a session's history, what Appam sends);
* ``message``: one ``UnifiedMessage`` object (a bare answer);
* ``exchange``: ``{"request": [UnifiedMessage...], "response": UnifiedMessage}`` with,
  optionally, the answer's ``usage`` (``UnifiedUsage``), ``stop_reason`` (``StopReason``)
  and ``model`` beside them; other envelope fields are kept verbatim.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from providers.formats._kit.fields import require_list, require_mapping, require_str, split
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.shapes import (
    parse_result,
    read_payload,
    read_role,
)
from providers.formats.appam._constants import (
    DIALECT,
    FORMAT_ID,
    NS,
    ROLES,
    STOP_REASONS,
    USAGE_COUNTS,
)
from providers.formats.appam._parse_blocks import parse_blocks
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Conversation, Message, Usage

_MESSAGE_FIELDS = ("id", "timestamp", "reasoning", "reasoning_details")


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an array of UnifiedMessage, one UnifiedMessage or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    return parse_result(
        lambda: read_payload(payload, parse_message, DIALECT, _answer_fields), FORMAT_ID
    )


def parse_message(raw: JSON, path: str) -> Message:
    """One ``UnifiedMessage``; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    role = read_role(source, path, ROLES)
    if "content" not in source:
        raise FormatError("a message needs content", field=at(path, "content"))
    fields, rest = split(source, _MESSAGE_FIELDS, handled=("role", "content"), path=path)
    raw_timestamp = fields.get("timestamp")
    timestamp_path = at(path, "timestamp")
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=parse_blocks(source["content"], at(path, "content")),
        id=require_str(fields["id"], at(path, "id")) if "id" in fields else None,
        timestamp=None if raw_timestamp is None else parse_timestamp(raw_timestamp, timestamp_path),
        reasoning=_optional_str(fields, "reasoning", path),
        reasoning_details=_details(fields, path),
        extra=NS.extra(rest, timestamp=raw_timestamp),
    )


def parse_timestamp(value: JSON, path: str) -> datetime:
    """An RFC 3339 timestamp with an offset (what chrono's ``DateTime<Utc>`` writes)."""
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed
    raise FormatError("expected an RFC 3339 timestamp with a time zone", field=path)


def _optional_str(fields: dict[str, Any], key: str, path: str) -> str | None:
    return require_str(fields[key], at(path, key)) if key in fields else None


def _details(fields: dict[str, Any], path: str) -> list[dict[str, Any]] | None:
    if "reasoning_details" not in fields:
        return None
    details_path = at(path, "reasoning_details")
    details = require_list(fields["reasoning_details"], details_path)
    return [require_mapping(detail, item(details_path, i)) for i, detail in enumerate(details)]


def _answer_fields(body: dict[str, Any], conversation: Conversation) -> dict[str, Any]:
    """The answer's ``usage``, ``stop_reason`` and ``model`` beside the response, read
    onto it; the envelope's other fields."""
    answer = conversation.messages[-1]
    fields, rest = split(
        body, ("usage", "stop_reason", "model"), handled=("request", "response"), path=""
    )
    if "usage" in fields:
        answer.usage = _parse_usage(fields["usage"], "usage")
    if "stop_reason" in fields:
        reason = require_str(fields["stop_reason"], "stop_reason")
        answer.provider_finish_reason = reason
        answer.finish_reason = STOP_REASONS.get(reason)
    if "model" in fields:
        answer.model = require_str(fields["model"], "model")
    conversation.metadata.provider_response_id = answer.id
    return rest


def _parse_usage(raw: JSON, path: str) -> Usage:
    """``UnifiedUsage``: input/output counts (as the provider reported them) plus the cache
    and reasoning counts; the object itself is kept as ``raw``."""
    usage = require_mapping(raw, path)
    counts: dict[str, int | None] = {}
    for key in USAGE_COUNTS:
        value = usage.get(key)
        valid = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if key in usage and value is not None and not valid:
            raise FormatError("expected a non-negative integer", field=at(path, key))
        counts[key] = value if valid else None
    for key in ("input_tokens", "output_tokens"):
        if counts[key] is None:
            raise FormatError(f"usage needs {key}", field=at(path, key))
    prompt, completion = counts["input_tokens"], counts["output_tokens"]
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=(prompt or 0) + (completion or 0),
        cached_tokens=counts["cache_read_input_tokens"],
        cache_write_tokens=counts["cache_creation_input_tokens"],
        reasoning_tokens=counts["reasoning_tokens"],
        raw=dict(usage),
    )
