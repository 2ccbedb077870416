"""Limits, entries and JSON checks that the archive readers share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from providers.formats.base import FormatError
from providers.json_depth import nests_deeper_than
from providers.json_integers import describe, integer_beyond_64_bits
from providers.umf import JSON

if TYPE_CHECKING:
    from ._zip import SafeZip


@dataclass(frozen=True)
class Limits:
    """What one file may hold before it is refused."""

    # Nesting of one entry: real exports stay under 20; JSON Schemas in tools a little more.
    max_depth: int = 100
    # One conversation (one array element, one JSONL line, one zip member read whole).
    max_entry_bytes: int = 64 * 1024 * 1024
    # A whole non-zip file; a zip member we stream is bounded by its declared size instead.
    max_file_bytes: int = 8 * 1024 * 1024 * 1024
    max_zip_entries: int = 50_000
    # What all members expand to: a real export's JSON and images stay far below.
    max_zip_total_bytes: int = 4 * 1024 * 1024 * 1024
    # Uncompressed / compressed, for members over ``ratio_floor`` bytes (tiny members may
    # compress absurdly well without harm). Exports of JSON compress ~10:1.
    max_zip_ratio: int = 200
    ratio_floor: int = 1024 * 1024
    # The same for the whole archive (when it expands past ``ratio_floor``): a bomb split
    # into members under the floor passes each member's check, not this one. An export's
    # JSON (~10:1) beside its images (~1:1) stays well under.
    max_zip_total_ratio: int = 100
    # One image or other asset read out of a zip into a conversation.
    max_asset_bytes: int = 32 * 1024 * 1024
    # One number token: no real number is longer, and the streaming parser would take
    # time quadratic in its length (issue 21).
    max_number_chars: int = 1024


LIMITS = Limits()


@dataclass
class Entry:
    """One entry of a file: its ``position`` (``conversations.json[3]``, ``line 7``), and
    its ``value`` or the ``error`` that kept it from being read. ``text`` is the raw line
    of a JSON Lines file; ``archive`` the zip it came from (for its assets)."""

    position: str
    value: JSON = None
    error: FormatError | None = None
    text: str | None = None
    line_end: str = ""
    archive: SafeZip | None = field(default=None, repr=False)
    # False when the reader has not bounded the value's nesting (see check_depth).
    depth_checked: bool = True


def check_depth(value: JSON, path: str, limit: int = LIMITS.max_depth) -> None:
    """:class:`FormatError` if ``value`` nests deeper than ``limit`` (checked iteratively,
    so hostile nesting cannot exhaust the stack)."""
    if nests_deeper_than(value, limit):
        raise FormatError(f"JSON nested deeper than {limit} levels", field=path)


def loads_entry(data: bytes | str, path: str, limits: Limits = LIMITS) -> JSON:
    """Decode one JSON document of at most ``max_entry_bytes``, refusing invalid UTF-8 and
    nesting deeper than the limit."""
    if len(data) > limits.max_entry_bytes:
        raise FormatError(f"entry larger than {limits.max_entry_bytes} bytes", field=path)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error}", field=path) from None
    check_depth(value, path, limits.max_depth)
    check_integers(data, path)
    return value


def check_integers(data: bytes | str, path: str) -> None:
    """Refuse an integer orjson has read as a float (beyond 64 bits) with its path inside
    the entry at ``path``: the archive would hold another number."""
    found = integer_beyond_64_bits(data, path)
    if found is not None:
        raise FormatError(describe(*found), field=found[0])


class Bounded:
    """A reader that refuses to go past ``limit`` bytes, and counts what it gave.

    Once ``mark`` is set (the count at the parser's last event), it also refuses to give
    more than ``token_limit`` bytes past it: the JSON parser holds a token whole before it
    says anything about it, so one huge string must be stopped here, not after."""

    def __init__(self, raw: Any, limit: int, label: str, token_limit: int = 0) -> None:
        self.raw = raw
        self.limit = limit
        self.label = label
        self.consumed = 0
        self.token_limit = token_limit
        self.mark: int | None = None

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes, counted against the limits."""
        data: bytes = self.raw.read(size if size is not None and size >= 0 else 64 * 1024)
        self.consumed += len(data)
        if self.consumed > self.limit:
            raise FormatError(f"more than {self.limit} bytes", field=self.label)
        if self.mark is not None and self.consumed - self.mark > self.token_limit:
            raise FormatError(
                f"a JSON value larger than {self.token_limit} bytes", field=self.label
            )
        return data
