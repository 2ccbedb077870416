"""``IRChatRequest`` fields other than messages and metadata: tools, tool choice,
parameters, ``stream`` and ``streamMode``, both ways.

Parameters map one to one onto UMF's (``stopSequences`` is ``stop``). What UMF cannot
restate exactly is kept in the ``$parameters`` hint: unknown keys, a float parameter given
as an integer, an empty ``custom``; a kept value is written back only while UMF still says
the same. Ranges from seed 001's parameter table are enforced on conversions
(``parameter-clamped``); a ``max_tokens`` or ``top_k`` below the IR's minimum of 1 (Cohere's
``k: 0`` turns top-k sampling off) is left out (``parameter-normalized``).
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import (
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Parameters, Tool, ToolChoice

from ._shared import (
    RenderContext,
    at,
    get_hint,
    is_int,
    item,
    make_extra,
    put_fields,
    report_foreign_extra,
    require_int,
    require_number,
)

FLOAT_PARAMETERS = {
    "temperature": "temperature",
    "topP": "top_p",
    "frequencyPenalty": "frequency_penalty",
    "presencePenalty": "presence_penalty",
}
INT_PARAMETERS = {"maxTokens": "max_tokens", "topK": "top_k", "seed": "seed"}
TEXT_PARAMETERS = {"model": "model", "user": "user"}
PARAMETER_KEYS = {
    **FLOAT_PARAMETERS,
    **INT_PARAMETERS,
    **TEXT_PARAMETERS,
    "stopSequences": "stop",
    "custom": "custom",
}
RANGES = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "frequency_penalty": (-2.0, 2.0),
    "presence_penalty": (-2.0, 2.0),
}
# Integer parameters the IR takes from 1 up.
POSITIVE = ("max_tokens", "top_k")
TOOL_CHOICES = ("auto", "required", "none")
STREAM_MODES = ("delta", "accumulated")


# --------------------------------------------------------------------------- reading


def parse_parameters(raw: JSON, path: str) -> tuple[Parameters, dict[str, Any]]:
    """UMF parameters and the ``$parameters`` hint (values kept verbatim)."""
    source = require_mapping(raw, path)
    values, kept = split(source, PARAMETER_KEYS, path=path)
    fields: dict[str, Any] = {}
    for key, value in values.items():
        name, key_path = PARAMETER_KEYS[key], at(path, key)
        if key in FLOAT_PARAMETERS:
            fields[name] = require_number(value, key_path)
            if is_int(value):
                kept[key] = value  # 1, not 1.0: written back as it was
        elif key in INT_PARAMETERS:
            fields[name] = require_int(value, key_path)
        elif key == "stopSequences":
            stops = require_list(value, key_path)
            fields[name] = [require_str(stop, item(key_path, i)) for i, stop in enumerate(stops)]
        elif key == "custom":
            fields[name] = dict(require_mapping(value, key_path))
            if not value:
                kept[key] = {}
        else:
            fields[name] = require_str(value, key_path)
    return Parameters(**fields), kept


def parse_tools(raw: JSON, path: str) -> list[Tool]:
    """``IRTool`` definitions (name, description and parameters are required)."""
    tools = require_list(raw, path)
    return [_parse_tool(tool, item(path, index)) for index, tool in enumerate(tools)]


def _parse_tool(raw: JSON, path: str) -> Tool:
    source = require_mapping(raw, path)
    parameters = require_mapping(source.get("parameters"), at(path, "parameters"))
    rest = unknown_fields(source, ("name", "description", "parameters"), path=path)
    return Tool(
        name=require_str(source.get("name"), at(path, "name")),
        description=require_str(source.get("description"), at(path, "description")),
        parameters=dict(parameters),
        extra=make_extra(rest),
    )


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``'auto' | 'required' | 'none' | {name}``."""
    if isinstance(raw, str) and raw in TOOL_CHOICES:
        return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked against TOOL_CHOICES
    if isinstance(raw, dict):
        name = require_str(raw.get("name"), at(path, "name"))
        rest = unknown_fields(raw, ("name",), path=path)
        return ToolChoice(type="tool", name=name, extra=make_extra(rest))
    raise FormatError("toolChoice is auto, required, none or {name}", field=path)


