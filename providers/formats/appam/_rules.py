"""The structural rules of Appam messages, applied to conversations converted from another
format: three roles (developer instructions are system text), tool results as ToolResult
blocks in a user message (Appam's own rule), and a media type on every inline source."""

from __future__ import annotations

from providers.formats._kit.context import RenderContext
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.render import (
    developer_as_system,
    media_type_or_default,
    report_tool_as_user,
    whole_result,
)
from providers.umf import Block, MediaSource, Message, ToolResultBlock


def role_and_blocks(
    message: Message, path: str, ctx: RenderContext
) -> tuple[str, list[tuple[str, Block]]]:
    """Appam's role and the blocks to write with their UMF paths. A tool message holding
    its result as plain blocks (UMF's InternalMessage shape) becomes one ToolResult at the
    message's own path."""
    numbered = [(item(at(path, "content"), i), block) for i, block in enumerate(message.content)]
    if message.role == "developer":
        return developer_as_system(path, ctx), numbered
    if message.role != "tool":
        return message.role, numbered
    if any(isinstance(block, ToolResultBlock) for block in message.content):
        return "user", numbered
    whole = whole_result(message)
    if whole is not None:
        return "user", [(path, whole)]
    return report_tool_as_user(path, ctx), numbered


def media_type(source: MediaSource, default: str, path: str, ctx: RenderContext) -> str:
    """The media type of the source of the block at ``path``, else ``default`` with a
    note: Appam needs one."""
    return media_type_or_default(
        source, default, path, ctx, "Appam needs a media type; none was given"
    )
