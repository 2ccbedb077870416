"""UMF tools and tool_choice -> Bedrock ``toolConfig``.

Converse has rules the other formats do not: ``toolConfig`` must be there whenever the
history holds ``toolUse`` / ``toolResult`` blocks (even if no tool may be called now), there
is no "none" tool choice, and tool names fit ``[a-zA-Z0-9_-]{1,64}``.
"""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.drafts import Part
from providers.formats._content_blocks.tools import defaulted_schema, report_choice_without_tools
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import offered_choice, report_foreign_extra
from providers.formats._kit.extra import hint, own_extra
from providers.formats._kit.ids import ToolNames
from providers.formats._kit.wire import empty_object_schema
from providers.formats.bedrock_converse._constants import (
    FORMAT_ID,
    TOOL_NAME_PATTERN,
    TOOL_NAME_REFUSED,
)
from providers.umf import Conversation, Tool, ToolChoice


def render_tool_config(
    conversation: Conversation, calls: list[Part], ctx: RenderContext
) -> dict[str, Any] | None:
    """The ``toolConfig`` member, or None to leave it out. ``calls``: the tool calls of the
    messages, from another format (where each result left answers one of them, so the
    history holds tool blocks when it holds calls)."""
    if ctx.faithful:
        return _verbatim(conversation, ctx)
    names = ToolNames(
        ctx.drift,
        pattern=TOOL_NAME_PATTERN,
        refused=TOOL_NAME_REFUSED,
        note="tool name rewritten to fit Bedrock's name rules",
        empty="tool",
    )
    tools = [
        _spec(tool, names(tool.name, f"tools[{index}].name"), f"tools[{index}]", ctx)
        for index, tool in enumerate(conversation.tools)
    ]
    for part in calls:
        call = part.body["toolUse"]
        if call["name"] not in names.unchanged:  # most: no call, no path written
            call["name"] = names(call["name"], f"{part.path}.name")
    choice = _choice(conversation, bool(tools), bool(calls), names, ctx)
    if choice == "omit":
        return None
    if not tools and calls:
        tools = _specs_from_calls([part.body["toolUse"]["name"] for part in calls], ctx)
    if not tools:
        return None
    config: dict[str, Any] = {"tools": tools}
    if choice is not None:
        config["toolChoice"] = choice
    return config


def _verbatim(conversation: Conversation, ctx: RenderContext) -> dict[str, Any] | None:
    """``toolConfig`` as read: tool specs with the other entries back in place."""
    rest = hint(conversation.extra, FORMAT_ID, "toolConfig")
    if rest is None and not conversation.tools:
        return None
    tools = [
        _spec(tool, tool.name, f"tools[{index}]", ctx)
        for index, tool in enumerate(conversation.tools)
    ]
    rest = dict(rest or {})
    for entry in rest.pop("$opaque", []):
        tools.insert(min(entry["at"], len(tools)), entry["tool"])
    config: dict[str, Any] = {"tools": tools}
    if conversation.tool_choice is not None:
        config["toolChoice"] = _choice_body(conversation.tool_choice, conversation.tool_choice.name)
    config.update(rest)
    return config


def _spec(tool: Tool, name: str, path: str, ctx: RenderContext) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name}
    if tool.description or (ctx.faithful and tool.description is not None):
        spec["description"] = tool.description
    schema = tool.parameters
    if schema is None:
        schema = defaulted_schema(path, ctx.drift, "Bedrock")
    spec["inputSchema"] = {"json": schema}
    spec.update(own_extra(tool.extra, FORMAT_ID))
    report_foreign_extra(tool.extra, path, ctx)
    return {"toolSpec": spec}


def _specs_from_calls(names: list[str], ctx: RenderContext) -> list[dict[str, Any]]:
    """Tool specs made up from the calls in the history: Converse refuses tool blocks in a
    request without ``toolConfig``."""
    unique = list(dict.fromkeys(names))
    ctx.drift.add(
        "parameter-defaulted",
        "Bedrock needs toolConfig when the history holds tool calls; specs with an empty "
        "schema were made from the calls",
        field="tools",
        transformed=unique,
    )
    return [
        {"toolSpec": {"name": name, "inputSchema": {"json": empty_object_schema()}}}
        for name in unique
    ]


def _choice(
    conversation: Conversation,
    has_tools: bool,
    has_tool_blocks: bool,
    names: ToolNames,
    ctx: RenderContext,
) -> dict[str, Any] | str | None:
    """The ``toolChoice`` value, None to leave it out, or ``"omit"`` to send no tools."""
    choice = conversation.tool_choice
    if choice is None:
        return None
    if not has_tools:
        report_choice_without_tools(choice, ctx.drift, "Bedrock")
        return None
    if choice.type == "none":
        return _none_choice(has_tool_blocks, ctx)
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    offered = offered_choice(choice, conversation.tools, ctx.drift)
    if offered is not choice:
        return _choice_body(offered, None)
    name = names(choice.name, "tool_choice.name") if choice.name is not None else None
    return _choice_body(choice, name)


def _none_choice(has_tool_blocks: bool, ctx: RenderContext) -> str | None:
    if has_tool_blocks:
        ctx.drift.add(
            "tool-unsupported",
            "Bedrock has no 'none' tool choice and needs the tools while the history holds tool "
            "calls; the tools are offered with the default (auto) choice",
            field="tool_choice",
            original="none",
            transformed="auto",
        )
        return None
    ctx.drift.add(
        "parameter-normalized",
        "Bedrock has no 'none' tool choice; the tools were left out instead",
        field="tool_choice",
        original="none",
    )
    return "omit"


def _choice_body(choice: ToolChoice, name: str | None) -> dict[str, Any]:
    inner: dict[str, Any] = {"name": name} if choice.type == "tool" else {}
    inner.update(own_extra(choice.extra, FORMAT_ID))
    member = {"auto": "auto", "required": "any", "tool": "tool"}[choice.type]
    return {member: inner}
