"""Reading Cohere v2 chat messages into UMF messages.

* ``content`` becomes blocks; how it was spelled (string, parts, null, absent) is the
  ``$content`` hint, written only when the renderer's default would spell it otherwise.
* An assistant's ``tool_plan`` becomes a text block marked ``$field: tool_plan`` after the
  content, its ``tool_calls`` tool-use blocks (``raw_arguments`` is the exact string), its
  ``citations`` the citations of its first content text block (marked ``$citations``).
* ``tool`` messages become role ``tool`` with one tool-result block named after its call.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chatlike import ParseState, at, content_hint, item, read_content, split
from providers.formats._common import (
    parse_arguments,
    require_list,
    require_mapping,
    require_str,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Block, Message, TextBlock, ToolResultBlock, ToolUseBlock

from ._content import parse_part
from ._shared import NS, ROLES


def parse_messages(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """The messages of a ``messages`` array (``path`` is where the array is)."""
    items = require_list(raw, path or "payload")
    return [parse_message(message, item(path, i), state) for i, message in enumerate(items)]


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One message; :class:`FormatError` naming the field when it is not a valid one."""
    source = require_mapping(raw, path)
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    if role == "tool":
        return _parse_tool(source, path, state)
    if role == "assistant":
        return _parse_assistant(source, path, state)
    _, rest = split(source, (), handled=("role", "content"), path=path)
    blocks, parts, kind = _read(source, path, role)
    hint = content_hint(parts, role, kind)
    return Message(role=role, content=blocks, extra=NS.extra(rest, content=hint))  # type: ignore[arg-type]  # checked against ROLES


def _read(source: dict[str, Any], path: str, role: str) -> tuple[list[Block], list[Any], str]:
    return read_content(source, path, lambda part, part_path: parse_part(part, part_path, role))


def _parse_assistant(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(
        source, ("tool_calls", "tool_plan", "citations"), handled=("role", "content"), path=path
    )
    if fields.get("tool_calls") == []:
        rest["tool_calls"] = fields.pop("tool_calls")  # UMF has no "an empty list was sent"
    blocks, parts, kind = _read(source, path, "assistant")
    plan: list[Block] = []
    if "tool_plan" in fields:
        text = require_str(fields["tool_plan"], at(path, "tool_plan"))
        plan.append(TextBlock(text=text, extra=NS.extra({}, field="tool_plan")))
    calls_path = at(path, "tool_calls")
    raw_calls = require_list(fields["tool_calls"], calls_path) if "tool_calls" in fields else []
    calls = [_parse_call(call, item(calls_path, i), state) for i, call in enumerate(raw_calls)]
    if "citations" in fields and not _attach_citations(blocks, fields["citations"]):
        rest["citations"] = fields["citations"]
    hint = content_hint(parts, "assistant", kind)
    return Message(
        role="assistant", content=[*blocks, *plan, *calls], extra=NS.extra(rest, content=hint)
    )


def _attach_citations(blocks: list[Block], citations: JSON) -> bool:
    # Citations point into the message's text: they ride on its first text block.
    if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
        return False
    for block in blocks:
        if isinstance(block, TextBlock):
            block.citations = citations
            NS.add_hints(block.extra, citations="message")
            return True
    return False


def _parse_call(raw: JSON, path: str, state: ParseState) -> Block:
    call = require_mapping(raw, path)
    call_id = require_str(call.get("id"), at(path, "id"))
    if call.get("type", "function") != "function":
        raise FormatError("tool call type must be function", field=at(path, "type"))
    function_path = at(path, "function")
    function = require_mapping(call.get("function"), function_path)
    name = require_str(function.get("name"), at(function_path, "name"))
    raw_arguments = require_str(function.get("arguments"), at(function_path, "arguments"))
    value, _ = parse_arguments(raw_arguments)
    state.call_names[call_id] = name
    _, inner = split(function, (), handled=("name", "arguments"), path=function_path)
    _, outer = split(call, (), handled=("id", "type", "function"), path=path)
    type_hint = "absent" if "type" not in call else None
    return ToolUseBlock(
        id=call_id,
        name=name,
        input=value,
        raw_arguments=raw_arguments,
        extra=NS.extra(outer, inner=inner or None, type=type_hint),
    )


def _parse_tool(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(source, ("tool_call_id",), handled=("role", "content"), path=path)
    if "tool_call_id" not in fields:
        raise FormatError("a tool message needs tool_call_id", field=at(path, "tool_call_id"))
    call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    content: str | list[Block] = ""
    kind = None
    if "content" not in source or source["content"] is None:
        kind = "absent" if "content" not in source else "null"
    elif isinstance(source["content"], str):
        content = source["content"]
    else:
        blocks, _, _ = _read(source, path, "tool")
        content = blocks
    block = ToolResultBlock(
        tool_use_id=call_id, content=content, name=state.call_names.get(call_id)
    )
    return Message(
        role="tool", content=[block], tool_call_id=call_id, extra=NS.extra(rest, content=kind)
    )
