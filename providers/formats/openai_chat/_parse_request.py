"""Request-level fields read: sampling parameters, ``tools`` and ``tool_choice``.

Hints on the conversation: ``$max_tokens_key`` when the limit was sent as the deprecated
``max_tokens`` (the default is ``max_completion_tokens``), ``$stop: string`` when ``stop``
was one string, ``$int_parameters`` for float parameters written as integers (``0``, not
``0.0``). Tools keep ``strict`` and the other function fields verbatim, fields beside
``function`` under ``$outer``; custom tools are marked ``$type: custom``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._chat_completions.parameters import integer, number, read_checked
from providers.formats._chat_completions.shape import read_allowed_mode, read_choice_mode
from providers.formats._kit.fields import (
    require_bool,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError
from providers.umf import JSON, Parameters, Tool, ToolChoice

from ._constants import FLOAT_PARAMETERS, NAMESPACE

_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": number,
    "top_p": number,
    "frequency_penalty": number,
    "presence_penalty": number,
    "seed": integer,
    "user": require_str,
    "parallel_tool_calls": require_bool,
    "stream": require_bool,
}


PARAMETER_KEYS = (*_CHECKS, "max_tokens", "max_completion_tokens", "stop")


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values, kept, ints = read_checked(fields, base, _CHECKS, FLOAT_PARAMETERS)
    hints: dict[str, Any] = {}
    if "max_tokens" in fields:
        values["max_tokens"] = integer(fields["max_tokens"], at(base, "max_tokens"))
        hints["max_tokens_key"] = "max_tokens"
        if "max_completion_tokens" in fields:
            kept["max_completion_tokens"] = fields["max_completion_tokens"]
    elif "max_completion_tokens" in fields:
        values["max_tokens"] = integer(
            fields["max_completion_tokens"], at(base, "max_completion_tokens")
        )
    if "stop" in fields:
        values["stop"], hints["stop"] = _parse_stop(fields["stop"], at(base, "stop"))
    hints["int_parameters"] = ints
    return Parameters(**values), hints, kept


def _parse_stop(value: JSON, path: str) -> tuple[list[str], str | None]:
    if isinstance(value, str):
        return [value], "string"
    for index, sequence in enumerate(require_list(value, path)):
        require_str(sequence, item(path, index))
    return list(value), None


def parse_tools(raw: JSON, path: str) -> list[Tool]:
    """The ``tools`` array (function and custom tools)."""
    return [parse_tool(tool, item(path, i)) for i, tool in enumerate(require_list(raw, path))]


def parse_tool(raw: JSON, path: str) -> Tool:
    """One tool definition; :class:`FormatError` for types Chat Completions does not have."""
    tool = require_mapping(raw, path)
    kind = tool.get("type")
    if kind not in ("function", "custom"):
        raise FormatError("tool type must be function or custom", field=at(path, "type"))
    inner_path = at(path, kind)
    inner = require_mapping(tool.get(kind), inner_path)
    name = require_str(inner.get("name"), at(inner_path, "name"))
    mapped = ("description", "parameters") if kind == "function" else ("description",)
    rest = unknown_fields(inner, ("name", *mapped), path=inner_path)
    values: dict[str, Any] = {}
    for key in mapped:
        if inner.get(key) is None and key in inner:
            rest[key] = None
        elif key in inner:
            check = require_str if key == "description" else require_mapping
            values[key] = check(inner[key], at(inner_path, key))
    outer = unknown_fields(tool, ("type", kind), path=path)
    hints = {"outer": outer or None, "type": "custom" if kind == "custom" else None}
    return Tool(name=name, **values, extra=NAMESPACE.extra(rest, **hints))


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``tool_choice``: a mode string, a named function or custom tool, or allowed_tools."""
    if isinstance(raw, str):
        return read_choice_mode(raw, path)
    choice = require_mapping(raw, path)
    kind = choice.get("type")
    if kind == "allowed_tools":
        allowed = require_mapping(choice.get("allowed_tools"), at(path, "allowed_tools"))
        return ToolChoice(
            type=read_allowed_mode(allowed.get("mode"), at(path, "allowed_tools.mode")),
            extra=NAMESPACE.extra(unknown_fields(choice, ("type",), path=path), type=kind),
        )
    if kind not in ("function", "custom"):
        raise FormatError(
            "tool_choice type must be function, custom or allowed_tools", field=at(path, "type")
        )
    inner = require_mapping(choice.get(kind), at(path, kind))
    name = require_str(inner.get("name"), at(path, f"{kind}.name"))
    rest = unknown_fields(inner, ("name",), path=at(path, kind))
    hints = {"inner": rest or None, "type": "custom" if kind == "custom" else None}
    return ToolChoice(
        type="tool",
        name=name,
        extra=NAMESPACE.extra(unknown_fields(choice, ("type", kind), path=path), **hints),
    )
