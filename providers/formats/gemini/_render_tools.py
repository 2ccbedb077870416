"""UMF tools and tool_choice -> ``tools`` (function declarations) and ``toolConfig``."""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.tools import report_choice_without_tools
from providers.formats._kit.drift import report_foreign_extra
from providers.formats._kit.extra import hint, own_extra
from providers.formats.gemini._constants import FORMAT_ID, WIRE_TOOL_MODES
from providers.formats.gemini._parse_schema import fits_openapi, takes_no_arguments, to_json_schema
from providers.formats.gemini._render_parts import Context
from providers.umf import Conversation, Tool


def render_tools(conversation: Conversation, ctx: Context) -> list[dict[str, Any]] | None:
    """The ``tools`` array: laid out as read (other tools such as ``googleSearch`` in
    place), else one entry holding every function declaration."""
    declarations = [
        _declaration(tool, f"tools[{index}]", ctx) for index, tool in enumerate(conversation.tools)
    ]
    layout = hint(conversation.extra, FORMAT_ID, "tools")
    if not isinstance(layout, list):
        return [{"functionDeclarations": declarations}] if declarations else None
    remaining = iter(declarations)
    tools = []
    for entry in layout:
        tool = dict(entry)
        count = tool.get("functionDeclarations")
        if isinstance(count, int) and not isinstance(count, bool):
            tool["functionDeclarations"] = [next(remaining) for _ in range(count)]
        tools.append(tool)
    leftovers = list(remaining)
    if leftovers:
        tools.append({"functionDeclarations": leftovers})
    return tools


def _declaration(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    body: dict[str, Any] = {"name": ctx.function_name(tool.name, path)}
    if tool.description is not None:
        body["description"] = tool.description
    if tool.parameters is not None:
        key, schema = _schema(tool, path, ctx)
        if key is not None:
            body[key] = schema
    body.update(own_extra(tool.extra, FORMAT_ID))
    report_foreign_extra(tool.extra, path, ctx)
    return body


def _schema(tool: Tool, path: str, ctx: Context) -> tuple[str | None, Any]:
    """Where the parameter schema goes: as read when Gemini gave it, else ``parameters``
    when it fits the OpenAPI subset, else ``parametersJsonSchema``."""
    schema = tool.parameters
    if ctx.faithful or FORMAT_ID in tool.extra:
        if hint(tool.extra, FORMAT_ID, "schema") == "json":
            return "parametersJsonSchema", schema
        original = hint(tool.extra, FORMAT_ID, "parameters")
        return "parameters", original if to_json_schema(original) == schema else schema
    if takes_no_arguments(schema):
        return None, None
    if fits_openapi(schema):
        return "parameters", schema
    ctx.drift.add(
        "parameter-normalized",
        "this schema says more than Gemini's OpenAPI subset; sent as parametersJsonSchema, "
        "which older models and Vertex may refuse",
        field=f"{path}.parameters",
        original="parameters",
        transformed="parametersJsonSchema",
        severity="info",
    )
    return "parametersJsonSchema", schema


def render_tool_config(
    conversation: Conversation, tools: list[dict[str, Any]] | None, ctx: Context
) -> tuple[bool, Any]:
    """``(present, value)`` of ``toolConfig``: tool_choice as ``functionCallingConfig``
    over the fields kept from a Gemini payload."""
    own = own_extra(conversation.extra, FORMAT_ID)
    kept = own.get("toolConfig")
    calling = _calling_config(conversation, bool(tools), ctx)
    if calling is None:
        return "toolConfig" in own, kept
    return True, {**(kept if isinstance(kept, dict) else {}), "functionCallingConfig": calling}


def _calling_config(
    conversation: Conversation, has_tools: bool, ctx: Context
) -> dict[str, Any] | None:
    choice = conversation.tool_choice
    if choice is None:
        return None
    if not has_tools and not ctx.faithful:
        report_choice_without_tools(choice, ctx.drift, "Gemini")
        return None
    mode = hint(choice.extra, FORMAT_ID, "mode") or WIRE_TOOL_MODES[choice.type]
    body: dict[str, Any] = {"mode": mode}
    if choice.type == "tool":
        names = {tool.name for tool in conversation.tools}
        if ctx.faithful:
            body["allowedFunctionNames"] = [choice.name]
        elif choice.name is not None and choice.name in names:
            body["allowedFunctionNames"] = [ctx.function_name(choice.name, "tool_choice")]
        else:
            ctx.drift.add(
                "parameter-normalized",
                "the forced tool is not among the tools; any tool may be called",
                field="tool_choice.name",
                original=choice.name,
                transformed="ANY",
            )
    body.update(own_extra(choice.extra, FORMAT_ID))
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    return body
