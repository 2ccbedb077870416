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

from providers.formats._common import require_list, require_mapping, split, unknown_fields
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Message

from ._messages import parse_messages
from ._metadata import (
    fallback_identity,
    merge_metadata,
    parse_metadata,
    render_metadata,
    state_digest,
)
from ._render_messages import render_message
from ._request import (
    parse_parameters,
    parse_stream_fields,
    parse_tool_choice,
    parse_tools,
    render_parameters,
    render_tool_choice,
    render_tools,
)
from ._response import parse_response, render_response
from ._shared import FORMAT_ID, RenderContext, get_hint, item, make_extra, put_fields, thread
from ._stream import parse_stream, render_stream

REQUEST_KEYS = ("messages", "tools", "toolChoice", "parameters", "metadata", "stream", "streamMode")
SHAPES = ("request", "messages", "response", "stream", "exchange")
ANSWER_SHAPES = ("response", "stream", "exchange")


# --------------------------------------------------------------------------- reading


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
    conversation.extra = make_extra(rest, parameters=kept, metadata=fields["metadata"])
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


# --------------------------------------------------------------------------- writing


def render_payload(conversation: Conversation, ctx: RenderContext, shape: str | None) -> JSON:
    """The payload for ``conversation`` in ``shape`` (a request when it is not an IR one)."""
    messages = thread(conversation, ctx)
    answer = messages[-1] if messages and messages[-1][1].role == "assistant" else None
    if shape in ANSWER_SHAPES and answer is None:
        shape = "request"
    unchanged = get_hint(conversation.extra, "digest") == state_digest(
        conversation, answer[1] if answer and shape in ANSWER_SHAPES else None
    )
    if shape == "messages":
        _report_unplaced(conversation, [], ctx)
        return [render_message(message, index, ctx) for index, message in messages]
    if shape in ("response", "stream"):
        assert answer is not None
        _report_unplaced(conversation, messages[:-1], ctx)
        return _render_answer(conversation, answer, shape, unchanged, ctx)
    if shape == "exchange":
        assert answer is not None
        kind = "stream" if get_hint(answer[1].extra, "chunks") is not None else "response"
        return {
            **get_hint(conversation.extra, "exchange", {}),
            "request": _render_request(conversation, messages[:-1], unchanged, ctx),
            "response": _render_answer(conversation, answer, kind, unchanged, ctx),
        }
    return _render_request(conversation, messages, unchanged, ctx)


def _render_request(
    conversation: Conversation,
    messages: list[tuple[int, Message]],
    unchanged: bool,
    ctx: RenderContext,
) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": [render_message(m, index, ctx) for index, m in messages]}
    if conversation.tools:
        body["tools"] = render_tools(conversation, ctx)
    if conversation.tool_choice is not None:
        body["toolChoice"] = render_tool_choice(conversation.tool_choice, ctx)
    parameters = render_parameters(conversation, ctx)
    if parameters is not None:
        body["parameters"] = parameters
    kept = get_hint(conversation.extra, "metadata")
    if unchanged and kept is not None:
        body["metadata"] = kept
    else:
        identity = fallback_identity(conversation)
        body["metadata"] = render_metadata(conversation.metadata, ctx, identity, response=False)
    if conversation.parameters.stream is not None:
        body["stream"] = conversation.parameters.stream
    return put_fields(body, conversation.extra)


def _render_answer(
    conversation: Conversation,
    answer: tuple[int, Message],
    kind: str,
    unchanged: bool,
    ctx: RenderContext,
) -> Any:
    index, message = answer
    if unchanged and kind == "stream" and get_hint(message.extra, "chunks") is not None:
        return get_hint(message.extra, "chunks")
    kept = get_hint(message.extra, "response_metadata")
    if unchanged and kept is not None:
        metadata = kept
    else:
        source = conversation.metadata.model_copy()
        source.provider_response_id = message.id or source.provider_response_id
        source.timestamp = message.timestamp or source.timestamp
        metadata = render_metadata(source, ctx, fallback_identity(conversation), response=True)
    if kind == "stream":
        mode = conversation.extra.get(FORMAT_ID, {}).get("streamMode")
        return render_stream(message, index, metadata, mode, ctx)
    return render_response(message, index, metadata, ctx)


def _report_unplaced(
    conversation: Conversation, earlier: list[tuple[int, Message]], ctx: RenderContext
) -> None:
    """Warn for what a bare message array or an answer has no room for."""
    for index, _ in earlier:
        ctx.drift.add(
            "content-dropped", "a response holds only the answer", field=item("messages", index)
        )
    if conversation.tools:
        ctx.drift.add("tool-unsupported", "this payload shape has no tools", field="tools")
    if conversation.tool_choice is not None:
        ctx.drift.add(
            "parameter-unsupported", "this payload shape has no toolChoice", field="tool_choice"
        )
    for key, value in conversation.parameters.model_dump(exclude_defaults=True).items():
        ctx.drift.add(
            "parameter-unsupported",
            "this payload shape has no parameters",
            field=f"parameters.{key}",
            original=value,
        )
