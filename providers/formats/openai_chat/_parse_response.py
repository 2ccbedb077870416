"""``chat.completion`` responses: the first choice's message becomes an assistant message.

The message gets the response ``id`` and ``model``, the normalised ``finish_reason`` (the
raw one in ``provider_finish_reason``) and ``usage`` (the provider's object in
``usage.raw``). Everything else comes back from hints on that message: ``$response`` holds
the response's other fields (``object``, ``created``, ``system_fingerprint``,
``service_tier``...), ``$choice`` the choice's (``index``, ``logprobs``...),
``$other_choices`` the choices after the first, verbatim.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers.formats._kit.extra import with_hints
from providers.formats._kit.fields import require_list, require_mapping, require_str, split
from providers.formats._kit.paths import at, is_int, item
from providers.formats.base import FormatError
from providers.umf import JSON, FinishReason, Message, Usage

from ._constants import FORMAT_ID
from ._parse_messages import ParseState, parse_message

_FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}


def parse_response(raw: JSON, base: str, state: ParseState) -> Message:
    """The assistant message of a ``chat.completion`` (``base`` is where it is)."""
    response = require_mapping(raw, base or "payload")
    fields, rest = split(response, ("id", "model", "usage"), handled=("choices",), path=base)
    choices = require_list(response.get("choices"), at(base, "choices"))
    if not choices:
        raise FormatError("a response needs at least one choice", field=at(base, "choices"))
    choice_path = item(at(base, "choices"), 0)
    choice = require_mapping(choices[0], choice_path)
    message = _parse_choice_message(choice, choice_path, state)
    choice_fields, choice_rest = split(
        choice, ("finish_reason",), handled=("message",), path=choice_path
    )
    if "finish_reason" in choice_fields:
        raw_reason = require_str(choice_fields["finish_reason"], at(choice_path, "finish_reason"))
        message.provider_finish_reason = raw_reason
        message.finish_reason = _FINISH_REASONS.get(raw_reason)
    if "id" in fields:
        message.id = require_str(fields["id"], at(base, "id"))
    if "model" in fields:
        message.model = require_str(fields["model"], at(base, "model"))
    if "usage" in fields:
        message.usage = parse_usage(fields["usage"], at(base, "usage"))
    message.timestamp = _timestamp(rest.get("created"))
    hints = with_hints({}, response=rest, choice=choice_rest, other_choices=choices[1:] or None)
    message.extra.setdefault(FORMAT_ID, {}).update(hints)
    return message


def _parse_choice_message(choice: dict[str, Any], path: str, state: ParseState) -> Message:
    message_path = at(path, "message")
    source = require_mapping(choice.get("message"), message_path)
    if source.get("role") != "assistant":
        raise FormatError("a response message has role assistant", field=at(message_path, "role"))
    return parse_message(source, message_path, state)


def _timestamp(created: JSON) -> datetime | None:
    if not is_int(created):
        return None
    try:
        return datetime.fromtimestamp(created, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None  # not a plausible time: it stays only in the kept fields


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` normalised; counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    prompt = usage.get("prompt_tokens_details")
    completion = usage.get("completion_tokens_details")
    prompt_details = prompt if isinstance(prompt, dict) else {}
    completion_details = completion if isinstance(completion, dict) else {}
    return Usage(
        prompt_tokens=_count(usage, "prompt_tokens"),
        completion_tokens=_count(usage, "completion_tokens"),
        total_tokens=_count(usage, "total_tokens"),
        cached_tokens=_count(prompt_details, "cached_tokens"),
        cache_write_tokens=_count(prompt_details, "cache_write_tokens"),
        reasoning_tokens=_count(completion_details, "reasoning_tokens"),
        raw=dict(usage),
    )


def _count(source: dict[str, Any], key: str) -> int | None:
    value = source.get(key)
    return value if isinstance(value, int) and is_int(value) else None
