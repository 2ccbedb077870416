"""The ``chat.completion`` response of the OpenAI-compatible APIs (``openai-chat``,
``mistral``): the first choice's message becomes an assistant message.

The message gets the response ``id`` and ``model``, the normalised ``finish_reason`` (the
raw one in ``provider_finish_reason``), ``usage`` (the provider's object in ``usage.raw``)
and, from ``created``, its timestamp. Everything else comes back from hints on that
message: ``$response`` holds the response's other fields (``object``, ``created``...),
``$choice`` the choice's (``index``, ``logprobs``...), ``$other_choices`` the choices after
the first, verbatim, and ``$role: absent`` a message sent without its role.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_list, require_mapping, require_str, split
from providers.formats._kit.paths import at, is_int, is_number, item
from providers.formats._kit.wire import wire_finish_reason
from providers.formats.base import FormatError
from providers.umf import JSON, FinishReason, Message, Usage

State = TypeVar("State")  # what reading one payload's messages remembers (the format's)


@dataclass(frozen=True)
class Completion:
    """One API's words for its ``chat.completion``: its finish reasons both ways, how it
    reads and writes usage, and whether a response message may leave out its role."""

    ns: Namespace
    finish_reasons: Mapping[str, FinishReason]
    wire_finish_reasons: Mapping[str, str]
    read_usage: Callable[[JSON, str], Usage]
    write_usage: Callable[[Usage], dict[str, Any]]
    role_optional: bool = False


def read_completion(
    raw: JSON,
    base: str,
    state: State,
    api: Completion,
    read_message: Callable[[JSON, str, State], Message],
) -> Message:
    """The assistant message of a ``chat.completion`` (``base`` is where it is)."""
    response = require_mapping(raw, base or "payload")
    fields, rest = split(response, ("id", "model", "usage"), handled=("choices",), path=base)
    choices = require_list(response.get("choices"), at(base, "choices"))
    if not choices:
        raise FormatError("a response needs at least one choice", field=at(base, "choices"))
    choice_path = item(at(base, "choices"), 0)
    choice = require_mapping(choices[0], choice_path)
    message_path = at(choice_path, "message")
    source = require_mapping(choice.get("message"), message_path)
    role = source.get("role", "assistant") if api.role_optional else source.get("role")
    if role != "assistant":
        raise FormatError("a response message has role assistant", field=at(message_path, "role"))
    message = read_message({"role": "assistant", **source}, message_path, state)
    choice_fields, choice_rest = split(
        choice, ("finish_reason",), handled=("message",), path=choice_path
    )
    if "finish_reason" in choice_fields:
        reason = require_str(choice_fields["finish_reason"], at(choice_path, "finish_reason"))
        message.provider_finish_reason = reason
        message.finish_reason = api.finish_reasons.get(reason)
    _read_response_fields(message, fields, base, api)
    message.timestamp = timestamp(rest.get("created"))
    api.ns.add_hints(
        message.extra,
        response=rest,
        choice=choice_rest,
        other_choices=choices[1:] or None,
        role="absent" if "role" not in source else None,
    )
    return message


def _read_response_fields(
    message: Message, fields: dict[str, Any], base: str, api: Completion
) -> None:
    if "id" in fields:
        message.id = require_str(fields["id"], at(base, "id"))
    if "model" in fields:
        message.model = require_str(fields["model"], at(base, "model"))
    if "usage" in fields:
        message.usage = api.read_usage(fields["usage"], at(base, "usage"))


def timestamp(created: JSON, *, whole: bool = True) -> datetime | None:
    """The time of a response's ``created`` (Unix seconds: ``whole`` ones, else any
    number), or None when it is not one (it stays in the kept fields)."""
    if not (is_int(created) if whole else is_number(created)):
        return None
    try:
        return datetime.fromtimestamp(created, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None  # not a plausible time: it stays only in the kept fields


def write_completion(message: Message, wire: dict[str, Any], api: Completion) -> dict[str, Any]:
    """A ``chat.completion`` whose first choice is ``wire``, the rendered ``message``."""
    ns = api.ns
    response = dict(ns.hint(message.extra, "response", {"object": "chat.completion"}))
    if message.id is not None:
        response["id"] = message.id
    if message.model is not None:
        response["model"] = message.model
    if message.usage is not None:
        response["usage"] = api.write_usage(message.usage)
    if ns.hint(message.extra, "role") == "absent":
        wire = {key: value for key, value in wire.items() if key != "role"}
    choice = dict(ns.hint(message.extra, "choice", {"index": 0}))
    choice["message"] = wire
    finish = wire_finish_reason(message, api.wire_finish_reasons)
    if finish is not None:
        choice["finish_reason"] = finish
    response["choices"] = [choice, *ns.hint(message.extra, "other_choices", [])]
    return response


def read_token_usage(raw: JSON, path: str, *, prompt: str, completion: str) -> Usage:
    """An OpenAI ``usage`` object normalised: ``prompt`` and ``completion`` name the two
    counts (``prompt_tokens`` in Chat Completions, ``input_tokens`` in Responses), their
    ``<name>_details`` the cached, cache-write and reasoning tokens; counts of the wrong
    type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    prompt_details = usage.get(f"{prompt}_details")
    completion_details = usage.get(f"{completion}_details")
    inputs = prompt_details if isinstance(prompt_details, dict) else {}
    outputs = completion_details if isinstance(completion_details, dict) else {}
    return Usage(
        prompt_tokens=_count(usage, prompt),
        completion_tokens=_count(usage, completion),
        total_tokens=_count(usage, "total_tokens"),
        cached_tokens=_count(inputs, "cached_tokens"),
        cache_write_tokens=_count(inputs, "cache_write_tokens"),
        reasoning_tokens=_count(outputs, "reasoning_tokens"),
        raw=dict(usage),
    )


def _count(source: dict[str, Any], key: str) -> int | None:
    value = source.get(key)
    return value if is_int(value) else None
