"""Appam payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``):

* ``messages``: a JSON array of ``UnifiedMessage`` (a session's history, what Appam sends);
* ``message``: one ``UnifiedMessage`` object (a bare answer);
* ``exchange``: ``{"request": [UnifiedMessage...], "response": UnifiedMessage}`` with,
  optionally, the answer's ``usage`` (``UnifiedUsage``), ``stop_reason`` (``StopReason``)
  and ``model`` beside them; other envelope fields are kept verbatim.
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import require_list, require_mapping, require_str, split
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, FinishReason, Message, Usage

from ._blocks import parse_blocks
from ._shared import ROLES, at, item, make_extra, parse_timestamp

_MESSAGE_FIELDS = ("id", "timestamp", "reasoning", "reasoning_details")
# Appam's StopReason (snake_case) -> UMF finish reason.
STOP_REASONS: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}
USAGE_COUNTS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "reasoning_tokens",
)


def parse_payload(payload: JSON) -> tuple[Conversation, str]:
    """The conversation a payload holds, and its shape."""
    if isinstance(payload, list):
        return Conversation(messages=parse_messages(payload, "")), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        return _parse_exchange(body), "exchange"
    if "role" in body:
        return Conversation(messages=[parse_message(body, "")]), "message"
    raise FormatError(
        "not an Appam payload: expected an array of UnifiedMessage, one UnifiedMessage, "
        "or a request and a response",
        field="role",
    )


def parse_messages(raw: JSON, path: str) -> list[Message]:
    """The messages of a ``Vec<UnifiedMessage>`` at ``path``."""
    messages = require_list(raw, path or "payload")
    return [parse_message(message, item(path, index)) for index, message in enumerate(messages)]


def parse_message(raw: JSON, path: str) -> Message:
    """One ``UnifiedMessage``; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
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
        extra=make_extra(rest, timestamp=raw_timestamp),
    )


def _optional_str(fields: dict[str, Any], key: str, path: str) -> str | None:
    return require_str(fields[key], at(path, key)) if key in fields else None


def _details(fields: dict[str, Any], path: str) -> list[dict[str, Any]] | None:
    if "reasoning_details" not in fields:
        return None
    details_path = at(path, "reasoning_details")
    details = require_list(fields["reasoning_details"], details_path)
    return [require_mapping(detail, item(details_path, i)) for i, detail in enumerate(details)]


def _parse_exchange(body: dict[str, Any]) -> Conversation:
    if "response" not in body:
        raise FormatError("an exchange needs a response", field="response")
    conversation = Conversation(messages=parse_messages(body.get("request"), "request"))
    answer = parse_message(body["response"], "response")
    if answer.role != "assistant":
        raise FormatError("a response message has role assistant", field="response.role")
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
    conversation.messages.append(answer)
    conversation.metadata.provider_response_id = answer.id
    if rest:
        conversation.extra = make_extra({}, exchange=rest)
    return conversation


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
