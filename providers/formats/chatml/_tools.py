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

from typing import Any

from providers.formats._common import has_reserved_name, own_extra, parse_arguments
from providers.umf import Tool, ToolUseBlock

from ._shared import FORMAT_ID, TOOLS_HEAD, TOOLS_TAIL, get_hint, read_json, template_json

_MISSING = object()


# --------------------------------------------------------------------------- definitions


def split_tools_section(content: str) -> tuple[str, str, list[Tool]] | None:
    """``(system text, newlines before the section, tools)`` when ``content`` ends with
    the tools section, else None (the whole content is then plain text)."""
    if not content.endswith(TOOLS_TAIL) or TOOLS_HEAD not in content:
        return None
    start = content.rfind(TOOLS_HEAD)
    listing = content[start + len(TOOLS_HEAD) : len(content) - len(TOOLS_TAIL)]
    if listing and not listing.startswith("\n"):
        return None
    tools = [_tool_from_line(line) for line in listing.split("\n")[1:]]
    if any(tool is None for tool in tools):
        return None
    prefix = content[:start]
    body = prefix.rstrip("\n")
    return body, prefix[len(body) :], [tool for tool in tools if tool is not None]


def _tool_from_line(line: str) -> Tool | None:
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


def tool_line(tool: Tool) -> str:
    """One line of the ``<tools>`` listing: the source's own text while it still says the
    same thing, else the template's."""
    raw = get_hint(tool.extra, "raw")
    if isinstance(raw, str):
        again = _tool_from_line(raw)
        if again is not None and _same_tool(again, tool):
            return raw
    function: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        function["description"] = tool.description
    if tool.parameters is not None:
        function["parameters"] = tool.parameters
    function.update(own_extra(tool.extra, FORMAT_ID))
    outer = get_hint(tool.extra, "outer", {"type": "function"})
    if outer is None and "$outer" in tool.extra.get(FORMAT_ID, {}):
        return template_json(function)  # the source listed the bare function
    return template_json({**(outer or {}), "function": function})


def _same_tool(one: Tool, other: Tool) -> bool:
    return (one.name, one.description, one.parameters) == (
        other.name,
        other.description,
        other.parameters,
    ) and own_extra(one.extra, FORMAT_ID) == own_extra(other.extra, FORMAT_ID)


def tools_section(tools: list[Tool]) -> str:
    """The section the templates append to the system turn."""
    return TOOLS_HEAD + "".join(f"\n{tool_line(tool)}" for tool in tools) + TOOLS_TAIL


# --------------------------------------------------------------------------- calls


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


def call_json(block: ToolUseBlock) -> str:
    """The JSON body of a ``<tool_call>``: the source's own text while it still says the
    same thing, else the template's ``{"name": ..., "arguments": ...}``."""
    raw = get_hint(block.extra, "raw")
    if isinstance(raw, str):
        again = call_from_json(raw, block.id)
        if again is not None and _same_call(again, block):
            return raw
    body: dict[str, Any] = {"name": block.name}
    style = get_hint(block.extra, "arguments")
    if style == "string" and block.raw_arguments is not None:
        body["arguments"] = block.raw_arguments
    elif style != "absent":
        body["arguments"] = _arguments(block)
    body.update(own_extra(block.extra, FORMAT_ID))
    return template_json(body)


def _arguments(block: ToolUseBlock) -> Any:
    """The arguments as an object when the argument string says the same, else the string
    itself (text can carry even arguments that are not valid JSON)."""
    if block.raw_arguments is None:
        return block.input
    decoded, ok = parse_arguments(block.raw_arguments)
    return block.input if ok and decoded == block.input else block.raw_arguments


def _same_call(one: ToolUseBlock, other: ToolUseBlock) -> bool:
    return (one.name, one.input, one.raw_arguments) == (
        other.name,
        other.input,
        other.raw_arguments,
    ) and own_extra(one.extra, FORMAT_ID) == own_extra(other.extra, FORMAT_ID)
