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
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    refuse_reserved_names,
    require_list,
    require_mapping,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at
from providers.formats._message_lists.shapes import parse_result
from providers.formats.base import FormatError, ParseResult
from providers.formats.matey_ir._constants import FORMAT_ID, NS, REQUEST_KEYS, RESPONSE_KEYS
from providers.formats.matey_ir._parse_messages import parse_message, parse_messages
from providers.formats.matey_ir._parse_metadata import (
    merge_metadata,
    parse_finish_reason,
    parse_metadata,
    parse_usage,
    state_digest,
)
from providers.formats.matey_ir._parse_request import (
    parse_parameters,
    parse_stream_fields,
    parse_tool_choice,
    parse_tools,
)
from providers.formats.matey_ir._parse_stream import parse_stream
from providers.umf import JSON, Conversation, Message, Metadata


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
        return Conversation(messages=parse_messages(payload, "")), "messages"
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
    conversation = Conversation(messages=parse_messages(fields["messages"], prefix + "messages"))
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools = parse_tools(fields["tools"], prefix + "tools")
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
