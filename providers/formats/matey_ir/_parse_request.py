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

from providers.formats._kit.fields import (
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, is_int, is_number, item, require
from providers.formats.base import FormatError
from providers.formats.matey_ir._constants import (
    FLOAT_PARAMETERS,
    INT_PARAMETERS,
    NS,
    PARAMETER_KEYS,
    STREAM_MODES,
    TOOL_CHOICES,
)
from providers.umf import JSON, Conversation, Parameters, Tool, ToolChoice


def parse_parameters(raw: JSON, path: str) -> tuple[Parameters, dict[str, Any]]:
    """UMF parameters and the ``$parameters`` hint (values kept verbatim)."""
    source = require_mapping(raw, path)
    values, kept = split(source, PARAMETER_KEYS, path=path)
    fields: dict[str, Any] = {}
    for key, value in values.items():
        name, key_path = PARAMETER_KEYS[key], at(path, key)
        if key in FLOAT_PARAMETERS:
            fields[name] = float(require(value, is_number, "a number", key_path))
            if is_int(value):
                kept[key] = value  # 1, not 1.0: written back as it was
        elif key in INT_PARAMETERS:
            fields[name] = require(value, is_int, "an integer", key_path)
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
        extra=NS.extra(rest),
    )


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    """``'auto' | 'required' | 'none' | {name}``."""
    if isinstance(raw, str) and raw in TOOL_CHOICES:
        return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked against TOOL_CHOICES
    if isinstance(raw, dict):
        name = require_str(raw.get("name"), at(path, "name"))
        rest = unknown_fields(raw, ("name",), path=path)
        return ToolChoice(type="tool", name=name, extra=NS.extra(rest))
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
