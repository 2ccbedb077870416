"""Validate what the renderers produce against the providers' own SDK request types.

The SDKs type requests as TypedDicts; pydantic validates them, but lazily for ``Iterable``
fields (messages, content blocks...), so each validator walks the result to force every
nested iterator: a bad block deep inside a message fails here, not never. The adapters are
cached: a lazy iterator outliving its TypeAdapter crashes pydantic-core.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pydantic


def _materialize(value: Any) -> Any:
    """Walk a validated value, consuming pydantic's lazy validator iterators."""
    if isinstance(value, Mapping):
        return {key: _materialize(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_materialize(item) for item in value]
    if isinstance(value, Iterator) or type(value).__name__ == "ValidatorIterator":
        return [_materialize(item) for item in value]
    return value


@cache
def _anthropic_adapter(streaming: bool) -> pydantic.TypeAdapter[Any]:
    from anthropic.types import message_create_params

    if streaming:
        return pydantic.TypeAdapter(message_create_params.MessageCreateParamsStreaming)
    return pydantic.TypeAdapter(message_create_params.MessageCreateParamsNonStreaming)


def validate_anthropic_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid Anthropic Messages
    request (``MessageCreateParams``, streaming or not), and return the validated value."""
    streaming = isinstance(payload, Mapping) and payload.get("stream") is True
    return _materialize(_anthropic_adapter(streaming).validate_python(payload))


@cache
def _openai_chat_adapter(streaming: bool) -> pydantic.TypeAdapter[Any]:
    from openai.types.chat import completion_create_params

    if streaming:
        return pydantic.TypeAdapter(completion_create_params.CompletionCreateParamsStreaming)
    return pydantic.TypeAdapter(completion_create_params.CompletionCreateParamsNonStreaming)


def validate_openai_chat_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid OpenAI Chat
    Completions request (``CompletionCreateParams``, streaming or not), and return the
    validated value. TypedDicts ignore unknown keys: see :func:`check_openai_chat_tool_pairing`
    for the ordering rules the types cannot express."""
    streaming = isinstance(payload, Mapping) and payload.get("stream") is True
    return _materialize(_openai_chat_adapter(streaming).validate_python(payload))


def validate_openai_chat_response(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid ``chat.completion``."""
    from openai.types.chat import ChatCompletion

    return ChatCompletion.model_validate(payload)


def check_openai_chat_tool_pairing(payload: Any) -> None:
    """Raise ``AssertionError`` unless every assistant tool call is answered by ``tool``
    messages directly after it, and every tool message answers such a call (what OpenAI
    refuses with a 400 otherwise). ``payload`` is a request body or a messages list."""
    messages = payload["messages"] if isinstance(payload, Mapping) else payload
    open_calls: set[str] = set()
    for index, message in enumerate(messages):
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            assert call_id in open_calls, f"messages[{index}] answers no open tool call {call_id!r}"
            open_calls.discard(call_id)
            continue
        assert not open_calls, (
            f"messages[{index}] comes before calls {sorted(open_calls)} are answered"
        )
        if message["role"] == "assistant":
            open_calls = {call["id"] for call in message.get("tool_calls") or []}
    assert not open_calls, f"calls {sorted(open_calls)} are never answered"
