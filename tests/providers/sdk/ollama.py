"""Validate Ollama ``/api/chat`` payloads against the ``ollama`` SDK's pydantic models.

``ChatRequest.messages`` is typed ``Sequence[Mapping[str, Any] | Message]``, so a dict
passes unchecked: each message is validated as ``Message`` the way ``Client.chat`` does it
(``_copy_messages``: images wrapped in ``Image``, whose serialiser refuses what is not
base64), tools as ``Tool`` and options as ``Options``, then the whole request as
``ChatRequest`` and serialised. The SDK models ignore unknown keys and type ``role`` as any
string: :func:`check_ollama_rules` asserts what the server's ``api.Message`` and the
reference (section 2.5) say beyond that.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from ollama._types import ChatRequest, ChatResponse, Image, Message, Options, Tool

ROLES = {"system", "user", "assistant", "tool"}
MESSAGE_KEYS = {"role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id"}
REQUEST_KEYS = set(ChatRequest.model_fields)


def _sdk_message(message: Mapping[str, Any]) -> Message:
    """A message as ``Client.chat`` turns it into the SDK type (falsy values left out)."""
    fields = {
        key: [Image(value=image) for image in value] if key == "images" else value
        for key, value in message.items()
        if value
    }
    return Message.model_validate(fields)


def validate_ollama_request(payload: Any) -> ChatRequest:
    """Raise unless ``payload`` is a request body the SDK and the server accept."""
    check_ollama_rules(payload)
    messages = [_sdk_message(message) for message in payload["messages"]]
    tools = [Tool.model_validate(tool) for tool in payload.get("tools") or []]
    options = payload.get("options")
    if options is not None:
        Options.model_validate(options)
    request = ChatRequest.model_validate({**payload, "messages": messages, "tools": tools})
    request.model_dump(exclude_none=True)  # serialising checks every image is base64
    return request


def validate_ollama_response(payload: Any) -> ChatResponse:
    """Raise unless ``payload`` is a chat response the SDK reads."""
    response = ChatResponse.model_validate(payload)
    check_message_rules(payload["message"], "message")
    return response


def check_ollama_rules(payload: Any) -> None:
    """Assert what the SDK types cannot: known top-level fields, a model, the message
    fields of ``api.Message`` with their types, object arguments, function tools."""
    assert isinstance(payload, Mapping), "a request is an object"
    assert set(payload) <= REQUEST_KEYS, f"unknown request fields {set(payload) - REQUEST_KEYS}"
    assert isinstance(payload.get("model"), str) and payload["model"], "a request names a model"
    for index, message in enumerate(payload["messages"]):
        check_message_rules(message, f"messages[{index}]")
    for index, tool in enumerate(payload.get("tools") or []):
        assert tool.get("type") == "function", f"tools[{index}] is a function tool"
        function = tool["function"]
        assert isinstance(function["name"], str) and function["name"], f"tools[{index}] name"
        parameters = function.get("parameters")
        assert parameters is None or parameters.get("type") == "object", f"tools[{index}]"
    options = payload.get("options")
    if options is not None:
        unknown = set(options) - set(Options.model_fields)
        assert not unknown, f"unknown options {unknown}"


def check_message_rules(message: Any, path: str) -> None:
    """Assert one message has only ``api.Message`` fields, each of the right type."""
    assert isinstance(message, Mapping), f"{path} is an object"
    assert set(message) <= MESSAGE_KEYS, f"{path} has unknown fields {set(message) - MESSAGE_KEYS}"
    assert message["role"] in ROLES, f"{path}.role"
    for key in ("content", "thinking", "tool_name", "tool_call_id"):
        assert message.get(key) is None or isinstance(message[key], str), f"{path}.{key}"
    for image in message.get("images") or []:
        assert isinstance(image, str) and not image.startswith("data:"), f"{path}.images"
        base64.b64decode(image, validate=True)
    for number, call in enumerate(message.get("tool_calls") or []):
        where = f"{path}.tool_calls[{number}]"
        assert message["role"] == "assistant", f"{where}: only assistants call tools"
        assert set(call) <= {"id", "function"}, f"{where} has unknown fields"
        assert set(call["function"]) <= {"index", "name", "arguments"}, f"{where}.function"
        assert isinstance(call["function"]["name"], str), f"{where}.function.name"
        assert isinstance(call["function"]["arguments"], dict), f"{where}.function.arguments"
    if "tool_name" in message:
        assert message["role"] == "tool", f"{path}.tool_name belongs to tool messages"
