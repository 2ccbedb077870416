"""ART payloads -> one UMF conversation.

Shapes (the conversation hint ``$shape``): ``messages``, an ``ArtStandardPrompt`` (an array
of ``ArtStandardMessage``, what ART hands to a provider adapter); ``message``, one
message; ``exchange``, ``{"request": [...], "response": <assistant message>}`` (other
envelope fields are kept verbatim).

Each message becomes one UMF message. ``tool_request`` messages are assistant messages
(``$role``); ``tool_result`` and ``tool`` messages are tool messages with one tool-result
block. ``tool_calls`` become tool-use blocks with the exact argument string. Object content
(the seed allows ``string | object | null``) is kept as its JSON text (``$content:
object``) so that it comes back as the same object.
"""

from __future__ import annotations

import json
from typing import Any

from providers.formats._common import (
    parse_arguments,
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._shared import ROLES, at, item, make_extra

RESULT_ROLES = ("tool_result", "tool")
# Content each role has when it has no text: what the renderer writes by default.
NULL_CONTENT_ROLES = ("assistant", "tool_request")


def parse_payload(payload: JSON) -> tuple[Conversation, str]:
    """The conversation a payload holds, and its shape."""
    if isinstance(payload, list):
        return Conversation(messages=parse_messages(payload, "")), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        return _parse_exchange(body), "exchange"
    if "role" in body:
        return Conversation(messages=[parse_message(body, "")]), "message"
    raise FormatError(
        "not an ART payload: expected an ArtStandardPrompt (array of messages), one "
        "ArtStandardMessage, or a request and a response",
        field="role",
    )


def parse_messages(raw: JSON, path: str) -> list[Message]:
    """The messages of an ``ArtStandardPrompt`` at ``path``."""
    messages = require_list(raw, path or "payload")
    return [parse_message(message, item(path, index)) for index, message in enumerate(messages)]


def parse_message(raw: JSON, path: str) -> Message:
    """One ``ArtStandardMessage``; :class:`FormatError` naming the field when it is not."""
    source = require_mapping(raw, path or "payload")
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    if "content" not in source:
        raise FormatError("a message needs content (null when empty)", field=at(path, "content"))
    if role in RESULT_ROLES:
        return _parse_result(source, role, path)
    fields, rest = split(source, ("name", "tool_calls"), handled=("role", "content"), path=path)
    blocks, content_hint = _content_blocks(source["content"], role, at(path, "content"))
    calls = _parse_calls(fields.get("tool_calls"), at(path, "tool_calls"))
    if fields.get("tool_calls") == []:
        rest["tool_calls"] = []  # UMF has no "an empty list was sent"
    return Message(
        role="assistant" if role == "tool_request" else role,  # type: ignore[arg-type]
        content=[*blocks, *calls],
        name=require_str(fields["name"], at(path, "name")) if "name" in fields else None,
        extra=make_extra(
            rest, role="tool_request" if role == "tool_request" else None, content=content_hint
        ),
    )


def _content_blocks(content: JSON, role: str, path: str) -> tuple[list[Block], str | None]:
    """The blocks of a content value, and the ``$content`` hint when the renderer's
    default would spell it otherwise."""
    if content is None:
        return [], None if role in NULL_CONTENT_ROLES else "null"
    if isinstance(content, str):
        return [TextBlock(text=content)], None
    if isinstance(content, dict):
        return [TextBlock(text=dump_object(content))], "object"
    raise FormatError("content must be a string, an object or null", field=path)


def dump_object(value: dict[str, Any]) -> str:
    """An object's JSON text (stdlib json, so that integers of any size survive)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _parse_calls(raw: JSON, path: str) -> list[Block]:
    if raw is None:
        return []
    calls = require_list(raw, path)
    return [_parse_call(call, item(path, index)) for index, call in enumerate(calls)]


def _parse_call(raw: JSON, path: str) -> Block:
    call = require_mapping(raw, path)
    if call.get("type") != "function":
        raise FormatError('a tool call has type "function"', field=at(path, "type"))
    function_path = at(path, "function")
    function = require_mapping(call.get("function"), function_path)
    arguments = require_str(function.get("arguments"), at(function_path, "arguments"))
    value, _ = parse_arguments(arguments)
    inner = unknown_fields(function, ("name", "arguments"), path=function_path)
    return ToolUseBlock(
        id=require_str(call.get("id"), at(path, "id")),
        name=require_str(function.get("name"), at(function_path, "name")),
        input=value,
        raw_arguments=arguments,
        extra=make_extra(
            unknown_fields(call, ("id", "type", "function"), path=path), function=inner or None
        ),
    )


def _parse_result(source: dict[str, Any], role: str, path: str) -> Message:
    fields, rest = split(source, ("name", "tool_call_id"), handled=("role", "content"), path=path)
    if "tool_call_id" not in fields:
        raise FormatError(f"a {role} message needs tool_call_id", field=at(path, "tool_call_id"))
    call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    name = require_str(fields["name"], at(path, "name")) if "name" in fields else None
    content = source["content"]
    hint = None
    if content is None:
        text, hint = "", "null"
    elif isinstance(content, dict):
        text, hint = dump_object(content), "object"
    elif isinstance(content, str):
        text = content
    else:
        raise FormatError("content must be a string, an object or null", field=at(path, "content"))
    block = ToolResultBlock(tool_use_id=call_id, content=text, name=name)
    return Message(
        role="tool",
        content=[block],
        name=name,
        tool_call_id=call_id,
        extra=make_extra(rest, role=role if role == "tool" else None, content=hint),
    )


def _parse_exchange(body: dict[str, Any]) -> Conversation:
    if "response" not in body:
        raise FormatError("an exchange needs a response", field="response")
    conversation = Conversation(messages=parse_messages(body.get("request"), "request"))
    answer = parse_message(body["response"], "response")
    if answer.role != "assistant":
        raise FormatError("a response is an assistant message", field="response.role")
    conversation.messages.append(answer)
    envelope = unknown_fields(body, ("request", "response"), path="")
    if envelope:
        conversation.extra = make_extra({}, exchange=envelope)
    return conversation
