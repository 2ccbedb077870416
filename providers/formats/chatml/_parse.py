"""ChatML text -> one UMF conversation (hinted ``$shape: text``), read as turns:
``<|im_start|>{header}\\n{content}<|im_end|>{separator}``.

The header is the role, optionally followed by ``name=<author>`` (OpenAI's original ChatML
description). The separator between turns is a newline in every template; any other
whitespace is kept as the message's ``$end`` hint. The text may end with an open turn: an
empty one is the generation prompt (``<|im_start|>assistant\\n``, kept raw in the
conversation's ``$generation_prompt`` hint), one with content is a message being written
(a prefill, ``$open``). Whitespace before the first turn is the ``$prefix`` hint; any other
text outside a turn is not ChatML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from providers.formats._kit.fields import umf_checked
from providers.formats.base import Drift, FormatError, ParseResult
from providers.formats.chatml._constants import END, FORMAT_ID, NAME_ATTRIBUTE, ROLES, START
from providers.formats.chatml._parse_content import ParseState, parse_content, split_tools_section
from providers.umf import JSON, Conversation, Message, Role, ToolResultBlock


def parse(payload: JSON) -> list[ParseResult]:
    """Read a ChatML text as one conversation; :class:`FormatError` naming the turn
    (``messages[3].role``) for text that is not ChatML."""
    with umf_checked():
        conversation, drift = parse_text(payload)
    return [ParseResult(conversation, drift.warnings)]


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


@dataclass
class RawTurn:
    """One turn as written: ``end`` is the text after ``<|im_end|>`` (None: never closed)."""

    header: str
    content: str
    end: str | None
    has_newline: bool = True


def split_turns(text: str) -> tuple[str, list[RawTurn]]:
    """``(whitespace before the first turn, the turns)``; :class:`FormatError` naming the
    turn (``messages[3]``) for anything that is not ChatML."""
    first = text.find(START)
    if first < 0 and not text.strip():
        return text, []  # no turns: the text of an empty conversation
    if first < 0:
        raise FormatError("not ChatML: the text has no <|im_start|>", field="payload")
    prefix = text[:first]
    if prefix.strip():
        raise FormatError("text before the first <|im_start|> is not a turn", field="payload")
    pieces = text[first + len(START) :].split(START)
    turns = [_turn(piece, index, index == len(pieces) - 1) for index, piece in enumerate(pieces)]
    return prefix, turns


def _turn(piece: str, index: int, last: bool) -> RawTurn:
    path = f"messages[{index}]"
    body, closed, end = piece.partition(END)
    if not closed and not last:
        raise FormatError("a turn must end with <|im_end|> before the next one", field=path)
    if closed and (END in end or end.strip()):
        raise FormatError("text between turns is not ChatML", field=path)
    header, newline, content = body.partition("\n")
    if closed and not newline:
        raise FormatError("a turn's header ends with a newline", field=f"{path}.role")
    return RawTurn(header, content, end if closed else None, bool(newline))


def parse_header(header: str, path: str) -> tuple[Role, str | None]:
    """``(role, author name)`` of a header such as ``system name=example_user``."""
    role_text, space, attributes = header.partition(" ")
    role = ROLES.get(role_text)
    if role is None:
        known = ", ".join(ROLES)
        raise FormatError(f"unknown role {role_text!r}; expected one of {known}", field=path)
    if not space:
        return role, None
    if not attributes.startswith(NAME_ATTRIBUTE) or len(attributes) == len(NAME_ATTRIBUTE):
        raise FormatError(
            f"unsupported turn header {header!r}; only 'name=<author>' may follow the role",
            field=path,
        )
    return role, attributes[len(NAME_ATTRIBUTE) :]
