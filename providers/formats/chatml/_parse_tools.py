"""Tools as ChatML text: definitions in the system turn, calls as ``<tool_call>`` JSON.

Definitions follow the Qwen2.5/Qwen3 templates: a ``# Tools`` section at the end of the
system turn listing one JSON object per line inside ``<tools></tools>``
(``{"type": "function", "function": {...}}``; a bare ``{"name": ...}`` reads too). Calls are
``{"name": ..., "arguments": ...}`` (arguments an object, or a JSON string some models write).

Text is written the way the templates write it (:func:`template_json`). The source's exact
text is kept in a ``$raw`` hint, always: its spacing, key order and escapes may differ from
the template's, and storage may reorder the keys of the parsed objects (PostgreSQL
``jsonb``). It is written back only while reading it still gives the same UMF value, so a
hint can never override an edit.
"""

from __future__ import annotations

import json
from typing import Any

from providers.formats._kit.fields import has_reserved_name
from providers.formats._kit.wire import parse_arguments
from providers.formats.chatml._constants import FORMAT_ID, TOOLS_HEAD, TOOLS_TAIL
from providers.umf import Tool, ToolUseBlock

_MISSING = object()


def split_tools_section(content: str) -> tuple[str, str, list[Tool]] | None:
    """``(system text, newlines before the section, tools)`` when ``content`` ends with
    the tools section, else None (the whole content is then plain text)."""
    if not content.endswith(TOOLS_TAIL) or TOOLS_HEAD not in content:
        return None
    start = content.rfind(TOOLS_HEAD)
    listing = content[start + len(TOOLS_HEAD) : len(content) - len(TOOLS_TAIL)]
    if listing and not listing.startswith("\n"):
        return None
    tools = [tool_from_line(line) for line in listing.split("\n")[1:]]
    if any(tool is None for tool in tools):
        return None
    prefix = content[:start]
    body = prefix.rstrip("\n")
    return body, prefix[len(body) :], [tool for tool in tools if tool is not None]


def tool_from_line(line: str) -> Tool | None:
    value, ok = read_json(line)
    if not ok or not isinstance(value, dict):
        return None
    function = value.get("function") if "function" in value else value
    outer = {k: v for k, v in value.items() if k != "function"} if "function" in value else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    if has_reserved_name(function) or has_reserved_name(outer or ()):
        return None  # a ``$`` field would pass for a hint in ``extra``: the line stays text
    description, parameters = function.get("description"), function.get("parameters")
    if not isinstance(description, str | None) or not isinstance(parameters, dict | None):
        return None
    fields = {k: v for k, v in function.items() if k not in ("name", "description", "parameters")}
    tool = Tool(name=function["name"], description=description, parameters=parameters)
    tool.extra = {FORMAT_ID: {**fields, "$outer": outer, "$raw": line}}
    return tool


def call_from_json(text: str, call_id: str) -> ToolUseBlock | None:
    """The call a ``<tool_call>`` body describes, or None when it is not one."""
    value, ok = read_json(text)
    if not ok or not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    if has_reserved_name(value):
        return None  # a ``$`` field would pass for a hint in ``extra``: the body stays text
    arguments = value.get("arguments", _MISSING)
    fields = {k: v for k, v in value.items() if k not in ("name", "arguments")}
    hints: dict[str, Any] = {}
    block = ToolUseBlock(id=call_id, name=value["name"])
    if arguments is _MISSING:
        hints["$arguments"] = "absent"
    elif isinstance(arguments, str):
        decoded, decoded_ok = parse_arguments(arguments)
        block.input, block.raw_arguments = (decoded if decoded_ok else {}), arguments
        hints["$arguments"] = "string"
    else:
        block.input = arguments
    block.extra = {FORMAT_ID: {**fields, **hints, "$raw": text}}
    return block


def read_json(text: str) -> tuple[Any, bool]:
    """``(value, ok)`` for JSON text (``(None, False)`` when it is not JSON, including
    the ``NaN`` / ``Infinity`` that Python would otherwise accept)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant), True
    except (ValueError, RecursionError):
        return None, False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
