"""Request-level fields: sampling parameters, ``tools`` and ``tool_choice``.

Hints on the conversation: ``$max_tokens_key`` when the limit was sent as the deprecated
``max_tokens`` (the default is ``max_completion_tokens``), ``$stop: string`` when ``stop``
was one string, ``$int_parameters`` for float parameters written as integers (``0``, not
``0.0``). Tools keep ``strict`` and the other function fields verbatim, fields beside
``function`` under ``$outer``; custom tools are marked ``$type: custom``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._common import (
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Parameters, Tool, ToolChoice

from ._shared import (
    DEFAULT_MODEL,
    RenderContext,
    at,
    get_hint,
    is_int,
    item,
    make_extra,
    put_fields,
    report_foreign_extra,
    require_bool,
    require_int,
    require_number,
)

_FLOAT_PARAMETERS = ("temperature", "top_p", "frequency_penalty", "presence_penalty")
_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": require_number,
    "top_p": require_number,
    "frequency_penalty": require_number,
    "presence_penalty": require_number,
    "seed": require_int,
    "user": require_str,
    "parallel_tool_calls": require_bool,
    "stream": require_bool,
}
PARAMETER_KEYS = (*_CHECKS, "max_tokens", "max_completion_tokens", "stop")
# The documented ranges; values outside them are refused by the API.
_RANGES = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "frequency_penalty": (-2.0, 2.0),
    "presence_penalty": (-2.0, 2.0),
}
_MAX_STOP_SEQUENCES = 4


# --------------------------------------------------------------------------- parameters


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values = {
        key: check(fields[key], at(base, key)) for key, check in _CHECKS.items() if key in fields
    }
    hints: dict[str, Any] = {}
    # An integer no float can hold (absurd, but valid JSON) stays verbatim.
    kept = {
        key: values.pop(key)
        for key in _FLOAT_PARAMETERS
        if key in values and float(values[key]) != values[key]
    }
    if "max_tokens" in fields:
        values["max_tokens"] = require_int(fields["max_tokens"], at(base, "max_tokens"))
        hints["max_tokens_key"] = "max_tokens"
        if "max_completion_tokens" in fields:
            kept["max_completion_tokens"] = fields["max_completion_tokens"]
    elif "max_completion_tokens" in fields:
        values["max_tokens"] = require_int(
            fields["max_completion_tokens"], at(base, "max_completion_tokens")
        )
    if "stop" in fields:
        values["stop"], hints["stop"] = _parse_stop(fields["stop"], at(base, "stop"))
    hints["int_parameters"] = [key for key in _FLOAT_PARAMETERS if is_int(values.get(key))] or None
    return Parameters(**values), hints, kept


def _parse_stop(value: JSON, path: str) -> tuple[list[str], str | None]:
    if isinstance(value, str):
        return [value], "string"
    for index, sequence in enumerate(require_list(value, path)):
        require_str(sequence, item(path, index))
    return list(value), None


def render_parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any]:
    """The request's parameters; what OpenAI cannot take is left out with a warning."""
    parameters, extra = conversation.parameters, conversation.extra
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
    _render_floats(parameters, out, get_hint(extra, "int_parameters", []), ctx)
    for key in ("seed", "user", "stream"):
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    _render_parallel(parameters, bool(conversation.tools), out, ctx)
    if parameters.max_tokens is not None:
        out[get_hint(extra, "max_tokens_key") or "max_completion_tokens"] = parameters.max_tokens
    _render_stop(parameters.stop, get_hint(extra, "stop"), out, ctx)
    _report_unsupported(parameters, ctx)
    return out


def _render_floats(
    parameters: Parameters, out: dict[str, Any], ints: list[str], ctx: RenderContext
) -> None:
    for key in _FLOAT_PARAMETERS:
        value = getattr(parameters, key)
        if value is None:
            continue
        low, high = _RANGES[key]
        if not ctx.faithful and not low <= value <= high:
            clamped = min(max(value, low), high)
            ctx.drift.add(
                "parameter-clamped",
                f"OpenAI takes {key} between {low} and {high}",
                field=f"parameters.{key}",
                original=value,
                transformed=clamped,
            )
            value = clamped
        out[key] = int(value) if key in ints and float(value).is_integer() else value


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


