"""Checks a UMF conversation must pass before the archive stores it."""

from __future__ import annotations

from providers.formats.base import FormatError
from providers.umf import Conversation, ToolResultBlock, ToolUseBlock


def check_conversation(conversation: Conversation) -> None:
    """Raise :class:`FormatError` (with the field) if the conversation is inconsistent:
    a tool result that answers no earlier tool call, or a parent that is not an earlier
    message. A conversation without a message has nothing to archive."""
    if not conversation.messages:
        raise FormatError("the conversation holds no message", field="messages")
    calls: set[str] = set()
    seen_ids: set[str] = set()
    for position, message in enumerate(conversation.messages):
        path = f"messages[{position}]"
        if message.parent_id is not None and message.parent_id not in seen_ids:
            raise FormatError(
                f"parent {message.parent_id!r} is not an earlier message of the conversation",
                field=f"{path}.parent_id",
            )
        for index, block in enumerate(message.content):
            if isinstance(block, ToolUseBlock):
                calls.add(block.id)
            elif isinstance(block, ToolResultBlock) and block.tool_use_id not in calls:
                raise FormatError(
                    f"tool result for {block.tool_use_id!r} answers no earlier tool call",
                    field=f"{path}.content[{index}].tool_use_id",
                )
        if message.role == "tool" and message.tool_call_id and message.tool_call_id not in calls:
            raise FormatError(
                f"tool message for {message.tool_call_id!r} answers no earlier tool call",
                field=f"{path}.tool_call_id",
            )
        if message.id is not None:
            seen_ids.add(message.id)
