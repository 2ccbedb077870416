"""The reader under the event parser, which keeps it linear (issue 21): reads that grow
through a long token, and number tokens too long refused before the parser converts them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ._common import Bounded, Limits

if TYPE_CHECKING:
    from ._json import _Builder


class LongNumber(Exception):
    """A number token longer than a number may be: the parse stops at once."""


_NUMBER_CHARS = b"-+.0123456789eE"
# Inside a string: up to its closing quote (or to a backslash the chunk ends on).
_STRING_REST = re.compile(rb"[^\"\\]*(?:\\.[^\"\\]*)*")


def _long_number_or_string(limit: int) -> re.Pattern[bytes]:
    """A whole string, a string the chunk ends inside (its quote alone), or a run of number
    characters longer than ``limit`` (tried only where a run starts: linear)."""
    run = rb"(?<![-+.0-9eE])[-+.0-9eE]{%d}" % (limit + 1)
    return re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|' + run)


class ParserReader(Bounded):
    """What the event parser reads: bounded, and kept linear (issue 21).

    The parser lexes a token again from its start each time a read ends inside it, so one
    long token costs the square of its length in reads of a fixed size: reads grow with
    what has been given since the parser's last event instead (doubling through a long
    string). And a number token longer than ``max_number_chars`` is refused as soon as it
    is seen, before the parser converts it: the reads are scanned for it (strings skipped),
    keeping what the last read ended inside. ``at`` is where the parser is, for the path of
    the refusal: the entry's position and its builder (None before the entry starts)."""

    def __init__(self, raw: Any, limits: Limits, label: str, token_limit: int) -> None:
        super().__init__(raw, limits.max_file_bytes, label, token_limit)
        self.mark = 0
        self.max_number = limits.max_number_chars
        self.in_string = False
        self.escaped = False
        self.number_run = 0
        self.long_number = False
        self.tokens = _long_number_or_string(limits.max_number_chars)
        self.at: tuple[str, _Builder | None] = (label, None)

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes, or as many as were given since the parser's last event;
        none past the start of a number too long (the next read refuses it, once the
        parser has said where it is)."""
        if self.long_number:
            raise LongNumber
        since_event = self.consumed - (self.mark or 0)
        data = super().read(max(size, since_event) if size is not None and size >= 0 else size)
        cut = self._scan(data)
        if cut is not None:
            self.long_number = True
            return data[:cut]
        return data

    def _scan(self, data: bytes) -> int | None:
        """Where to cut ``data`` to stop inside a number too long (None: it holds none)."""
        at = self._end_string(data, 0) if self.in_string else 0
        if at == 0 and self.number_run:  # a number the last read ended inside goes on
            leading = len(data) - len(data.lstrip(_NUMBER_CHARS))
            if self.number_run + leading > self.max_number:
                return 1  # one more digit: the parser waits for the number's end
        for found in self.tokens.finditer(data, at):
            if data[found.start()] != 0x22:
                return found.end()
            if found.end() - found.start() == 1:  # a string this read ends inside
                self.in_string = True
                self._end_string(data, found.end())
                break
        trailing = len(data) - len(data.rstrip(_NUMBER_CHARS))
        carried = self.number_run if trailing == len(data) else 0
        self.number_run = 0 if self.in_string else trailing + carried
        return None

    def _end_string(self, data: bytes, at: int) -> int:
        """Where the string the parser is inside ends in ``data`` (after its quote), or
        ``len(data)`` when it goes on into the next read."""
        while at < len(data):
            if self.escaped:
                at, self.escaped = at + 1, False
                continue
            at = _STRING_REST.match(data, at).end()  # type: ignore[union-attr]
            if at < len(data) and data[at] == 0x22:  # the closing quote
                self.in_string = False
                return at + 1
            if at < len(data):  # a backslash the read ends on
                at, self.escaped = at + 1, True
        return len(data)
