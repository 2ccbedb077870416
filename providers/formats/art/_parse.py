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

from typing import Any

from providers.formats._kit.fields import (
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at
from providers.formats._kit.wire import parse_arguments
from providers.formats._message_lists.shapes import (
    json_text,
    parse_result,
    read_list,
    read_payload,
    read_role,
)
from providers.formats.art._constants import (
    DIALECT,
    FORMAT_ID,
    NS,
    NULL_CONTENT_ROLES,
    RESULT_ROLES,
    ROLES,
)
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Block, Message, TextBlock, ToolResultBlock, ToolUseBlock


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an ArtStandardPrompt, one ArtStandardMessage or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    return parse_result(lambda: read_payload(payload, parse_message, DIALECT), FORMAT_ID)


def parse_message(raw: JSON, path: str) -> Message:
    """One ``ArtStandardMessage``; :class:`FormatError` naming the field when it is not."""
    source = require_mapping(raw, path or "payload")
    role = read_role(source, path, ROLES)
    if "content" not in source:
        raise FormatError("a message needs content (null when empty)", field=at(path, "content"))
    if role in RESULT_ROLES:
        return _parse_result(source, role, path)
    fields, rest = split(source, ("name", "tool_calls"), handled=("role", "content"), path=path)
    blocks, content_hint = _content_blocks(source["content"], role, at(path, "content"))
    raw_calls = fields.get("tool_calls")
    calls = [] if raw_calls is None else read_list(raw_calls, at(path, "tool_calls"), _parse_call)
    if raw_calls == []:
        rest["tool_calls"] = []  # UMF has no "an empty list was sent"
    return Message(
        role="assistant" if role == "tool_request" else role,  # type: ignore[arg-type]
        content=[*blocks, *calls],
        name=require_str(fields["name"], at(path, "name")) if "name" in fields else None,
        extra=NS.extra(
            rest, role="tool_request" if role == "tool_request" else None, content=content_hint
        ),
    )


def _content_blocks(content: JSON, role: str, path: str) -> tuple[list[Block], str | None]:
    """The blocks of a content value, and the ``$content`` hint when the renderer's
    default would spell it otherwise."""
    text, hint = _content_text(content, path)
    if text is None:
        return [], None if role in NULL_CONTENT_ROLES else hint
    return [TextBlock(text=text)], hint


def _content_text(content: JSON, path: str) -> tuple[str | None, str | None]:
    """The text of a content value (None for null), and its ``$content`` hint."""
    if content is None:
        return None, "null"
    if isinstance(content, str):
        return content, None
    if isinstance(content, dict):
        return json_text(content), "object"
    raise FormatError("content must be a string, an object or null", field=path)


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
        extra=NS.extra(
            unknown_fields(call, ("id", "type", "function"), path=path), function=inner or None
        ),
    )


def _parse_result(source: dict[str, Any], role: str, path: str) -> Message:
    fields, rest = split(source, ("name", "tool_call_id"), handled=("role", "content"), path=path)
    if "tool_call_id" not in fields:
        raise FormatError(f"a {role} message needs tool_call_id", field=at(path, "tool_call_id"))
    call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    name = require_str(fields["name"], at(path, "name")) if "name" in fields else None
    text, hint = _content_text(source["content"], at(path, "content"))
    block = ToolResultBlock(tool_use_id=call_id, content=text or "", name=name)
    return Message(
        role="tool",
        content=[block],
        name=name,
        tool_call_id=call_id,
        extra=NS.extra(rest, role=role if role == "tool" else None, content=hint),
    )
