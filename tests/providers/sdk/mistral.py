"""Validate Mistral chat payloads against mistralai's own request and response types.

Requests are checked against ``ChatCompletionRequestTypedDict`` (or the streaming one)
through pydantic: unlike the SDK's ``ChatCompletionRequest`` model, whose open unions
accept any chunk type as ``UnknownContentChunk``, the TypedDicts refuse unknown chunk
types. TypedDicts ignore unknown keys and the SDK types enums as "or any string", so
:func:`check_mistral_rules` asserts what they cannot: known keys, tool-call id format,
tool_choice values, chunk types per role, and the ordering rules the API enforces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any, get_type_hints

import pydantic

TOOL_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")
_MESSAGE_KEYS = {
    "system": {"role", "content"},
    "user": {"role", "content"},
    "assistant": {"role", "content", "tool_calls", "prefix"},
    "tool": {"role", "content", "tool_call_id", "name"},
}
_USER_ONLY_CHUNKS = {"image_url", "document_url", "input_audio", "file"}
_TOOL_CHOICES = ("auto", "none", "any", "required")


@cache
def _adapter(streaming: bool) -> pydantic.TypeAdapter[Any]:
    from mistralai.client.models import (
        ChatCompletionRequestTypedDict,
        ChatCompletionStreamRequestTypedDict,
    )

    kind = ChatCompletionStreamRequestTypedDict if streaming else ChatCompletionRequestTypedDict
    return pydantic.TypeAdapter(kind)


@cache
def _request_keys() -> frozenset[str]:
    from mistralai.client.models import ChatCompletionRequestTypedDict

    return frozenset(get_type_hints(ChatCompletionRequestTypedDict))


def validate_mistral_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid chat completion
    request; return the validated value."""
    streaming = isinstance(payload, Mapping) and payload.get("stream") is True
    return _adapter(streaming).validate_python(payload)


def validate_mistral_response(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a ``ChatCompletionResponse``."""
    from mistralai.client.models import ChatCompletionResponse

    return ChatCompletionResponse.model_validate(payload)


def check_mistral_rules(payload: Any) -> None:
    """Raise ``AssertionError`` unless the request keeps the rules its types leave open.
    ``payload`` is a request body or a messages list."""
    body = payload if isinstance(payload, Mapping) else {"messages": payload}
    assert set(body) <= _request_keys(), sorted(set(body) - _request_keys())
    choice = body.get("tool_choice")
    assert choice is None or choice in _TOOL_CHOICES or _named_function(choice), choice
    for tool in body.get("tools") or []:
        assert tool.get("type") != "function" or isinstance(
            tool["function"].get("parameters"), dict
        )
    messages = body["messages"]
    for index, message in enumerate(messages):
        _check_message(message, f"messages[{index}]")
    _check_order(messages)


def _named_function(choice: Any) -> bool:
    return (
        isinstance(choice, Mapping)
        and choice.get("type", "function") == "function"
        and isinstance(choice.get("function", {}).get("name"), str)
    )


def _check_message(message: Mapping[str, Any], path: str) -> None:
    role = message["role"]
    assert set(message) <= _MESSAGE_KEYS[role], f"{path} has keys {sorted(message)}"
    content = message.get("content")
    if isinstance(content, list) and role != "user":
        kinds = {chunk["type"] for chunk in content}
        assert not kinds & _USER_ONLY_CHUNKS, f"{path} ({role}) holds {sorted(kinds)}"
    for call in message.get("tool_calls") or []:
        assert TOOL_CALL_ID.fullmatch(call["id"]), f"{path} has tool call id {call['id']!r}"
    if role == "tool":
        assert TOOL_CALL_ID.fullmatch(message["tool_call_id"]), f"{path} answers a bad id"


def _check_order(messages: list[Mapping[str, Any]]) -> None:
    open_calls: set[str] = set()
    previous = None
    for index, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            assert message["tool_call_id"] in open_calls, f"messages[{index}] answers no open call"
            open_calls.discard(message["tool_call_id"])
        else:
            assert not open_calls, f"messages[{index}] comes before calls are answered"
            assert not (role == "user" and previous == "tool"), (
                f"messages[{index}]: user after tool"
            )
            assert role != previous or role == "system", f"messages[{index}] repeats role {role}"
        if role == "assistant":
            ids = [call["id"] for call in message.get("tool_calls") or []]
            assert len(ids) == len(set(ids)), f"messages[{index}] repeats a call id"
            open_calls = set(ids)
        previous = role
    assert not open_calls, f"calls {sorted(open_calls)} are never answered"
    last = messages[-1] if messages else None
    if last is not None and last["role"] == "assistant":
        assert last.get("prefix") is True, "the last message is an assistant's without prefix"