def _render_stop(
    stop: list[str] | None, stop_hint: str | None, out: dict[str, Any], ctx: RenderContext
) -> None:
    if stop is None:
        return
    if not ctx.faithful and len(stop) > _MAX_STOP_SEQUENCES:
        kept = stop[:_MAX_STOP_SEQUENCES]
        ctx.drift.add(
            "stop-sequences-truncated",
            f"OpenAI takes at most {_MAX_STOP_SEQUENCES} stop sequences",
            field="parameters.stop",
            original=stop,
            transformed=kept,
        )
        stop = kept
    out["stop"] = stop[0] if stop_hint == "string" and len(stop) == 1 else stop


def _report_unsupported(parameters: Parameters, ctx: RenderContext) -> None:
    if parameters.top_k is not None:
        ctx.drift.add(
            "parameter-unsupported",
            "OpenAI Chat has no top_k",
            field="parameters.top_k",
            original=parameters.top_k,
        )
    for key, value in parameters.custom.items():
        ctx.drift.add(
            "parameter-unsupported",
            f"custom parameter {key!r} is not sent to OpenAI",
            field=f"parameters.custom.{key}",
            original=value,
        )


# --------------------------------------------------------------------------- tools


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
    return Tool(name=name, **values, extra=make_extra(rest, **hints))


def render_tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    """One tool definition (``{"type": "function", "function": {...}}`` unless custom)."""
    report_foreign_extra(tool.extra, path, ctx.drift)
    kind = get_hint(tool.extra, "type") or "function"
    inner: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        inner["description"] = tool.description
    if tool.parameters is not None:
        inner["parameters"] = tool.parameters
    put_fields(inner, tool.extra)
    return put_fields({"type": kind, kind: inner}, tool.extra, "outer")


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``tool_choice``: a mode string, a named function or custom tool, or allowed_tools."""
    if isinstance(raw, str):
        if raw not in ("auto", "required", "none"):
            raise FormatError("tool_choice must be auto, required or none", field=path)
        return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked just above
    choice = require_mapping(raw, path)
    kind = choice.get("type")
    if kind == "allowed_tools":
        allowed = require_mapping(choice.get("allowed_tools"), at(path, "allowed_tools"))
        mode = allowed.get("mode")
        if mode not in ("auto", "required"):
            raise FormatError("mode must be auto or required", field=at(path, "allowed_tools.mode"))
        return ToolChoice(
            type=mode, extra=make_extra(unknown_fields(choice, ("type",), path=path), type=kind)
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
        extra=make_extra(unknown_fields(choice, ("type", kind), path=path), **hints),
    )


def render_tool_choice(choice: ToolChoice, has_tools: bool, ctx: RenderContext) -> JSON:
    """``tool_choice`` as OpenAI spells it, or None when it cannot be sent."""
    report_foreign_extra(choice.extra, "tool_choice", ctx.drift)
    kind = get_hint(choice.extra, "type")
    if not has_tools and not ctx.faithful:
        ctx.drift.add(
            "parameter-unsupported",
            "OpenAI takes tool_choice only with tools",
            field="tool_choice",
            original=choice.model_dump(mode="json", exclude_defaults=True),
        )
        return None
    if kind == "allowed_tools":
        return put_fields({"type": kind}, choice.extra)
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
    key = "custom" if kind == "custom" else "function"
    inner = put_fields({"name": choice.name}, choice.extra, "inner")
    return put_fields({"type": key, key: inner}, choice.extra)


# --------------------------------------------------------------------------- nulls


def strip_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the nulls a read payload kept verbatim (``"tool_calls": null``,
    ``"name": null``...): OpenAI reads a missing optional field the same way, and the SDK
    types refuse several of them as null. An assistant's null content stays: it means
    "no text". Only the request's own containers are touched, never schemas or metadata.
    """
    out = _strip(body)
    out["messages"] = [_strip_message(message) for message in out.get("messages", [])]
    if isinstance(out.get("tools"), list):
        out["tools"] = [_strip_tagged(tool) for tool in out["tools"]]
    return out


def _strip(value: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    return {key: item for key, item in value.items() if item is not None or key in keep}


def _strip_message(message: dict[str, Any]) -> dict[str, Any]:
    out = _strip(message, keep=("content",) if message.get("role") == "assistant" else ())
    for key in ("content", "tool_calls"):
        if isinstance(out.get(key), list):
            out[key] = [_strip_tagged(entry) for entry in out[key]]
    return out


def _strip_tagged(value: Any) -> Any:
    # A part, call or tool: {"type": "x", "x": {...}}, stripped at both levels.
    if not isinstance(value, dict):
        return value
    out = _strip(value)
    inner = out.get(out.get("type", "function"))
    if isinstance(inner, dict):
        out[out.get("type", "function")] = _strip(inner)
    return out
