"""IR payload shapes <-> one UMF conversation.

Shapes (the conversation hint ``$shape``):

* ``request``: an ``IRChatRequest``;
* ``messages``: a bare array of ``IRMessage``;
* ``response``: an ``IRChatResponse`` (the conversation is its one answer);
* ``stream``: an array of ``IRStreamChunk`` (likewise);
* ``exchange``: ``{"request": IRChatRequest, "response": IRChatResponse | [IRStreamChunk]}``
  (this module's choice for a logged pair: an object holding both; other envelope fields
  are kept verbatim). The response metadata is merged into the request's: its provider
  response id, provenance (the fuller chain) and warnings the request lacks.

A request's fields other than messages and metadata: parameters map one to one onto UMF's
(``stopSequences`` is ``stop``); what UMF cannot restate exactly is kept in the
``$parameters`` hint (unknown keys, a float parameter given as an integer, an empty
``custom``); ``stream`` is a parameter, ``streamMode`` an IR field.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    refuse_reserved_names,
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, is_int, is_number, require
from providers.formats._message_lists.shapes import parse_result, read_list
from providers.formats.base import FormatError, ParseResult
from providers.formats.matey_ir._constants import (
    FLOAT_PARAMETERS,
    FORMAT_ID,
    INT_PARAMETERS,
    NS,
    PARAMETER_KEYS,
    REQUEST_KEYS,
    RESPONSE_KEYS,
    STREAM_MODES,
    TOOL_CHOICES,
)
from providers.formats.matey_ir._parse_messages import parse_message
from providers.formats.matey_ir._parse_metadata import (
    merge_metadata,
    parse_finish_reason,
    parse_metadata,
    parse_usage,
    state_digest,
)
from providers.formats.matey_ir._parse_stream import parse_stream
from providers.umf import JSON, Conversation, Message, Metadata, Parameters, Tool, ToolChoice


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an IR request, response, chunk array, message array or
    exchange; :class:`FormatError` (with the field) for anything else."""
    return parse_result(lambda: parse_payload(payload), FORMAT_ID)


def parse_payload(payload: JSON) -> tuple[Conversation, str]:
    """The conversation a payload holds, and its shape."""
    if isinstance(payload, list):
        if payload and all(isinstance(entry, dict) and "role" not in entry for entry in payload):
            answer, metadata = parse_stream(payload, "")
            return _answered(Conversation(), answer, metadata, payload), "stream"
        return Conversation(messages=read_list(payload, "", parse_message)), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        return _parse_exchange(body), "exchange"
    if "message" in body and "finishReason" in body:
        answer, metadata = parse_response(body, "")
        return _answered(Conversation(), answer, metadata, None), "response"
    if "messages" in body:
        conversation = parse_request(body, "")
        conversation.extra[FORMAT_ID]["$digest"] = state_digest(conversation, None)
        return conversation, "request"
    raise FormatError(
        "not an ai.matey IR payload: expected a request (messages, metadata), a response "
        "(message, finishReason, metadata), stream chunks, or a request and a response",
        field="messages",
    )


def parse_request(raw: JSON, path: str) -> Conversation:
    """An ``IRChatRequest`` (``path`` is where it is)."""
    body = require_mapping(raw, path or "payload")
    fields, rest = split(body, REQUEST_KEYS, path=path)
    prefix = f"{path}." if path else ""
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=prefix + "messages")
    if "metadata" not in fields:
        raise FormatError("a request needs metadata", field=prefix + "metadata")
    conversation = Conversation(
        messages=read_list(fields["messages"], prefix + "messages", parse_message)
    )
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools = read_list(fields["tools"], prefix + "tools", _parse_tool)
    if "toolChoice" in fields:
        conversation.tool_choice = parse_tool_choice(fields["toolChoice"], prefix + "toolChoice")
    kept = None
    if "parameters" in fields:
        conversation.parameters, kept = parse_parameters(
            fields["parameters"], prefix + "parameters"
        )
    rest.update(parse_stream_fields(fields, conversation))
    conversation.metadata = parse_metadata(fields["metadata"], prefix + "metadata")
    conversation.extra = NS.extra(rest, parameters=kept, metadata=fields["metadata"])
    return conversation


def _parse_exchange(body: dict[str, Any]) -> Conversation:
    if "response" not in body:
        raise FormatError("an exchange needs a response", field="response")
    conversation = parse_request(body.get("request"), "request")
    response = body["response"]
    if isinstance(response, list):
        answer, metadata = parse_stream(require_list(response, "response"), "response")
        chunks = response
    else:
        answer, metadata = parse_response(response, "response")
        chunks = None
    envelope = unknown_fields(body, ("request", "response"), path="")
    if envelope:
        conversation.extra.setdefault(FORMAT_ID, {})["$exchange"] = envelope
    return _answered(conversation, answer, metadata, chunks)


