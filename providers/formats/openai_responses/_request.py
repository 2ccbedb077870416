"""Request-level fields: sampling parameters, ``tools`` and ``tool_choice``.

Hints on the conversation: ``$int_parameters`` for float parameters written as integers
(``1``, not ``1.0``). Function tools keep ``strict`` and their other fields verbatim; custom
tools are marked ``$type: custom``; hosted tools (``web_search``, ``file_search``, ``mcp``...)
have no UMF name and stay verbatim with their position in the conversation's
``unmapped_tools`` field. A hosted-tool ``tool_choice`` stays verbatim as the conversation's
``tool_choice`` field; ``allowed_tools`` becomes its mode, marked ``$type: allowed_tools``.

Rendering for other formats' conversations: ``max_output_tokens`` is at least 16
(``parameter-clamped``); the Responses API has no stop sequences, seed, top_k or penalties
(``parameter-unsupported``); a function tool without a schema gets an empty object schema
(``parameter-defaulted``) and ``strict: false``, which is what every other format means.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._common import require_list, require_mapping, require_str
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Parameters, Tool, ToolChoice

from ._shared import (
    DEFAULT_MODEL,
    UNMAPPED_TOOLS,
    RenderContext,
    at,
    fields_of,
    get_hint,
    is_int,
    is_number,
    item,
    make_extra,
    plain,
    put_fields,
    report_foreign_extra,
    unmapped,
)


def _number(value: JSON, path: str) -> Any:
    if not is_number(value):
        raise FormatError("expected a number", field=path)
    return value


def _integer(value: JSON, path: str) -> Any:
    if not is_int(value):
        raise FormatError("expected an integer", field=path)
    return value


def _boolean(value: JSON, path: str) -> Any:
    if not isinstance(value, bool):
        raise FormatError("expected a boolean", field=path)
    return value


_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": _number,
    "top_p": _number,
    "max_output_tokens": _integer,
    "parallel_tool_calls": _boolean,
    "stream": _boolean,
    "user": require_str,
}
PARAMETER_KEYS = tuple(_CHECKS)
_FLOATS = ("temperature", "top_p")
_RANGES = {"temperature": (0.0, 2.0), "top_p": (0.0, 1.0)}
MIN_OUTPUT_TOKENS = 16
_UNSUPPORTED = ("top_k", "stop", "seed", "frequency_penalty", "presence_penalty")
_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


# --------------------------------------------------------------------------- parameters


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values = {
        key: check(fields[key], at(base, key)) for key, check in _CHECKS.items() if key in fields
    }
    # An integer no float can hold (absurd, but valid JSON) stays verbatim.
    kept = {
        key: values.pop(key)
        for key in _FLOATS
        if key in values and float(values[key]) != values[key]
    }
    ints = [key for key in _FLOATS if is_int(values.get(key))] or None
    if "max_output_tokens" in values:
        values["max_tokens"] = values.pop("max_output_tokens")
    return Parameters(**values), {"int_parameters": ints}, kept


def render_parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any]:
    """The request's parameters; what the API cannot take is left out with a warning."""
    parameters = conversation.parameters
    out: dict[str, Any] = {}
    if parameters.model or (ctx.faithful and parameters.model is not None):
        out["model"] = parameters.model
    elif not ctx.faithful:
        out["model"] = DEFAULT_MODEL
        ctx.drift.add(
            "parameter-defaulted",
            "OpenAI requires a model; the default one was filled in",
            field="parameters.model",
            original=parameters.model,
            transformed=DEFAULT_MODEL,
        )
    _render_numbers(parameters, get_hint(conversation.extra, "int_parameters", []), out, ctx)
    for key in ("stream", "user"):
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    _render_parallel(parameters, bool(conversation.tools), out, ctx)
    _report_unsupported(parameters, ctx)
    return out


def _render_numbers(
    parameters: Parameters, ints: list[str], out: dict[str, Any], ctx: RenderContext
) -> None:
    for key in _FLOATS:
        value = getattr(parameters, key)
        if value is not None:
            value = value if ctx.faithful else _clamp(key, value, _RANGES[key], ctx)
            out[key] = int(value) if key in ints and float(value).is_integer() else value
    if parameters.max_tokens is not None:
        limit = parameters.max_tokens
        if not ctx.faithful:
            limit = int(_clamp("max_tokens", limit, (MIN_OUTPUT_TOKENS, float("inf")), ctx))
        out["max_output_tokens"] = limit


def _clamp(key: str, value: float, bounds: tuple[float, float], ctx: RenderContext) -> float:
    low, high = bounds
    if low <= value <= high:
        return value
    clamped = min(max(value, low), high)
    ctx.drift.add(
        "parameter-clamped",
        f"OpenAI takes {key} between {low} and {high}",
        field=f"parameters.{key}",
        original=value,
        transformed=clamped,
    )
    return clamped


