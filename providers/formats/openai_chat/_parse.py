"""Reading a Chat Completions payload: a request body, a bare ``messages`` list, a logged
exchange ``{"request": ..., "response": ...}`` or a bare ``chat.completion``, its shape
recorded as the conversation hint ``$shape``."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from providers.formats._kit.fields import require_mapping, split, unknown_fields
from providers.formats._kit.paths import at
from providers.formats.base import Drift, FormatError, ParseResult
from providers.umf import JSON, Conversation

from ._constants import FORMAT_ID, NAMESPACE
from ._parse_messages import ParseState, parse_messages
from ._parse_request import PARAMETER_KEYS, parse_parameters, parse_tool_choice, parse_tools
from ._parse_response import parse_response


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation; :class:`FormatError` (with the field) for anything that is
    not a Chat Completions request, message list, exchange or response."""
    state = ParseState(Drift(FORMAT_ID))
    try:
        conversation, shape = _read(payload, state)
    except ValidationError as error:  # a value our own checks let through: still bad input
        location = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise FormatError(error.errors()[0]["msg"], field=location or None) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation, state.drift.warnings)]


def _read(payload: JSON, state: ParseState) -> tuple[Conversation, str]:
    if isinstance(payload, list):
        return Conversation(messages=parse_messages(payload, "", state)), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        return _read_exchange(body, state), "exchange"
    if "choices" in body:
        return Conversation(messages=[parse_response(body, "", state)]), "response"
    if "messages" in body:
        return _read_request(body, "", state), "request"
    raise FormatError(
        "not an OpenAI Chat Completions payload: expected messages, choices, "
        "or a request and a response",
        field="messages",
    )


def _read_request(body: JSON, base: str, state: ParseState) -> Conversation:
    request = require_mapping(body, base or "payload")
    fields, rest = split(request, ("messages", "tools", "tool_choice", *PARAMETER_KEYS), path=base)
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=at(base, "messages"))
    conversation = Conversation(
        messages=parse_messages(fields["messages"], at(base, "messages"), state)
    )
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools = parse_tools(fields["tools"], at(base, "tools"))
    if "tool_choice" in fields:
        conversation.tool_choice = parse_tool_choice(fields["tool_choice"], at(base, "tool_choice"))
    conversation.parameters, hints, kept = parse_parameters(fields, base)
    conversation.extra = NAMESPACE.extra({**rest, **kept}, **hints)
    return conversation


def _read_exchange(body: dict[str, Any], state: ParseState) -> Conversation:
    conversation = _read_request(body.get("request"), "request", state)
    message = parse_response(body.get("response"), "response", state)
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = unknown_fields(body, ("request", "response"), path="")
    if envelope:
        conversation.extra.setdefault(FORMAT_ID, {})["$exchange"] = envelope
    return conversation
