"""ChatML text -> one UMF conversation (hinted ``$shape: text``)."""

from __future__ import annotations

from typing import Any

from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Conversation, Message, ToolResultBlock

from ._parse_content import ParseState, parse_content
from ._shared import FORMAT_ID
from ._tools import split_tools_section
from ._turns import RawTurn, parse_header, split_turns


def parse_text(payload: JSON) -> tuple[Conversation, Drift]:
    """The conversation a ChatML text holds, and the warnings for the tool-call ids
    reading it made up."""
    if not isinstance(payload, str):
        raise FormatError("ChatML is text: expected a string", field="payload")
    prefix, turns = split_turns(payload)
    hints: dict[str, Any] = {"$shape": "text"}
    if prefix:
        hints["$prefix"] = prefix
    last = turns[-1] if turns else None
    if last is not None and last.end is None and not last.content:
        parse_header(last.header, f"messages[{len(turns) - 1}].role")
        hints["$generation_prompt"] = last.header + ("\n" if last.has_newline else "")
        turns.pop()
    state = ParseState(Drift(FORMAT_ID))
    conversation = Conversation()
    conversation.messages = [
        _message(turn, index, state, conversation) for index, turn in enumerate(turns)
    ]
    conversation.extra = {FORMAT_ID: hints}
    return conversation, state.drift


def _message(turn: RawTurn, index: int, state: ParseState, conversation: Conversation) -> Message:
    path = f"messages[{index}]"
    role, name = parse_header(turn.header, f"{path}.role")
    state.message = index
    hints: dict[str, Any] = {}
    content = turn.content
    section = split_tools_section(content) if index == 0 and role == "system" else None
    if section is not None:
        content, hints["$tools"], conversation.tools = section
    blocks, content_hints = parse_content(content, role, path, state)
    hints.update(content_hints)
    if turn.end is None:
        hints["$open"] = True
    elif turn.end != "\n":
        hints["$end"] = turn.end
    message = Message(role=role, name=name, content=blocks)
    results = [block for block in blocks if isinstance(block, ToolResultBlock)]
    if role == "tool" and len(results) == 1:
        message.tool_call_id = results[0].tool_use_id
    if hints:
        message.extra = {FORMAT_ID: hints}
    return message
