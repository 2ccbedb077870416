"""Reading Mistral chat messages into UMF messages.

* ``content`` becomes blocks; how it was spelled (string, chunks, null, absent) is the
  ``$content`` hint, written only when the renderer's default would spell it otherwise.
  Chunks UMF has no block for (``reference``, ``resource``...) are kept verbatim with their
  positions in the message's ``unmapped_chunks`` field.
* ``tool_calls`` become tool-use blocks: ``raw_arguments`` is the exact argument string,
  or the arguments were an object (``$arguments: object``).
* ``tool`` messages become role ``tool`` with one tool-result block; ``name`` is the
  message's and the result's name. ``prefix`` and other fields stay verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from providers.formats._chatlike import ParseState, at, content_hint, item, read_content, split
from providers.formats._common import (
    parse_arguments,
    require_list,
    require_mapping,
    require_str,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Block, Message, ToolResultBlock, ToolUseBlock

from ._chunks import is_unmapped, parse_chunk
from ._shared import NS, ROLES, UNMAPPED_CHUNKS


@dataclass
class _Content:
    blocks: list[Block]
    kind: str
    hint: str | None
    unmapped: list[dict[str, Any]]


def parse_messages(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """The messages of a ``messages`` array (``path`` is where the array is)."""
    items = require_list(raw, path or "payload")
    return [parse_message(message, item(path, i), state) for i, message in enumerate(items)]


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One message; :class:`FormatError` naming the field when it is not a valid one."""
    source = require_mapping(raw, path)
    if UNMAPPED_CHUNKS in source:
        raise FormatError(
            f"{UNMAPPED_CHUNKS!r} is a reserved name", field=at(path, UNMAPPED_CHUNKS)
        )
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    if role == "tool":
        return _parse_tool(source, path, state)
    mapped = ("tool_calls",) if role == "assistant" else ()
    fields, rest = split(source, mapped, handled=("role", "content"), path=path)
    if fields.get("tool_calls") == []:
        rest["tool_calls"] = fields.pop("tool_calls")  # UMF has no "an empty list was sent"
    content = _read(source, path, role)
    calls_path = at(path, "tool_calls")
    raw_calls = require_list(fields["tool_calls"], calls_path) if fields else []
    calls = [_parse_call(call, item(calls_path, i), state) for i, call in enumerate(raw_calls)]
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=[*content.blocks, *calls],
        extra=NS.extra(_with_unmapped(rest, content), content=content.hint),
    )


def _read(source: dict[str, Any], path: str, role: str) -> _Content:
    """The content's blocks, with unmapped chunks set aside, and the spelling hint."""
    raw = source.get("content")
    if not isinstance(raw, list):
        blocks, parts, kind = read_content(source, path, partial(parse_chunk, role=role))
        return _Content(blocks, kind, content_hint(parts, role, kind), [])
    content_path = at(path, "content")
    blocks, unmapped = [], []
    for index, chunk in enumerate(raw):
        if is_unmapped(chunk):
            unmapped.append({"at": index, "chunk": chunk})
        else:
            blocks.append(parse_chunk(chunk, item(content_path, index), role))
    return _Content(blocks, "parts", content_hint(raw, role, "parts"), unmapped)


def _with_unmapped(rest: dict[str, Any], content: _Content) -> dict[str, Any]:
    return {**rest, UNMAPPED_CHUNKS: content.unmapped} if content.unmapped else rest


def _parse_call(raw: JSON, path: str, state: ParseState) -> Block:
    call = require_mapping(raw, path)
    call_id = require_str(call.get("id"), at(path, "id"))
    if call.get("type", "function") != "function":
        raise FormatError("tool call type must be function", field=at(path, "type"))
    function_path = at(path, "function")
    function = require_mapping(call.get("function"), function_path)
    name = require_str(function.get("name"), at(function_path, "name"))
    arguments = function.get("arguments")
    if isinstance(arguments, dict):
        value, raw_arguments, form = arguments, None, "object"
    else:
        raw_arguments = require_str(arguments, at(function_path, "arguments"))
        (value, _), form = parse_arguments(raw_arguments), None
    state.call_names[call_id] = name
    _, inner = split(function, (), handled=("name", "arguments"), path=function_path)
    _, outer = split(call, (), handled=("id", "type", "function"), path=path)
    type_hint = "absent" if "type" not in call else None
    return ToolUseBlock(
        id=call_id,
        name=name,
        input=value,
        raw_arguments=raw_arguments,
        extra=NS.extra(outer, inner=inner or None, type=type_hint, arguments=form),
    )


def _parse_tool(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(source, ("tool_call_id", "name"), handled=("role", "content"), path=path)
    call_id = ""
    if "tool_call_id" in fields:
        call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    name = require_str(fields["name"], at(path, "name")) if "name" in fields else None
    content = _read(source, path, "tool")
    value: str | list[Block] = content.blocks
    if content.kind == "string":
        value = source["content"]
    elif content.kind in ("absent", "null"):
        value = ""
    result = ToolResultBlock(
        tool_use_id=call_id, content=value, name=name or state.call_names.get(call_id)
    )
    hints = {
        "content": content.kind if content.kind in ("absent", "null") else None,
        "call_id": "absent" if "tool_call_id" not in source else None,
    }
    return Message(
        role="tool",
        content=[result],
        name=name,
        tool_call_id=call_id or None,
        extra=NS.extra(_with_unmapped(rest, content), **hints),
    )
