"""Request-level fields read: sampling parameters, ``tools`` and ``tool_choice``.

Hints on the conversation: ``$int_parameters`` for float parameters written as integers
(``1``, not ``1.0``). Function tools keep ``strict`` and their other fields verbatim; custom
tools are marked ``$type: custom``; hosted tools (``web_search``, ``file_search``, ``mcp``...)
have no UMF name and stay verbatim with their position in the conversation's
``unmapped_tools`` field. A hosted-tool ``tool_choice`` stays verbatim as the conversation's
``tool_choice`` field; ``allowed_tools`` becomes its mode, marked ``$type: allowed_tools``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._chat_completions.parameters import integer, number, read_checked
from providers.formats._chat_completions.shape import read_allowed_mode, read_choice_mode
from providers.formats._kit.fields import require_bool, require_list, require_mapping, require_str
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError
from providers.umf import JSON, Parameters, Tool, ToolChoice

from ._constants import NS
from ._parse_parts import plain

_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": number,
    "top_p": number,
    "max_output_tokens": integer,
    "parallel_tool_calls": require_bool,
    "stream": require_bool,
    "user": require_str,
}
PARAMETER_KEYS = tuple(_CHECKS)
FLOATS = ("temperature", "top_p")


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values, kept, ints = read_checked(fields, base, _CHECKS, FLOATS)
    if "max_output_tokens" in values:
        values["max_tokens"] = values.pop("max_output_tokens")
    return Parameters(**values), {"int_parameters": ints}, kept


def parse_tools(raw: JSON, path: str) -> tuple[list[Tool], list[dict[str, Any]]]:
    """``(function and custom tools, hosted tools kept verbatim with their positions)``."""
    tools: list[Tool] = []
    hosted: list[dict[str, Any]] = []
    for index, raw_tool in enumerate(require_list(raw, path)):
        tool_path = item(path, index)
        tool = plain(raw_tool, tool_path)
        kind = tool.get("type")
        if not isinstance(kind, str):
            raise FormatError("a tool needs a string type", field=at(tool_path, "type"))
        if kind in ("function", "custom"):
            tools.append(_parse_tool(tool, kind, tool_path))
        else:
            hosted.append({"at": index, "tool": tool})
    return tools, hosted


def _parse_tool(tool: dict[str, Any], kind: str, path: str) -> Tool:
    name = require_str(tool.get("name"), at(path, "name"))
    rest = {k: v for k, v in tool.items() if k not in ("type", "name", "description", "parameters")}
    values: dict[str, Any] = {}
    if tool.get("description") is not None:
        values["description"] = require_str(tool["description"], at(path, "description"))
    elif "description" in tool:
        rest["description"] = None
    if kind == "function" and tool.get("parameters") is not None:
        # JSON Schema's own "$" keywords ($defs, $ref) are data: no check for hint names.
        values["parameters"] = require_mapping(tool["parameters"], at(path, "parameters"))
    elif "parameters" in tool:
        rest["parameters"] = tool["parameters"]
    custom = "custom" if kind == "custom" else None
    return Tool(name=name, **values, extra=NS.extra(rest, type=custom))


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice | None:
    """``tool_choice`` as UMF; None for a hosted-tool choice (kept verbatim by the caller)."""
    if isinstance(raw, str):
        return read_choice_mode(raw, path)
    choice = plain(raw, path)
    kind = choice.get("type")
    if kind in ("function", "custom"):
        name = require_str(choice.get("name"), at(path, "name"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "name")}
        custom = "custom" if kind == "custom" else None
        return ToolChoice(type="tool", name=name, extra=NS.extra(rest, type=custom))
    if kind == "allowed_tools":
        mode = read_allowed_mode(choice.get("mode"), at(path, "mode"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "mode")}
        return ToolChoice(type=mode, extra=NS.extra(rest, type=kind))
    if not isinstance(kind, str):
        raise FormatError("a tool_choice object needs a string type", field=at(path, "type"))
    return None
