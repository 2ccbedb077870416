"""UMF tools, tool choice and parameters -> the ``IRChatRequest`` fields (see
:mod:`._parse_request` for the reading). A value kept verbatim in the ``$parameters``
hint is written back only while UMF still says the same; conversions follow the IR's
rules (:mod:`._rules`)."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import report_parameters_dropped
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import empty_object_schema
from providers.formats._message_lists.render import ListContext, report_foreign
from providers.formats.matey_ir._constants import NS, PARAMETER_KEYS
from providers.formats.matey_ir._rules import default_tool_field, fit_parameter
from providers.umf import Conversation, ToolChoice


def render_parameters(conversation: Conversation, ctx: ListContext) -> dict[str, Any] | None:
    """The ``parameters`` object (None when there is none to write)."""
    parameters = conversation.parameters
    kept: dict[str, Any] | None = NS.hint(conversation.extra, "parameters")
    out: dict[str, Any] = {}
    for key, name in PARAMETER_KEYS.items():
        value = getattr(parameters, name)
        if value is not None and not ctx.faithful:
            value = fit_parameter(name, value, ctx)
        if value is not None and value != {}:
            out[key] = value
    if parameters.parallel_tool_calls is not None:
        dropped = {"parallel_tool_calls": parameters.parallel_tool_calls}
        report_parameters_dropped(dropped, ctx.drift, "the IR has no parallel tool calls switch")
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


def render_tools(conversation: Conversation, ctx: ListContext) -> list[dict[str, Any]]:
    """``IRTool`` definitions; a missing description or schema is filled in."""
    out = []
    for index, tool in enumerate(conversation.tools):
        path = item("tools", index)
        report_foreign(tool.extra, path, ctx)
        description = tool.description
        if description is None:
            description = default_tool_field(ctx, at(path, "description"), "")
        schema = tool.parameters
        if schema is None:
            schema = default_tool_field(ctx, at(path, "parameters"), empty_object_schema())
        body = {"name": tool.name, "description": description, "parameters": schema}
        out.append(NS.put(body, tool.extra))
    return out


def render_tool_choice(choice: ToolChoice, ctx: ListContext) -> Any:
    """``toolChoice`` as the IR spells it."""
    report_foreign(choice.extra, "tool_choice", ctx)
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
    return NS.put({"name": choice.name}, choice.extra)
