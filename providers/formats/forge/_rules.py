"""The structural rules of Forge messages, applied to conversations converted from another
format: every tool result is a ``Tool: <name>`` message of its own, whose first line names
its tool on one non-blank line; calls have no ids (results follow their call by tool
name); a tool message that answers no call is a user message."""

from __future__ import annotations

from providers.formats._kit.context import RenderContext
from providers.formats._kit.ids import report_rewritten
from providers.formats._kit.paths import at
from providers.formats._message_lists.render import report_tool_as_user
from providers.formats.forge._constants import DEFAULT_TOOL_NAME
from providers.umf import ToolUseBlock


def result_name(name: str | None, path: str, ctx: RenderContext) -> str:
    """The tool name a result is written with: its own, else :data:`DEFAULT_TOOL_NAME`
    with a warning (``Tool: <name>`` is one line, and a blank one reads back as no tool
    message at all)."""
    if name is None or not name.strip() or "\n" in name:
        ctx.drift.add(
            "parameter-defaulted",
            "a Forge tool message names its tool on its first line; this result does not "
            "say which, or its name is blank or spans lines",
            field=at(path, "name"),
            original=name,
            transformed=DEFAULT_TOOL_NAME,
        )
        return DEFAULT_TOOL_NAME
    return name


def tool_without_call(path: str, ctx: RenderContext) -> str:
    """The role of a tool message that answers no call."""
    if ctx.faithful:
        return "tool"  # a Forge tool message without its "Tool:" line: kept as it was
    return report_tool_as_user(path, ctx)


def note_call_id(block: ToolUseBlock, path: str, ctx: RenderContext) -> None:
    """A converted call's id is not written: results follow their call by tool name."""
    if not ctx.faithful:
        report_rewritten(
            ctx.drift,
            "Forge tool calls have no id; results follow their call by tool name",
            at(path, "id"),
            block.id,
            None,
        )
