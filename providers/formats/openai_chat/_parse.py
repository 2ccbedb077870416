"""Reading a Chat Completions payload in any of the family's four shapes
(:mod:`providers.formats._chat_completions.shape`): a request body, a bare ``messages``
list, a logged exchange ``{"request": ..., "response": ...}`` or a bare ``chat.completion``,
its shape recorded as the conversation hint ``$shape``.

A response's first choice becomes an assistant message
(:func:`providers.formats._chat_completions.completion.read_completion`): the response
``id`` and ``model``, the normalised ``finish_reason`` (raw in ``provider_finish_reason``),
``usage`` (raw in ``usage.raw``), the time of ``created``; hints keep the rest:
``$response`` (``object``, ``created``, ``system_fingerprint``, ``service_tier``...),
``$choice`` (``index``, ``logprobs``...), ``$other_choices``.

Request-level fields: hints on the conversation say ``$max_tokens_key`` when the limit was
sent as the deprecated ``max_tokens`` (the default is ``max_completion_tokens``), ``$stop:
string`` when ``stop`` was one string, ``$int_parameters`` for float parameters written as
integers (``0``, not ``0.0``). Tools keep ``strict`` and the other function fields
verbatim, fields beside ``function`` under ``$outer``; custom tools are marked ``$type:
custom``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from providers.formats._chat_completions.completion import (
    Completion,
    read_completion,
    read_token_usage,
)
from providers.formats._chat_completions.parameters import integer, number, read_checked
from providers.formats._chat_completions.shape import (
    Readers,
    RequestReaders,
    has_field,
    read_allowed_mode,
    read_choice_mode,
    read_request,
    read_shape,
)
from providers.formats._kit.fields import (
    require_bool,
    require_list,
    require_mapping,
    require_str,
    umf_checked,
    unknown_fields,
)
from providers.formats._kit.paths import at, item
from providers.formats.base import Drift, FormatError, ParseResult
from providers.umf import JSON, FinishReason, Parameters, Tool, ToolChoice, Usage

from ._constants import FLOAT_PARAMETERS, FORMAT_ID, NAMESPACE, WIRE_FINISH_REASONS
from ._parse_messages import ParseState, parse_message, parse_messages

# --------------------------------------------------------------------------- request fields


_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": number,
    "top_p": number,
    "frequency_penalty": number,
    "presence_penalty": number,
    "seed": integer,
    "user": require_str,
    "parallel_tool_calls": require_bool,
    "stream": require_bool,
}


PARAMETER_KEYS = (*_CHECKS, "max_tokens", "max_completion_tokens", "stop")


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values, kept, ints = read_checked(fields, base, _CHECKS, FLOAT_PARAMETERS)
    hints: dict[str, Any] = {}
    if "max_tokens" in fields:
        values["max_tokens"] = integer(fields["max_tokens"], at(base, "max_tokens"))
        hints["max_tokens_key"] = "max_tokens"
        if "max_completion_tokens" in fields:
            kept["max_completion_tokens"] = fields["max_completion_tokens"]
    elif "max_completion_tokens" in fields:
        values["max_tokens"] = integer(
            fields["max_completion_tokens"], at(base, "max_completion_tokens")
        )
    if "stop" in fields:
        values["stop"], hints["stop"] = _parse_stop(fields["stop"], at(base, "stop"))
    hints["int_parameters"] = ints
    return Parameters(**values), hints, kept


def _parse_stop(value: JSON, path: str) -> tuple[list[str], str | None]:
    if isinstance(value, str):
        return [value], "string"
    for index, sequence in enumerate(require_list(value, path)):
        require_str(sequence, item(path, index))
    return list(value), None


def parse_tools(raw: JSON, path: str) -> list[Tool]:
    """The ``tools`` array (function and custom tools)."""
    return [parse_tool(tool, item(path, i)) for i, tool in enumerate(require_list(raw, path))]


def parse_tool(raw: JSON, path: str) -> Tool:
    """One tool definition; :class:`FormatError` for types Chat Completions does not have."""
    tool = require_mapping(raw, path)
    kind = tool.get("type")
    if kind not in ("function", "custom"):
        raise FormatError("tool type must be function or custom", field=at(path, "type"))
    inner_path = at(path, kind)
    inner = require_mapping(tool.get(kind), inner_path)
    name = require_str(inner.get("name"), at(inner_path, "name"))
    mapped = ("description", "parameters") if kind == "function" else ("description",)
    rest = unknown_fields(inner, ("name", *mapped), path=inner_path)
    values: dict[str, Any] = {}
    for key in mapped:
        if inner.get(key) is None and key in inner:
            rest[key] = None
        elif key in inner:
            check = require_str if key == "description" else require_mapping
            values[key] = check(inner[key], at(inner_path, key))
    outer = unknown_fields(tool, ("type", kind), path=path)
    hints = {"outer": outer or None, "type": "custom" if kind == "custom" else None}
    return Tool(name=name, **values, extra=NAMESPACE.extra(rest, **hints))


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``tool_choice``: a mode string, a named function or custom tool, or allowed_tools."""
    if isinstance(raw, str):
        return read_choice_mode(raw, path)
    choice = require_mapping(raw, path)
    kind = choice.get("type")
    if kind == "allowed_tools":
        allowed = require_mapping(choice.get("allowed_tools"), at(path, "allowed_tools"))
        return ToolChoice(
            type=read_allowed_mode(allowed.get("mode"), at(path, "allowed_tools.mode")),
            extra=NAMESPACE.extra(unknown_fields(choice, ("type",), path=path), type=kind),
        )
    if kind not in ("function", "custom"):
        raise FormatError(
            "tool_choice type must be function, custom or allowed_tools", field=at(path, "type")
        )
    inner = require_mapping(choice.get(kind), at(path, kind))
    name = require_str(inner.get("name"), at(path, f"{kind}.name"))
    rest = unknown_fields(inner, ("name",), path=at(path, kind))
    hints = {"inner": rest or None, "type": "custom" if kind == "custom" else None}
    return ToolChoice(
        type="tool",
        name=name,
        extra=NAMESPACE.extra(unknown_fields(choice, ("type", kind), path=path), **hints),
    )


_FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}


def render_usage(usage: Usage) -> dict[str, Any]:
    """OpenAI's usage object: the provider's own when kept, else built from the counts."""
    if usage.raw is not None:
        return usage.raw
    out: dict[str, Any] = {
        "prompt_tokens": usage.prompt_tokens or 0,
        "completion_tokens": usage.completion_tokens or 0,
        "total_tokens": usage.total_tokens
        or (usage.prompt_tokens or 0) + (usage.completion_tokens or 0),
    }
    if usage.cached_tokens is not None or usage.cache_write_tokens is not None:
        details = {
            "cached_tokens": usage.cached_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
        }
        out["prompt_tokens_details"] = {k: v for k, v in details.items() if v is not None}
    if usage.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return out


COMPLETION = Completion(
    NAMESPACE,
    _FINISH_REASONS,
    WIRE_FINISH_REASONS,
    partial(read_token_usage, prompt="prompt_tokens", completion="completion_tokens"),
    render_usage,
)


# --------------------------------------------------------------------------- payloads


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation; :class:`FormatError` (with the field) for anything that is
    not a Chat Completions request, message list, exchange or response."""
    state = ParseState(Drift(FORMAT_ID))
    with umf_checked():  # a value our own checks let through: still bad input
        conversation = read_shape(payload, _READERS, state)
    return [ParseResult(conversation, state.drift.warnings)]


def _tools(raw: JSON, path: str) -> tuple[list[Tool], dict[str, Any]]:
    return parse_tools(raw, path), {}


_REQUEST: RequestReaders[ParseState] = RequestReaders(
    NAMESPACE,
    (),
    parse_messages,
    _tools,
    parse_tool_choice,
    read_parameters=parse_parameters,
    parameter_keys=PARAMETER_KEYS,
)


_READERS: Readers[ParseState] = Readers(
    NAMESPACE,
    parse_messages,
    partial(read_request, readers=_REQUEST),
    partial(read_completion, api=COMPLETION, read_message=parse_message),
    has_field("choices"),
    refusal="not an OpenAI Chat Completions payload: expected messages, choices, "
    "or a request and a response",
    response_first=True,
)
