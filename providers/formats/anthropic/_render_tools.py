"""UMF tools and tool choice -> Anthropic ``tools`` and ``tool_choice``."""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.tools import defaulted_schema, report_choice_without_tools
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    offered_choice,
    report_foreign_extra,
)
from providers.formats._kit.extra import hint, own_extra
from providers.formats.anthropic._constants import (
    FORMAT_ID,
)
from providers.umf import Conversation, Tool


def render_tools(conversation: Conversation, body: dict[str, Any], ctx: RenderContext) -> None:
    tools = [_tool(tool, f"tools[{index}]", ctx) for index, tool in enumerate(conversation.tools)]
    if tools or hint(conversation.extra, FORMAT_ID, "tools") == "empty":
        body["tools"] = tools
    choice = _tool_choice(conversation, bool(tools), ctx)
    if choice is not None:
        body["tool_choice"] = choice


def _tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        body["description"] = tool.description
    schema = tool.parameters
    if schema is None and not ctx.faithful:
        schema = defaulted_schema(path, ctx.drift, "Anthropic")
    if schema is not None:
        body["input_schema"] = schema
    body.update(own_extra(tool.extra, FORMAT_ID))
    report_foreign_extra(tool.extra, path, ctx)
    return body


def _tool_choice(
    conversation: Conversation, has_tools: bool, ctx: RenderContext
) -> dict[str, Any] | None:
    choice = conversation.tool_choice
    parallel = conversation.parameters.parallel_tool_calls
    if choice is None:
        # OpenAI's parallel_tool_calls=false is Anthropic's disable_parallel_tool_use.
        return (
            {"type": "auto", "disable_parallel_tool_use": True}
            if parallel is False and has_tools
            else None
        )
    if not has_tools and not ctx.faithful:
        report_choice_without_tools(choice, ctx.drift, "Anthropic")
        return None
    if not ctx.faithful:
        choice = offered_choice(choice, conversation.tools, ctx.drift)
    body: dict[str, Any] = {"type": {"required": "any"}.get(choice.type, choice.type)}
    if choice.name is not None:
        body["name"] = choice.name
    if parallel is False and choice.type != "none":
        body["disable_parallel_tool_use"] = True
    body.update(own_extra(choice.extra, FORMAT_ID))
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    return body
