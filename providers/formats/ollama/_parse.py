"""Ollama payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``): ``request`` (an ``/api/chat`` body),
``messages`` (a bare message list), ``exchange`` (``{"request", "response"}``, the response
becoming the last assistant message, marked ``$response``) and ``response`` (a bare,
non-streamed chat response).
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import extra_of
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Conversation, Message, Tool

from ._messages import ParseState, parse_message
from ._options import parse_options
from ._response import parse_response
from ._shared import FORMAT_ID, Fields, item

_ENVELOPE = ("request", "response")


def parse_payload(payload: JSON) -> tuple[Conversation, Drift]:
    """The conversation a payload of any accepted shape describes, and the warnings for
    what reading it made up (tool-call ids)."""
    state = ParseState(Drift(FORMAT_ID))
    if isinstance(payload, list):
        conversation = Conversation(messages=parse_messages(payload, "", state))
        shape = "messages"
    elif isinstance(payload, dict) and any(key in payload for key in _ENVELOPE):
        conversation = _parse_exchange(payload, state)
        shape = "exchange"
    elif isinstance(payload, dict) and "messages" in payload:
        conversation = parse_request(payload, "", state)
        shape = "request"
    elif isinstance(payload, dict) and "message" in payload:
        conversation = Conversation(messages=[parse_response(payload, "", state)])
        shape = "response"
    else:
        raise FormatError(
            "not an Ollama /api/chat payload: expected a request with 'messages', a message "
            "list, a {'request', 'response'} exchange or a response with 'message'",
            field="payload",
        )
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return conversation, state.drift


def parse_messages(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """A ``messages`` array."""
    if not isinstance(raw, list):
        raise FormatError("messages must be an array", field=path or "payload")
    return [parse_message(entry, item(path, index), state) for index, entry in enumerate(raw)]


def _parse_exchange(payload: dict[str, Any], state: ParseState) -> Conversation:
    fields = Fields(payload, "")
    request = fields.take("request", required=True)
    response = fields.take("response", required=True)
    conversation = parse_request(request, "request", state)
    answer = parse_response(response, "response", state)
    conversation.messages.append(answer)
    if fields.rest:
        conversation.extra.setdefault(FORMAT_ID, {})["$exchange"] = fields.rest
    return conversation


def parse_request(raw: JSON, path: str, state: ParseState) -> Conversation:
    """An ``/api/chat`` body; fields UMF has no name for (``format``, ``keep_alive``,
    ``think``, the options it has no name for...) go to the conversation's extra."""
    fields = Fields(raw, path)
    messages = parse_messages(fields.array("messages", required=True), fields.at("messages"), state)
    model = fields.string("model")
    stream = fields.boolean("stream")
    tools = fields.array("tools")
    if tools == []:
        fields.keep("tools", tools)  # UMF has no "an empty list was sent"
    parameters, hints = parse_options(fields)
    parameters.model, parameters.stream = model, stream
    return Conversation(
        messages=messages,
        tools=[
            _parse_tool(tool, item(fields.at("tools"), i)) for i, tool in enumerate(tools or [])
        ],
        parameters=parameters,
        extra=extra_of(FORMAT_ID, {**fields.rest, **hints}),
    )


def _parse_tool(raw: JSON, path: str) -> Tool:
    """A tool: ``{"type": "function", "function": {name, description, parameters}}``; the
    outer fields (``type``...) are kept in the ``$outer`` hint, the function's others as
    the tool's own fields."""
    outer = Fields(raw, path)
    function = Fields(outer.mapping("function", required=True), outer.at("function"))
    name = function.string("name", required=True)
    return Tool(
        name=name or "",
        description=function.string("description"),
        parameters=function.mapping("parameters"),
        extra=extra_of(FORMAT_ID, {**function.rest, "$outer": outer.rest}),
    )
