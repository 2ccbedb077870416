"""Validate Cohere v2 chat payloads against the cohere SDK's own types.

The SDK has no request-body type: ``V2Client.chat`` takes the body's fields as keyword
arguments, each typed with the SDK's pydantic models (``ChatMessageV2``, ``ToolV2``,
``Document``, ``Thinking``...). :func:`validate_cohere_request` builds one pydantic model
from that signature (unknown top-level keys forbidden; ``stream`` is the REST body's own
flag) and validates the body with it. The nested models allow extra keys and type
``tool_choice`` / ``safety_mode`` loosely, so :func:`check_cohere_rules` asserts what the
types cannot: the keys each role may have, content part types, tool_choice values and
tool-call pairing.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

import pydantic

_MESSAGE_KEYS = {
    "system": {"role", "content"},
    "user": {"role", "content"},
    "assistant": {"role", "content", "tool_calls", "tool_plan", "citations"},
    "tool": {"role", "tool_call_id", "content"},
}
_PART_TYPES = {
    "system": {"text"},
    "user": {"text", "image_url"},
    "assistant": {"text", "thinking"},
    "tool": {"text", "document"},
}


@cache
def _request_model() -> type[pydantic.BaseModel]:
    from cohere.v2.raw_client import RawV2Client

    hints = typing.get_type_hints(RawV2Client.chat)
    fields: dict[str, Any] = {}
    for name, parameter in inspect.signature(RawV2Client.chat).parameters.items():
        if name in ("self", "request_options"):
            continue
        required = parameter.default is inspect.Parameter.empty
        fields[name] = (hints[name], ... if required else None)
    fields["stream"] = (bool | None, None)
    config = pydantic.ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    return pydantic.create_model("CohereChatRequest", __config__=config, **fields)


def validate_cohere_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a body ``V2Client.chat``
    accepts; return the validated model."""
    return _request_model().model_validate(payload)


def validate_cohere_response(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a ``V2ChatResponse``."""
    from cohere.v2.types import V2ChatResponse

    return V2ChatResponse.model_validate(payload)


def check_cohere_rules(payload: Any) -> None:
    """Raise ``AssertionError`` unless the body keeps the rules the types leave open.
    ``payload`` is a request body or a messages list."""
    body = payload if isinstance(payload, Mapping) else {"messages": payload}
    assert body.get("tool_choice") in (None, "REQUIRED", "NONE"), body.get("tool_choice")
    for tool in body.get("tools") or []:
        assert isinstance(tool["function"].get("parameters"), dict), tool
    for index, message in enumerate(body["messages"]):
        _check_message(message, f"messages[{index}]")
    _check_pairing(body["messages"])


def _check_message(message: Mapping[str, Any], path: str) -> None:
    role = message["role"]
    assert set(message) <= _MESSAGE_KEYS[role], f"{path} has keys {sorted(message)}"
    content = message.get("content")
    if isinstance(content, list):
        kinds = {part["type"] for part in content}
        assert kinds <= _PART_TYPES[role], f"{path} holds {sorted(kinds)}"
    if role in ("system", "user"):
        assert content is not None, f"{path} has no content"
    if role == "assistant":
        assert content or message.get("tool_calls") or message.get("tool_plan"), path


def _check_pairing(messages: list[Mapping[str, Any]]) -> None:
    open_calls: set[str] = set()
    for index, message in enumerate(messages):
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            assert call_id in open_calls, f"messages[{index}] answers no open call {call_id!r}"
            open_calls.discard(call_id)
            continue
        assert not open_calls, f"messages[{index}] comes before {sorted(open_calls)} are answered"
        if message["role"] == "assistant":
            ids = [call["id"] for call in message.get("tool_calls") or []]
            assert len(ids) == len(set(ids)), f"messages[{index}] repeats a call id"
            open_calls = set(ids)
    assert not open_calls, f"calls {sorted(open_calls)} are never answered"
