"""Moving the fields one format keeps on a conversation to another format's namespace.

``openai-finetune`` reads and writes its lines with the ``openai-chat`` module; what that
module keeps under ``extra["openai-chat"]`` is moved to ``extra["openai-finetune"]`` (so a
line's ``weight`` never travels into a Chat Completions request), and back for rendering.
"""

from __future__ import annotations

from providers.umf import Block, Conversation, Extra, ToolResultBlock


def moved(conversation: Conversation, source: str, target: str) -> Conversation:
    """A deep copy of ``conversation`` whose ``source`` fields (on every value: the
    conversation, tools, tool choice, messages, blocks, blocks inside tool results) are
    under ``target``; whatever ``target`` held before is replaced."""
    copy = conversation.model_copy(deep=True)
    copy.extra = _move(copy.extra, source, target)
    for tool in copy.tools:
        tool.extra = _move(tool.extra, source, target)
    if copy.tool_choice is not None:
        copy.tool_choice.extra = _move(copy.tool_choice.extra, source, target)
    for message in copy.messages:
        message.extra = _move(message.extra, source, target)
        _move_blocks(message.content, source, target)
    return copy


def _move_blocks(blocks: list[Block], source: str, target: str) -> None:
    for block in blocks:
        block.extra = _move(block.extra, source, target)
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            _move_blocks(block.content, source, target)


def _move(extra: Extra, source: str, target: str) -> Extra:
    out = {key: value for key, value in extra.items() if key not in (source, target)}
    if source in extra:
        out[target] = extra[source]
    return out
