"""Validate OpenAI Responses payloads against the ``openai`` SDK's own types.

Requests go through ``ResponseCreateParamsNonStreaming`` (or ``...Streaming``) with a
pydantic TypeAdapter; the SDK types requests as TypedDicts, which pydantic validates lazily
for ``Iterable`` fields, so the result is walked to force every nested iterator. Responses
go through the ``Response`` model. TypedDicts ignore unknown keys and cannot say how items
relate to each other: :func:`check_openai_responses_rules` asserts the rules of reference
section 2.2 (item id prefixes, call/output pairing, what an assistant message may hold).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pydantic

_ITEM_ID = re.compile(r"[A-Za-z0-9_-]+")
_ID_PREFIXES = {
    "function_call": "fc",
    "custom_tool_call": "ctc",
    "reasoning": "rs",
    "message": "msg",
}
_OUTPUTS = {"function_call": "function_call_output", "custom_tool_call": "custom_tool_call_output"}


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
def _request_adapter(streaming: bool) -> pydantic.TypeAdapter[Any]:
    # Cached: a lazy iterator outliving its TypeAdapter crashes pydantic-core.
    from openai.types.responses import response_create_params

    if streaming:
        return pydantic.TypeAdapter(response_create_params.ResponseCreateParamsStreaming)
    return pydantic.TypeAdapter(response_create_params.ResponseCreateParamsNonStreaming)


def validate_openai_responses_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid Responses request
    (``ResponseCreateParams``), and return the validated value."""
    streaming = isinstance(payload, Mapping) and payload.get("stream") is True
    return _materialize(_request_adapter(streaming).validate_python(payload))


def validate_openai_responses_items(items: Any) -> Any:
    """Raise unless ``items`` is a valid ``input`` item list."""
    return validate_openai_responses_request({"model": "gpt-5", "input": items})


def validate_openai_responses_response(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid ``response`` object."""
    from openai.types.responses import Response

    return Response.model_validate(payload)


def check_openai_responses_rules(payload: Any) -> None:
    """Raise ``AssertionError`` unless the request (or item list) keeps the rules the API
    enforces beyond its types: item ids start with their type's prefix and use only
    letters, digits, ``_`` and ``-``; every call is answered by an output of the matching
    type after it and every output answers an earlier call; call ids are unique; assistant
    messages hold only text, ``output_text`` and refusals; a reasoning item is never last
    of the items the assistant produced before an input turn."""
    items = payload["input"] if isinstance(payload, Mapping) else payload
    if isinstance(items, str):
        return
    open_calls: dict[str, str] = {}
    answered: set[str] = set()
    for index, item in enumerate(items):
        kind = item.get("type") or ("message" if "role" in item else "item_reference")
        _check_id(item, kind, index)
        if kind in _OUTPUTS:
            call_id = item["call_id"]
            assert call_id not in open_calls and call_id not in answered, (
                f"input[{index}] reuses call id {call_id!r}"
            )
            open_calls[call_id] = _OUTPUTS[kind]
        elif kind in _OUTPUTS.values():
            call_id = item["call_id"]
            assert open_calls.get(call_id) == kind, (
                f"input[{index}] answers no open call {call_id!r}"
            )
            del open_calls[call_id]
            answered.add(call_id)
        elif kind == "message" and item["role"] == "assistant":
            _check_assistant_content(item, index)
        if kind == "reasoning":
            assert index + 1 < len(items), f"input[{index}] reasoning is followed by nothing"
    assert not open_calls, f"calls {sorted(open_calls)} are never answered"


def _check_id(item: Mapping[str, Any], kind: str, index: int) -> None:
    if kind not in _ID_PREFIXES or "id" not in item:
        return
    item_id = item["id"]
    assert isinstance(item_id, str) and item_id.startswith(_ID_PREFIXES[kind]), (
        f"input[{index}] {kind} id {item_id!r} lacks the prefix {_ID_PREFIXES[kind]!r}"
    )
    assert _ITEM_ID.fullmatch(item_id), f"input[{index}] id {item_id!r} has forbidden characters"


def _check_assistant_content(item: Mapping[str, Any], index: int) -> None:
    content = item["content"]
    if isinstance(content, str):
        return
    kinds = {part["type"] for part in content}
    assert kinds <= {"output_text", "refusal"}, f"input[{index}] assistant holds {sorted(kinds)}"
    assert not kinds or "id" in item, (
        f"input[{index}] output_text/refusal parts need the message's msg_ id"
    )
