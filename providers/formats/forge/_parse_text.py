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

from providers.formats._kit.fields import has_reserved_name
from providers.formats.forge._constants import (
    ERROR_PREFIX,
    NS,
    TOOL_CLOSE,
    TOOL_OPEN,
    TOOL_PREFIX,
)
from providers.formats.forge._parse_xml import Element, XmlError, parse_children
from providers.umf import ThinkingBlock, ToolUseBlock

_THINKING_LINE = re.compile(r"\[(.*)\]")


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
        call = read_call(piece[len(TOOL_OPEN) : -len(TOOL_CLOSE)]) if _is_tool(piece) else None
        if call is not None:
            segments.append(call)
        else:
            _read_lines(piece, segments)
    return _merge_text(segments)


def _is_tool(piece: str) -> bool:
    return piece.startswith(TOOL_OPEN) and piece.endswith(TOOL_CLOSE)


def _split_tools(text: str) -> list[str]:
    """The text cut around each ``<tool>...</tool>`` (a ``</tool>`` inside CDATA does not
    close it)."""
    pieces, position = [], 0
    while (start := text.find(TOOL_OPEN, position)) >= 0:
        end = _tool_end(text, start + len(TOOL_OPEN))
        if end < 0:
            break
        pieces += [text[position:start], text[start:end]]
        position = end
    pieces.append(text[position:])
    return [piece for piece in pieces if piece]


def _tool_end(text: str, position: int) -> int:
    while True:
        close = text.find(TOOL_CLOSE, position)
        cdata = text.find("<![CDATA[", position)
        if close < 0 or cdata < 0 or close < cdata:
            return -1 if close < 0 else close + len(TOOL_CLOSE)
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


def read_call(inner: str) -> Call | None:
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
        extra=NS.extra(call.fields, form=call.form),
    )
