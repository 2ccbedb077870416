"""Ollama payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``): ``request`` (an ``/api/chat`` body),
``messages`` (a bare message list), ``exchange`` (``{"request", "response"}``, the response
becoming the last assistant message, marked ``$response``) and ``response`` (a bare,
non-streamed chat response).

Options: ``temperature``, ``top_p``, ``top_k``, ``seed``, ``stop``, ``frequency_penalty``
and ``presence_penalty`` map by name, ``num_predict`` is ``max_tokens`` when positive
(``-1`` "no limit" and ``-2`` "fill the context" have no UMF meaning and stay verbatim).
Every other option (``num_ctx``, ``repeat_penalty``...) stays in
``extra["ollama"]["options"]``, and so does a value of a type UMF cannot hold.
``$int_options`` lists float options written as integers (``0``, not ``0.0``) so that
they come back the same.

Responses: the message gets the response's ``model``, the normalised finish reason
(``done_reason`` raw in ``provider_finish_reason``; ``stop`` with tool calls is UMF
``tool_calls``, ``load`` and ``unload`` have no UMF name) and usage (``prompt_eval_count``
as prompt tokens, ``eval_count`` as completion tokens). ``usage.raw`` keeps every count and
nanosecond timing as sent. ``created_at`` sets the message timestamp; it and every other
response field (``done``...) stay verbatim in the message's ``$response`` hint.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from providers.formats._chat_completions.shape import Readers, has_field, read_list, read_shape
from providers.formats._kit.fields import Fields, umf_checked
from providers.formats._kit.paths import is_int, is_number, item
from providers.formats.base import Drift, FormatError, ParseResult
from providers.umf import (
    JSON,
    Conversation,
    FinishReason,
    Message,
    Parameters,
    Tool,
    ToolUseBlock,
    Usage,
)

from ._constants import FINISH_REASONS, FLOAT_OPTIONS, FORMAT_ID, INT_OPTIONS, METRICS, NS
from ._parse_messages import parse_message
from ._rules import ParseState


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Ollama payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    with umf_checked():
        conversation, drift = parse_payload(payload)
    return [ParseResult(conversation, drift.warnings)]


def parse_payload(payload: JSON) -> tuple[Conversation, Drift]:
    """The conversation a payload of any accepted shape describes, and the warnings for
    what reading it made up (tool-call ids)."""
    state = ParseState(Drift(FORMAT_ID))
    return read_shape(payload, _READERS, state), state.drift


def parse_messages(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """A ``messages`` array."""
    return read_list(raw, path, state, parse_message)


def parse_request(raw: JSON, path: str, state: ParseState) -> Conversation:
    """An ``/api/chat`` body; fields UMF has no name for (``format``, ``keep_alive``,
    ``think``, the options it has no name for...) go to the conversation's extra."""
    fields = Fields(raw, path)
    messages = parse_messages(fields.array("messages", required=True), fields.at("messages"), state)
    model = fields.string("model")
    stream = fields.boolean("stream")
    tools = fields.array("tools")
    if tools == []:
        fields.rest["tools"] = tools  # UMF has no "an empty list was sent"
    parameters, hints = parse_options(fields)
    parameters.model, parameters.stream = model, stream
    return Conversation(
        messages=messages,
        tools=[
            _parse_tool(tool, item(fields.at("tools"), i)) for i, tool in enumerate(tools or [])
        ],
        parameters=parameters,
        extra=NS.extra({**fields.rest, **hints}),
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
        extra=NS.extra({**function.rest, "$outer": outer.rest}),
    )


# --------------------------------------------------------------------------- options


