"""Reading whole payloads: a request body, a bare message list, a logged exchange and a
bare ``chat.completion`` response.

The request's fields UMF has no name for (``safe_prompt``, ``prompt_mode``,
``response_format``, ``n``, ``reasoning_effort``...) stay verbatim in the conversation's
``extra``; tools of types other than ``function`` in its ``unmapped_tools`` field, with
their positions. A response's first choice becomes an assistant message with the
response ``id`` and ``model``, the normalised ``finish_reason`` (raw in
``provider_finish_reason``) and ``usage`` (raw in ``usage.raw``); hints keep the rest:
``$response`` (``object``, ``created``...), ``$choice`` (``index``...), ``$other_choices``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers.formats._chatlike import (
    ParseState,
    at,
    is_int,
    item,
    read_parameters,
    read_tool,
    split,
)
from providers.formats._common import (
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Message, Tool, ToolChoice, Usage

from ._messages import parse_message, parse_messages
from ._shared import FINISH_REASONS, NS, PARAMETERS, UNMAPPED_TOOLS

SHAPES = ("request", "messages", "exchange", "response")
_MODES = {"auto": "auto", "none": "none", "any": "required", "required": "required"}


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
        elif "choices" in body:
            message = parse_response(body, "", state)
            conversation, shape = Conversation(messages=[message]), "response"
        else:
            raise FormatError(
                "not a Mistral chat payload: expected messages, choices, "
                "or a request and a response",
                field="messages",
            )
    NS.add_hints(conversation.extra, shape=shape)
    return conversation


def read_request(raw: JSON, base: str, state: ParseState) -> Conversation:
    """A ``POST /v1/chat/completions`` body."""
    request = require_mapping(raw, base or "payload")
    if UNMAPPED_TOOLS in request:
        raise FormatError(f"{UNMAPPED_TOOLS!r} is a reserved name", field=at(base, UNMAPPED_TOOLS))
    keys = ("messages", "tools", "tool_choice", *(spec.wire for spec in PARAMETERS))
    fields, rest = split(request, keys, path=base)
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=at(base, "messages"))
    messages = parse_messages(fields["messages"], at(base, "messages"), state)
    conversation = Conversation(messages=messages)
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools, unmapped = _parse_tools(fields["tools"], at(base, "tools"))
        rest.update({UNMAPPED_TOOLS: unmapped} if unmapped else {})
    if "tool_choice" in fields:
        conversation.tool_choice = _parse_tool_choice(
            fields["tool_choice"], at(base, "tool_choice")
        )
    conversation.parameters, hints, kept = read_parameters(fields, PARAMETERS, base)
    conversation.extra = NS.extra({**rest, **kept}, **hints)
    return conversation


def _parse_tools(raw: JSON, path: str) -> tuple[list[Tool], list[dict[str, Any]]]:
    tools, unmapped = [], []
    for index, entry in enumerate(require_list(raw, path)):
        tool = require_mapping(entry, item(path, index))
        if tool.get("type", "function") == "function":
            tools.append(read_tool(tool, item(path, index), NS))
        else:
            require_str(tool.get("type"), at(item(path, index), "type"))
            unmapped.append({"at": index, "tool": tool})
    return tools, unmapped


def _parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    if isinstance(raw, str):
        if raw not in _MODES:
            raise FormatError("tool_choice must be auto, none, any or required", field=path)
        value = "required" if raw == "required" else None
        return ToolChoice(type=_MODES[raw], extra=NS.extra({}, value=value))  # type: ignore[arg-type]
    choice = require_mapping(raw, path)
    if choice.get("type", "function") != "function":
        raise FormatError("tool_choice type must be function", field=at(path, "type"))
    function = require_mapping(choice.get("function"), at(path, "function"))
    name = require_str(function.get("name"), at(path, "function.name"))
    _, inner = split(function, (), handled=("name",), path=at(path, "function"))
    _, outer = split(choice, (), handled=("type", "function"), path=path)
    type_hint = "absent" if "type" not in choice else None
    return ToolChoice(
        type="tool", name=name, extra=NS.extra(outer, inner=inner or None, type=type_hint)
    )


def _read_exchange(body: dict[str, Any], state: ParseState) -> Conversation:
    conversation = read_request(body.get("request"), "request", state)
    message = parse_response(body.get("response"), "response", state)
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = unknown_fields(body, ("request", "response"), path="")
    NS.add_hints(conversation.extra, exchange=envelope or None)
    return conversation


def parse_response(raw: JSON, base: str, state: ParseState) -> Message:
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
    if source.get("role", "assistant") != "assistant":
        raise FormatError("a response message has role assistant", field=at(message_path, "role"))
    message = parse_message({"role": "assistant", **source}, message_path, state)
    choice_fields, choice_rest = split(
        choice, ("finish_reason",), handled=("message",), path=choice_path
    )
    if "finish_reason" in choice_fields:
        reason = require_str(choice_fields["finish_reason"], at(choice_path, "finish_reason"))
        message.provider_finish_reason, message.finish_reason = reason, FINISH_REASONS.get(reason)
    _read_response_fields(message, fields, base)
    message.timestamp = _timestamp(rest.get("created"))
    role_hint = "absent" if "role" not in source else None
    NS.add_hints(
        message.extra,
        response=rest,
        choice=choice_rest,
        other_choices=choices[1:] or None,
        role=role_hint,
    )
    return message


def _read_response_fields(message: Message, fields: dict[str, Any], base: str) -> None:
    if "id" in fields:
        message.id = require_str(fields["id"], at(base, "id"))
    if "model" in fields:
        message.model = require_str(fields["model"], at(base, "model"))
    if "usage" in fields:
        message.usage = parse_usage(fields["usage"], at(base, "usage"))


def _timestamp(created: JSON) -> datetime | None:
    if not is_int(created):
        return None
    try:
        return datetime.fromtimestamp(created, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None  # not a plausible time: it stays only in the kept fields


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` as counted (Mistral gives no breakdown beyond cached prompt tokens, when
    it gives those); counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    details = usage.get("prompt_tokens_details")
    cached = _count(details, "cached_tokens") if isinstance(details, dict) else None
    return Usage(
        prompt_tokens=_count(usage, "prompt_tokens"),
        completion_tokens=_count(usage, "completion_tokens"),
        total_tokens=_count(usage, "total_tokens"),
        cached_tokens=cached if cached is not None else _count(usage, "num_cached_tokens"),
        raw=dict(usage),
    )


def _count(source: dict[str, Any], key: str) -> int | None:
    value = source.get(key)
    return value if isinstance(value, int) and is_int(value) and abs(value) < 2**63 else None