def _answered(
    conversation: Conversation, answer: Message, metadata: Any, chunks: JSON
) -> Conversation:
    """``conversation`` with its answer, the answer's metadata merged in, and the digest
    that tells later whether all of it is unchanged."""
    if metadata is not None:
        conversation.metadata = (
            metadata
            if conversation.extra.get(FORMAT_ID, {}).get("$metadata") is None
            else merge_metadata(conversation.metadata, metadata)
        )
    if chunks is not None:
        answer.extra.setdefault(FORMAT_ID, {})["$chunks"] = chunks
    conversation.messages.append(answer)
    conversation.extra.setdefault(FORMAT_ID, {})["$digest"] = state_digest(conversation, answer)
    return conversation


def parse_response(raw: JSON, path: str) -> tuple[Message, Metadata]:
    """The answer of a response, and the response metadata as UMF metadata."""
    body = require_mapping(raw, path or "payload")
    answer = parse_message(body.get("message"), at(path, "message"))
    if answer.role != "assistant":
        raise FormatError("a response message is the assistant's", field=at(path, "message.role"))
    answer.finish_reason = parse_finish_reason(body.get("finishReason"), at(path, "finishReason"))
    if body.get("usage") is not None:
        answer.usage = parse_usage(body["usage"], at(path, "usage"))
    metadata = parse_metadata(body.get("metadata"), at(path, "metadata"))
    answer.id = metadata.provider_response_id
    answer.timestamp = metadata.timestamp
    if body.get("raw") is not None:
        require_mapping(body["raw"], at(path, "raw"))
    rest = {k: v for k, v in body.items() if k not in RESPONSE_KEYS or (k == "usage" and v is None)}
    refuse_reserved_names(rest, path)
    hints = {"$response_metadata": body["metadata"], "$response": rest or None}
    own = answer.extra.setdefault(FORMAT_ID, {})
    own.update({key: value for key, value in hints.items() if value is not None})
    return answer, metadata


def parse_parameters(raw: JSON, path: str) -> tuple[Parameters, dict[str, Any]]:
    """UMF parameters and the ``$parameters`` hint (values kept verbatim)."""
    source = require_mapping(raw, path)
    values, kept = split(source, PARAMETER_KEYS, path=path)
    fields: dict[str, Any] = {}
    for key, value in values.items():
        name, key_path = PARAMETER_KEYS[key], at(path, key)
        if key in FLOAT_PARAMETERS:
            fields[name] = float(require(value, is_number, "a number", key_path))
            if is_int(value):
                kept[key] = value  # 1, not 1.0: written back as it was
        elif key in INT_PARAMETERS:
            fields[name] = require(value, is_int, "an integer", key_path)
        elif key == "stopSequences":
            fields[name] = read_list(value, key_path, require_str)
        elif key == "custom":
            fields[name] = dict(require_mapping(value, key_path))
            if not value:
                kept[key] = {}
        else:
            fields[name] = require_str(value, key_path)
    return Parameters(**fields), kept


def _parse_tool(raw: JSON, path: str) -> Tool:
    """An ``IRTool`` definition (name, description and parameters are required)."""
    source = require_mapping(raw, path)
    parameters = require_mapping(source.get("parameters"), at(path, "parameters"))
    rest = unknown_fields(source, ("name", "description", "parameters"), path=path)
    return Tool(
        name=require_str(source.get("name"), at(path, "name")),
        description=require_str(source.get("description"), at(path, "description")),
        parameters=dict(parameters),
        extra=NS.extra(rest),
    )


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``'auto' | 'required' | 'none' | {name}``."""
    if isinstance(raw, str) and raw in TOOL_CHOICES:
        return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked against TOOL_CHOICES
    if isinstance(raw, dict):
        name = require_str(raw.get("name"), at(path, "name"))
        rest = unknown_fields(raw, ("name",), path=path)
        return ToolChoice(type="tool", name=name, extra=NS.extra(rest))
    raise FormatError("toolChoice is auto, required, none or {name}", field=path)


def parse_stream_fields(fields: dict[str, Any], conversation: Conversation) -> dict[str, Any]:
    """``stream`` onto the parameters; ``streamMode`` (checked) stays an IR field."""
    if "stream" in fields:
        if not isinstance(fields["stream"], bool):
            raise FormatError("expected a boolean", field="stream")
        conversation.parameters.stream = fields["stream"]
    if "streamMode" in fields:
        if fields["streamMode"] not in STREAM_MODES:
            raise FormatError("streamMode is delta or accumulated", field="streamMode")
        return {"streamMode": fields["streamMode"]}
    return {}