def parse_options(fields: Fields) -> tuple[Parameters, dict[str, Any]]:
    """The UMF parameters inside a request's ``options`` (the rest put back verbatim into
    ``fields``) and the layout hints they need."""
    options = fields.mapping("options")
    if options is None:
        return Parameters(), {}
    reader = Fields(options, fields.at("options"))
    values: dict[str, Any] = {}
    for key in FLOAT_OPTIONS:
        _take_number(reader, key, values, _fits_float)
    for key in (*INT_OPTIONS, "num_predict"):
        _take_number(reader, key, values, is_int)
    if "num_predict" in values:
        limit = values.pop("num_predict")
        if limit > 0:
            values["max_tokens"] = limit
        else:
            reader.rest["num_predict"] = limit
    stop = reader.array("stop")
    if stop is not None:
        for index, sequence in enumerate(stop):
            if not isinstance(sequence, str):
                raise FormatError(
                    "stop sequences are strings", field=item(reader.at("stop"), index)
                )
        values["stop"] = stop
    fields.rest["options"] = reader.rest
    ints = [key for key in FLOAT_OPTIONS if is_int(values.get(key))]
    return Parameters(**values), ({"$int_options": ints} if ints else {})


def _fits_float(value: float) -> bool:
    try:
        return float(value) == value
    except OverflowError:
        return False


def _take_number(
    reader: Fields, key: str, values: dict[str, Any], fits: Callable[[Any], bool]
) -> None:
    """Move a numeric option into ``values`` when UMF can hold it exactly; one it cannot
    (``40.0`` for an integer, an integer no float holds) stays verbatim."""
    value = reader.rest.get(key)
    if value is None:
        return
    if not is_number(value):
        raise FormatError(f"option {key!r} must be a number", field=reader.at(key))
    if fits(value):
        values[key] = reader.take(key)


# --------------------------------------------------------------------------- responses

# Go writes nanoseconds; Python's datetime holds microseconds.
_EXTRA_DIGITS = re.compile(r"(\.\d{6})\d+")


def parse_response(raw: Any, path: str, state: ParseState) -> Message:
    """The assistant message of a chat response (``path`` is where the response is)."""
    fields = Fields(raw, path)
    message = parse_message(fields.mapping("message", required=True), fields.at("message"), state)
    if message.role != "assistant":
        raise FormatError(
            "a response message has role 'assistant'", field=fields.at("message.role")
        )
    message.model = fields.string("model")
    reason = fields.string("done_reason")
    if reason is not None:
        message.provider_finish_reason = reason
        message.finish_reason = _finish_reason(reason, message)
    metrics: dict[str, Any] = {key: fields.rest.pop(key) for key in METRICS if key in fields.rest}
    if metrics:
        message.usage = _usage(metrics)
    message.timestamp = _timestamp(fields.rest.get("created_at"))
    message.extra.setdefault(FORMAT_ID, {})["$response"] = fields.rest
    return message


def _finish_reason(reason: str, message: Message) -> FinishReason | None:
    finish = FINISH_REASONS.get(reason)
    if finish == "stop" and any(isinstance(block, ToolUseBlock) for block in message.content):
        return "tool_calls"  # Ollama says "stop" when the turn ends on tool calls
    return finish


def _usage(metrics: dict[str, Any]) -> Usage:
    prompt = metrics.get("prompt_eval_count")
    completion = metrics.get("eval_count")
    prompt = prompt if is_int(prompt) else None
    completion = completion if is_int(completion) else None
    total = prompt + completion if prompt is not None and completion is not None else None
    return Usage(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=total, raw=metrics
    )


def _timestamp(created_at: Any) -> datetime | None:
    if not isinstance(created_at, str):
        return None
    try:
        return datetime.fromisoformat(_EXTRA_DIGITS.sub(r"\1", created_at))
    except ValueError:
        return None  # not a time we can read: it stays only in the kept fields


_READERS = Readers(
    NS,
    parse_messages,
    parse_request,
    parse_response,
    has_field("message"),
    refusal="not an Ollama /api/chat payload: expected a request with 'messages', a message "
    "list, a {'request', 'response'} exchange or a response with 'message'",
    refusal_field="payload",
)
