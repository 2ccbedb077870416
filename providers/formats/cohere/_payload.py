"""Reading whole payloads: a request body, a bare message list, a logged exchange and a
bare response (``V2ChatResponse``).

The request's fields UMF has no name for (``documents``, ``citation_options``,
``response_format``, ``safety_mode``, ``strict_tools``, ``thinking``...) stay verbatim in
the conversation's ``extra``. A response's message becomes an assistant message with the
response ``id``, the normalised ``finish_reason`` (raw in ``provider_finish_reason``) and
``usage`` (raw in ``usage.raw``); the response's other fields (``logprobs``...) are its
``$response`` hint. In an exchange the answer's model is the request's.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chatlike import ParseState, at, item, read_parameters, read_tool, split
from providers.formats._common import (
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Message, Tool, ToolChoice, Usage

from ._messages import parse_message, parse_messages
from ._shared import FINISH_REASONS, NS, PARAMETERS

SHAPES = ("request", "messages", "exchange", "response")
_TOOL_CHOICES = {"REQUIRED": "required", "NONE": "none"}


def parse_payload(payload: JSON) -> Conversation:
    """One conversation from any accepted shape, with the shape as the ``$shape`` hint."""
    state = ParseState()
    if isinstance(payload, list):
        conversation, shape = Conversation(messages=parse_messages(payload, "", state)), "messages"
    else:
        body = require_mapping(payload, "payload")
        if "request" in body or "response" in body:
            conversation, shape = _read_exchange(body, state), "exchange"
        elif "messages" in body:
            conversation, shape = read_request(body, "", state), "request"
        elif "message" in body:
            conversation, shape = (
                Conversation(messages=[parse_response(body, "", state)]),
                "response",
            )
        else:
            raise FormatError(
                "not a Cohere v2 chat payload: expected messages, a response message, "
                "or a request and a response",
                field="messages",
            )
    NS.add_hints(conversation.extra, shape=shape)
    return conversation


def read_request(raw: JSON, base: str, state: ParseState) -> Conversation:
    """A ``POST /v2/chat`` body."""
    request = require_mapping(raw, base or "payload")
    keys = ("messages", "tools", "tool_choice", *(spec.wire for spec in PARAMETERS))
    fields, rest = split(request, keys, path=base)
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=at(base, "messages"))
    conversation = Conversation(
        messages=parse_messages(fields["messages"], at(base, "messages"), state)
    )
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        tools_path = at(base, "tools")
        tools = require_list(fields["tools"], tools_path)
        conversation.tools = [
            _parse_tool(tool, item(tools_path, i)) for i, tool in enumerate(tools)
        ]
    if "tool_choice" in fields:
        conversation.tool_choice = _parse_tool_choice(
            fields["tool_choice"], at(base, "tool_choice")
        )
    conversation.parameters, hints, kept = read_parameters(fields, PARAMETERS, base)
    conversation.extra = NS.extra({**rest, **kept}, **hints)
    return conversation


def _parse_tool(raw: JSON, path: str) -> Tool:
    tool = require_mapping(raw, path)
    if tool.get("type", "function") != "function":
        raise FormatError("tool type must be function", field=at(path, "type"))
    return read_tool(tool, path, NS)


def _parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    if not isinstance(raw, str) or raw not in _TOOL_CHOICES:
        raise FormatError("tool_choice must be REQUIRED or NONE", field=path)
    return ToolChoice(type=_TOOL_CHOICES[raw])  # type: ignore[arg-type]  # the table's values


def _read_exchange(body: dict[str, Any], state: ParseState) -> Conversation:
    conversation = read_request(body.get("request"), "request", state)
    message = parse_response(body.get("response"), "response", state)
    message.model = conversation.parameters.model
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = unknown_fields(body, ("request", "response"), path="")
    NS.add_hints(conversation.extra, exchange=envelope or None)
    return conversation


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
