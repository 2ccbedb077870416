"""Tools as ChatML text, written: the ``# Tools`` section of the system turn and
``<tool_call>`` JSON, the source's own text (its ``$raw`` hint) while reading it still
gives the same UMF value, else the template's (see :mod:`._parse_tools`)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from providers.formats._kit.wire import parse_arguments, tool_definition
from providers.formats.chatml._constants import NS, TOOLS_HEAD, TOOLS_TAIL
from providers.formats.chatml._parse_tools import call_from_json, tool_from_line
from providers.formats.chatml._rules import template_json
from providers.umf import Tool, ToolUseBlock


def tool_line(tool: Tool) -> str:
    """One line of the ``<tools>`` listing: the source's own text while it still says the
    same thing, else the template's."""
    raw = NS.hint(tool.extra, "raw")
    if isinstance(raw, str):
        again = tool_from_line(raw)
        if again is not None and _same(again, tool, "name", "description", "parameters"):
            return raw
    function = tool_definition(tool)
    function.update(NS.fields(tool.extra))
    outer = NS.hint(tool.extra, "outer", {"type": "function"})
    if outer is None and "$outer" in tool.extra.get(NS.format_id, {}):
        return template_json(function)  # the source listed the bare function
    return template_json({**(outer or {}), "function": function})


def _same(one: Tool | ToolUseBlock, other: Tool | ToolUseBlock, *names: str) -> bool:
    """Whether the source's own text, read again as ``one``, still says ``other``: the same
    ``names`` and the same fields of this format."""
    read = attrgetter(*names)
    return read(one) == read(other) and NS.fields(one.extra) == NS.fields(other.extra)


def tools_section(tools: list[Tool]) -> str:
    """The section the templates append to the system turn."""
    return TOOLS_HEAD + "".join(f"\n{tool_line(tool)}" for tool in tools) + TOOLS_TAIL


def call_json(block: ToolUseBlock) -> str:
    """The JSON body of a ``<tool_call>``: the source's own text while it still says the
    same thing, else the template's ``{"name": ..., "arguments": ...}``."""
    raw = NS.hint(block.extra, "raw")
    if isinstance(raw, str):
        again = call_from_json(raw, block.id)
        if again is not None and _same(again, block, "name", "input", "raw_arguments"):
            return raw
    body: dict[str, Any] = {"name": block.name}
    style = NS.hint(block.extra, "arguments")
    if style == "string" and block.raw_arguments is not None:
        body["arguments"] = block.raw_arguments
    elif style != "absent":
        body["arguments"] = _arguments(block)
    body.update(NS.fields(block.extra))
    return template_json(body)


def _arguments(block: ToolUseBlock) -> Any:
    """The arguments as an object when the argument string says the same, else the string
    itself (text can carry even arguments that are not valid JSON)."""
    if block.raw_arguments is None:
        return block.input
    decoded, ok = parse_arguments(block.raw_arguments)
    return block.input if ok and decoded == block.input else block.raw_arguments
