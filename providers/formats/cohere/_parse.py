"""Reading whole payloads: a request body, a bare message list, a logged exchange and a
bare response (``V2ChatResponse``), in the family's shapes
(:mod:`providers.formats._chat_completions.shape`).

The request's fields UMF has no name for (``documents``, ``citation_options``,
``response_format``, ``safety_mode``, ``strict_tools``, ``thinking``...) stay verbatim in
the conversation's ``extra``. A response's message becomes an assistant message with the
response ``id``, the normalised ``finish_reason`` (raw in ``provider_finish_reason``) and
``usage`` (raw in ``usage.raw``); the response's other fields (``logprobs``...) are its
``$response`` hint. In an exchange the answer's model is the request's.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from providers.formats._chat_completions.blocks import ParseState, read_tool
from providers.formats._chat_completions.shape import (
    Readers,
    RequestReaders,
    has_field,
    read_list,
    read_request,
    read_shape,
)
from providers.formats._kit.fields import (
    require_list,
    require_mapping,
    require_str,
    split,
    umf_checked,
)
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Message, Tool, ToolChoice, Usage

from ._constants import FINISH_REASONS, NS, PARAMETERS
from ._parse_messages import parse_message

_TOOL_CHOICES = {"REQUIRED": "required", "NONE": "none"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Cohere payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    with umf_checked():
        return [ParseResult(read_shape(payload, _READERS, ParseState()))]


def _parse_tools(raw: JSON, path: str) -> tuple[list[Tool], dict[str, Any]]:
    tools = []
    for index, entry in enumerate(require_list(raw, path)):
        tool = require_mapping(entry, item(path, index))
        if tool.get("type", "function") != "function":
            raise FormatError("tool type must be function", field=at(item(path, index), "type"))
        tools.append(read_tool(tool, item(path, index), NS))
    return tools, {}


def _parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    if not isinstance(raw, str) or raw not in _TOOL_CHOICES:
        raise FormatError("tool_choice must be REQUIRED or NONE", field=path)
    return ToolChoice(type=_TOOL_CHOICES[raw])  # type: ignore[arg-type]  # the table's values


_MESSAGES = partial(read_list, read_one=parse_message)
_REQUEST = RequestReaders(NS, PARAMETERS, _MESSAGES, _parse_tools, _parse_tool_choice)


def parse_response(raw: JSON, base: str, state: ParseState) -> Message:
    """The assistant message of a response (``base`` is where the response is)."""
    response = require_mapping(raw, base or "payload")
    fields, rest = split(
        response, ("id", "finish_reason", "usage"), handled=("message",), path=base
    )
    message_path = at(base, "message")
    source = require_mapping(response.get("message"), message_path)
    if source.get("role") != "assistant":
        raise FormatError("a response message has role assistant", field=at(message_path, "role"))
    message = parse_message(source, message_path, state)
    if "id" in fields:
        message.id = require_str(fields["id"], at(base, "id"))
    if "finish_reason" in fields:
        reason = require_str(fields["finish_reason"], at(base, "finish_reason"))
        message.provider_finish_reason = reason
        message.finish_reason = FINISH_REASONS.get(reason)
    if "usage" in fields:
        message.usage = parse_usage(fields["usage"], at(base, "usage"))
    NS.add_hints(message.extra, response=rest or None)
    return message


_READERS = Readers(
    NS,
    _MESSAGES,
    partial(read_request, readers=_REQUEST),
    parse_response,
    has_field("message"),
    refusal="not a Cohere v2 chat payload: expected messages, a response message, "
    "or a request and a response",
    answer_model=True,
)


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` normalised (prompt includes cached tokens); ``tokens`` counts win over
    ``billed_units``; counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    tokens = _mapping(usage.get("tokens"))
    billed = _mapping(usage.get("billed_units"))
    source = tokens if {"input_tokens", "output_tokens"} & tokens.keys() else billed
    prompt, completion = _count(source, "input_tokens"), _count(source, "output_tokens")
    total = prompt + completion if prompt is not None and completion is not None else None
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total,
        cached_tokens=_count(usage, "cached_tokens"),
        raw=dict(usage),
    )


def _mapping(value: JSON) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _count(source: dict[str, Any], key: str) -> int | None:
    # The API documents the counts as numbers (the SDK types them float); whole ones count.
    value = source.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) >= 2**63:
        return None
    return int(value) if float(value).is_integer() else None