def parse_stream_fields(fields: dict[str, Any], conversation: Conversation) -> dict[str, Any]:
    """``stream`` onto the parameters; ``streamMode`` (checked) stays an IR field."""
    if "stream" in fields:
        if not isinstance(fields["stream"], bool):
            raise FormatError("expected a boolean", field="stream")
        conversation.parameters.stream = fields["stream"]
    if "streamMode" in fields:
        if fields["streamMode"] not in STREAM_MODES:
            raise FormatError("streamMode is delta or accumulated", field="streamMode")
        return {"streamMode": fields["streamMode"]}
    return {}


# --------------------------------------------------------------------------- writing


def render_parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any] | None:
    """The ``parameters`` object (None when there is none to write)."""
    parameters = conversation.parameters
    kept: dict[str, Any] | None = get_hint(conversation.extra, "parameters")
    out: dict[str, Any] = {}
    for key, name in PARAMETER_KEYS.items():
        value = getattr(parameters, name)
        if name in RANGES and value is not None and not ctx.faithful:
            value = _clamp(name, value, ctx)
        if name in POSITIVE and value is not None and value < 1 and not ctx.faithful:
            _warn_below_one(name, value, ctx)
            value = None
        if value is not None and value != {}:
            out[key] = value
    if parameters.parallel_tool_calls is not None:
        ctx.drift.add(
            "parameter-unsupported",
            "the IR has no parallel tool calls switch",
            field="parameters.parallel_tool_calls",
            original=parameters.parallel_tool_calls,
        )
    for key, value in (kept or {}).items():
        if _still_true(key, value, out):
            out[key] = value
    return out if out or kept is not None else None


def _still_true(key: str, value: Any, out: dict[str, Any]) -> bool:
    """Whether a value kept verbatim still says what UMF says: an unknown key always; a
    null or empty custom while UMF holds nothing; an integer while UMF holds its float."""
    if key not in PARAMETER_KEYS:
        return True
    if key not in out:
        return value is None or value == {}
    return bool(out[key] == value)


def _clamp(name: str, value: float, ctx: RenderContext) -> float:
    low, high = RANGES[name]
    clamped = min(max(value, low), high)
    if clamped != value:
        ctx.drift.add(
            "parameter-clamped",
            f"the IR takes {name} from {low} to {high}",
            field=f"parameters.{name}",
            original=value,
            transformed=clamped,
        )
    return clamped


def _warn_below_one(name: str, value: int, ctx: RenderContext) -> None:
    ctx.drift.add(
        "parameter-normalized",
        f"the IR takes {name} from 1 up; {value} was left out",
        field=f"parameters.{name}",
        original=value,
    )


def render_tools(conversation: Conversation, ctx: RenderContext) -> list[dict[str, Any]]:
    """``IRTool`` definitions; a missing description or schema is filled in."""
    out = []
    for index, tool in enumerate(conversation.tools):
        path = item("tools", index)
        report_foreign_extra(tool.extra, path, ctx)
        description = tool.description
        if description is None:
            description = _default(ctx, at(path, "description"), "")
        schema = tool.parameters
        if schema is None:
            schema = _default(ctx, at(path, "parameters"), {"type": "object", "properties": {}})
        body = {"name": tool.name, "description": description, "parameters": schema}
        out.append(put_fields(body, tool.extra))
    return out


def _default(ctx: RenderContext, path: str, value: Any) -> Any:
    ctx.drift.add(
        "parameter-defaulted",
        "IR tools need a description and a parameter schema",
        field=path,
        transformed=value,
        severity="info",
    )
    return value


def render_tool_choice(choice: ToolChoice, ctx: RenderContext) -> Any:
    """``toolChoice`` as the IR spells it."""
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        ctx.drift.add(
            "parameter-normalized",
            "a forced tool choice that names no tool is sent as required",
            field="tool_choice",
            original="tool",
            transformed="required",
        )
        return "required"
    return put_fields({"name": choice.name}, choice.extra)