def _render_parallel(
    parameters: Parameters, has_tools: bool, out: dict[str, Any], ctx: RenderContext
) -> None:
    if parameters.parallel_tool_calls is None:
        return
    if has_tools or ctx.faithful:
        out["parallel_tool_calls"] = parameters.parallel_tool_calls
        return
    ctx.drift.add(
        "parameter-unsupported",
        "OpenAI takes parallel_tool_calls only with tools",
        field="parameters.parallel_tool_calls",
        original=parameters.parallel_tool_calls,
    )


def _report_unsupported(parameters: Parameters, ctx: RenderContext) -> None:
    for key in _UNSUPPORTED:
        value = getattr(parameters, key)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"OpenAI Responses has no {key}",
                field=f"parameters.{key}",
                original=value,
            )
    for key, value in parameters.custom.items():
        ctx.drift.add(
            "parameter-unsupported",
            f"custom parameter {key!r} is not sent to OpenAI",
            field=f"parameters.custom.{key}",
            original=value,
        )


# --------------------------------------------------------------------------- tools


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
    return Tool(name=name, **values, extra=make_extra(rest, type=custom))


def render_tools(conversation: Conversation, ctx: RenderContext) -> list[dict[str, Any]]:
    """The ``tools`` array: UMF tools, and hosted tools back where they were."""
    tools = [render_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    for entry in unmapped(conversation.extra, UNMAPPED_TOOLS):
        if isinstance(entry.get("tool"), dict):
            tools.insert(min(entry["at"], len(tools)), entry["tool"])
    return tools


def render_tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    """One flat tool definition (``{"type": "function", "name", ...}`` unless custom)."""
    report_foreign_extra(tool.extra, path, ctx.drift)
    custom = get_hint(tool.extra, "type") == "custom"
    out: dict[str, Any] = {"type": "custom" if custom else "function", "name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    if tool.parameters is not None and not custom:
        out["parameters"] = tool.parameters
    put_fields(out, fields_of(tool.extra))
    if ctx.faithful or custom:
        return out
    if "parameters" not in out or out["parameters"] is None:
        out["parameters"] = _EMPTY_SCHEMA
        ctx.drift.add(
            "parameter-defaulted",
            "OpenAI function tools need a parameters schema; an empty object schema was used",
            field=at(path, "parameters"),
            transformed=_EMPTY_SCHEMA,
            severity="info",
        )
    out.setdefault("strict", False)  # the API's default is strict; other formats mean loose
    return out


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice | None:
    """``tool_choice`` as UMF; None for a hosted-tool choice (kept verbatim by the caller)."""
    if isinstance(raw, str):
        if raw not in ("auto", "required", "none"):
            raise FormatError("tool_choice must be auto, required or none", field=path)
        return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked just above
    choice = plain(raw, path)
    kind = choice.get("type")
    if kind in ("function", "custom"):
        name = require_str(choice.get("name"), at(path, "name"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "name")}
        custom = "custom" if kind == "custom" else None
        return ToolChoice(type="tool", name=name, extra=make_extra(rest, type=custom))
    if kind == "allowed_tools":
        mode = choice.get("mode")
        if mode not in ("auto", "required"):
            raise FormatError("mode must be auto or required", field=at(path, "mode"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "mode")}
        return ToolChoice(type=mode, extra=make_extra(rest, type=kind))
    if not isinstance(kind, str):
        raise FormatError("a tool_choice object needs a string type", field=at(path, "type"))
    return None


def render_tool_choice(choice: ToolChoice, has_tools: bool, ctx: RenderContext) -> JSON:
    """``tool_choice`` as the API spells it, or None when it cannot be sent."""
    report_foreign_extra(choice.extra, "tool_choice", ctx.drift)
    if not has_tools and not ctx.faithful:
        ctx.drift.add(
            "parameter-unsupported",
            "OpenAI takes tool_choice only with tools",
            field="tool_choice",
            original=choice.model_dump(mode="json", exclude_defaults=True),
        )
        return None
    kind, fields = get_hint(choice.extra, "type"), fields_of(choice.extra)
    if kind == "allowed_tools" and choice.type in ("auto", "required"):
        return put_fields({"type": kind, "mode": choice.type}, fields)
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        ctx.drift.add(
            "parameter-normalized",
            "a forced tool choice names no tool; any tool is required instead",
            field="tool_choice",
            original="tool",
            transformed="required",
        )
        return "required"
    wire = {"type": "custom" if kind == "custom" else "function", "name": choice.name}
    return put_fields(wire, fields)


# --------------------------------------------------------------------------- nulls


def strip_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the nulls a read payload kept verbatim (``"instructions": null``,
    ``"encrypted_content": null``...): the API reads a missing optional field the same way,
    and the SDK types refuse several of them as null. Only the request's own containers
    are touched (the body, its items and their parts), never schemas or metadata."""
    out = _strip(body)
    if isinstance(out.get("input"), list):
        out["input"] = [_strip_item(entry) for entry in out["input"]]
    return out


def _strip(value: dict[str, Any]) -> dict[str, Any]:
    return {key: entry for key, entry in value.items() if entry is not None}


def _strip_item(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = _strip(entry)
    for key in ("content", "output", "summary"):
        if isinstance(out.get(key), list):
            out[key] = [_strip(part) if isinstance(part, dict) else part for part in out[key]]
    return out
