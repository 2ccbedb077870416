"""Forge message text <-> UMF blocks.

An assistant's text holds, in any order: thinking lines ``[like this]`` (each bracketed
line; consecutive ones are one thinking block, a line each), tool calls ``<tool>...</tool>``
(pure XML with ``server_name`` / ``tool_name`` / ``arguments``, or the deprecated JSON
object inside the tags), and plain text. Blocks are written back in order, separated by a
blank line. A tool message is ``Tool: <name>\\n<result>``; a result starting with
``Error: `` is an error.

Reading never fails: a ``<tool>`` block that is neither Forge XML nor Forge JSON, or that
names no tool, stays plain text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from providers.formats._common import has_reserved_name
from providers.umf import ThinkingBlock, ToolUseBlock

from ._shared import make_extra
from ._xml import Element, XmlError, escape_text, is_tag, parse_children, render_value

_THINKING_LINE = re.compile(r"\[(.*)\]")
_TOOL_OPEN, _TOOL_CLOSE = "<tool>", "</tool>"
TOOL_PREFIX = "Tool: "
ERROR_PREFIX = "Error: "


@dataclass
class Call:
    """A tool call read from text, before it gets its id."""

    name: str
    input: Any
    fields: dict[str, Any]
    form: str | None  # "json" for the deprecated JSON form


Segment = str | Call | ThinkingBlock


def read_assistant(text: str) -> list[Segment]:
    """The pieces of an assistant's text, in order: text, calls and thinking."""
    segments: list[Segment] = []
    for piece in _split_tools(text):
        call = _read_call(piece[len(_TOOL_OPEN) : -len(_TOOL_CLOSE)]) if _is_tool(piece) else None
        if call is not None:
            segments.append(call)
        else:
            _read_lines(piece, segments)
    return _merge_text(segments)


def _is_tool(piece: str) -> bool:
    return piece.startswith(_TOOL_OPEN) and piece.endswith(_TOOL_CLOSE)


def _split_tools(text: str) -> list[str]:
    """The text cut around each ``<tool>...</tool>`` (a ``</tool>`` inside CDATA does not
    close it)."""
    pieces, position = [], 0
    while (start := text.find(_TOOL_OPEN, position)) >= 0:
        end = _tool_end(text, start + len(_TOOL_OPEN))
        if end < 0:
            break
        pieces += [text[position:start], text[start:end]]
        position = end
    pieces.append(text[position:])
    return [piece for piece in pieces if piece]


def _tool_end(text: str, position: int) -> int:
    while True:
        close = text.find(_TOOL_CLOSE, position)
        cdata = text.find("<![CDATA[", position)
        if close < 0 or cdata < 0 or close < cdata:
            return -1 if close < 0 else close + len(_TOOL_CLOSE)
        cdata_end = text.find("]]>", cdata)
        if cdata_end < 0:
            return -1
        position = cdata_end + 3


def _read_lines(text: str, segments: list[Segment]) -> None:
    thinking: list[str] = []
    for line in text.split("\n"):
        match = _THINKING_LINE.fullmatch(line)
        if match is not None:
            thinking.append(match.group(1))
            continue
        if thinking:
            segments.append(ThinkingBlock(text="\n".join(thinking)))
            thinking = []
        segments.append(line + "\n")
    if thinking:
        segments.append(ThinkingBlock(text="\n".join(thinking)))


def _merge_text(segments: list[Segment]) -> list[Segment]:
    """Adjacent text pieces as one, without the blank lines around it; blank ones go."""
    merged: list[Segment] = []
    for segment in segments:
        if isinstance(segment, str) and merged and isinstance(merged[-1], str):
            merged[-1] += segment
        else:
            merged.append(segment)
    cleaned: list[Segment] = []
    for segment in merged:
        if isinstance(segment, str):
            segment = _trim(segment)
            if not segment.strip():
                continue
        cleaned.append(segment)
    return cleaned


