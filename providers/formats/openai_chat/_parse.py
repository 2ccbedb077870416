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
"""

from __future__ import annotations

from functools import partial
from typing import Any

from providers.formats._chat_completions.completion import (
    Completion,
    read_completion,
    read_token_usage,
)
from providers.formats._chat_completions.shape import (
    Readers,
    RequestReaders,
    has_field,
    read_request,
    read_shape,
)
from providers.formats._kit.fields import umf_checked
from providers.formats.base import Drift, ParseResult
from providers.umf import JSON, FinishReason, Tool

from ._constants import FORMAT_ID, NAMESPACE, WIRE_FINISH_REASONS
from ._parse_messages import ParseState, parse_message, parse_messages
from ._parse_request import PARAMETER_KEYS, parse_parameters, parse_tool_choice, parse_tools
from ._render_request import render_usage

_FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}

COMPLETION = Completion(
    NAMESPACE,
    _FINISH_REASONS,
    WIRE_FINISH_REASONS,
    partial(read_token_usage, prompt="prompt_tokens", completion="completion_tokens"),
    render_usage,
)


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
