"""ChatML text <-> turns: ``<|im_start|>{header}\\n{content}<|im_end|>{separator}``.

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

from providers.formats.base import FormatError
from providers.umf import Role

from ._shared import END, ROLES, START

_NAME = "name="


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
    if not attributes.startswith(_NAME) or len(attributes) == len(_NAME):
        raise FormatError(
            f"unsupported turn header {header!r}; only 'name=<author>' may follow the role",
            field=path,
        )
    return role, attributes[len(_NAME) :]


def header_text(role: str, name: str | None) -> str:
    """The header for ``role`` and an optional author name."""
    return f"{role} {_NAME}{name}" if name else role


def valid_name(name: str) -> bool:
    """Whether ``name`` fits on a header line and reads back as itself."""
    return bool(name) and not any(mark in name for mark in ("\n", "\r", START, END))


def turn_text(header: str, content: str, end: str | None, has_newline: bool = True) -> str:
    """One turn (``end`` None: left open, as a generation prompt or a prefill)."""
    newline = "\n" if has_newline else ""
    opened = f"{START}{header}{newline}{content}"
    return opened if end is None else f"{opened}{END}{end}"