def _trim(text: str) -> str:
    return text.strip("\n")


def _read_call(inner: str) -> Call | None:
    if inner.strip().startswith("{"):
        return _read_json_call(inner)
    try:
        children = parse_children(inner)
        fields = {child.tag: child for child in children}
        if len(fields) != len(children) or "tool_name" not in fields:
            return None
        name = fields["tool_name"].value()
        arguments = _arguments(fields.get("arguments"))
        extra = {k: v.value() for k, v in fields.items() if k not in ("tool_name", "arguments")}
    except XmlError:
        return None
    if not isinstance(name, str) or not isinstance(arguments, dict):
        return None
    return Call(name, arguments, extra, None)


def _arguments(element: Element | None) -> Any:
    if element is None:
        return {}
    value = element.value()
    return {} if isinstance(value, str) and not value.strip() else value


def _read_json_call(inner: str) -> Call | None:
    try:
        value = json.loads(inner)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("tool_name"), str):
        return None
    if has_reserved_name(value):
        return None  # a ``$`` field would pass for a hint in ``extra``: the block stays text
    fields = {k: v for k, v in value.items() if k not in ("tool_name", "arguments")}
    return Call(value["tool_name"], value.get("arguments", {}), fields, "json")


# --------------------------------------------------------------------------- writing


def write_call(block: ToolUseBlock, fields: dict[str, Any], form: str | None) -> str:
    """A ``<tool>`` block: pure XML when it reads back as the same call, else the
    deprecated JSON form (which carries any JSON exactly)."""
    if form != "json":
        xml = _xml_call(block.name, block.input, fields)
        if xml is not None:
            return xml
    body = {**fields, "tool_name": block.name, "arguments": block.input}
    if "server_name" in fields:
        body = {"server_name": fields["server_name"], **body}
    return f"{_TOOL_OPEN}\n{json.dumps(body, indent=2, ensure_ascii=False)}\n{_TOOL_CLOSE}"


def _xml_call(name: str, arguments: Any, fields: dict[str, Any]) -> str | None:
    if not isinstance(arguments, dict) or not all(is_tag(key) for key in arguments):
        return None
    if not all(is_tag(key) and isinstance(value, str) for key, value in fields.items()):
        return None
    lines = [line for key, value in fields.items() for line in render_value(key, value, "")]
    lines.append(f"<tool_name>{escape_text(name)}</tool_name>")
    lines += render_value("arguments", arguments, "")
    text = "\n".join([_TOOL_OPEN, *lines, _TOOL_CLOSE])
    call = _read_call(text[len(_TOOL_OPEN) : -len(_TOOL_CLOSE)])
    exact = call is not None and (call.name, call.input, call.fields) == (name, arguments, fields)
    return text if exact else None


def write_thinking(text: str) -> str:
    """Thinking as bracketed lines, one per line of the text."""
    return "\n".join(f"[{line}]" for line in text.split("\n"))


def write_result(name: str, content: str, is_error: bool) -> str:
    """A tool message's text: ``Tool: <name>`` and the result on the next line."""
    return f"{TOOL_PREFIX}{name}\n{ERROR_PREFIX if is_error else ''}{content}"


def read_result(text: str) -> tuple[str, str, bool] | None:
    """``(tool name, result, is_error)`` of a tool message's text, or None when it does
    not start with ``Tool: <name>``."""
    if not text.startswith(TOOL_PREFIX):
        return None
    name, _, result = text[len(TOOL_PREFIX) :].partition("\n")
    if not name.strip():
        return None
    if result.startswith(ERROR_PREFIX):
        return name, result[len(ERROR_PREFIX) :], True
    return name, result, False


def call_block(call: Call, call_id: str) -> ToolUseBlock:
    """The tool-use block of a call read from text."""
    return ToolUseBlock(
        id=call_id,
        name=call.name,
        input=call.input,
        extra=make_extra(call.fields, form=call.form),
    )
