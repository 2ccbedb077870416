"""Reading files that hold many conversations without trusting them, for the formats whose
files do (``chatgpt-export``, ``claude-export``, ``sharegpt``, ``openai-finetune``,
``otel-genai``).

:func:`read_entries` takes a binary file (a JSON array, one JSON value, JSON Lines, or a zip
export) and yields its entries one at a time: array elements are built from ``ijson``
events, never the whole array; zip members are streamed; JSONL is read line by line. Each
entry is an :class:`Entry` holding a value, or a :class:`FormatError` for an entry that
cannot be read (the next ones still come). What makes the whole file unreadable (a zip
bomb, a path-traversal name, broken JSON outside any entry) is one error and the end.

The limits (:data:`LIMITS`) bound memory whatever the input: the depth and size of one
entry, the entries, total size and compression ratio of a zip, the size of one asset.
"""

from __future__ import annotations

import posixpath
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, BinaryIO, Literal, TypeVar

import orjson
from pydantic import ValidationError

from providers.formats._common import report_foreign_fields
from providers.formats.base import FormatError
from providers.umf import JSON

from ._common import LIMITS, Bounded, Entry, Limits, check_depth, loads_entry
from ._json import json_entries, line_entries
from ._zip import SafeZip, zip_entries

T = TypeVar("T")

__all__ = [
    "LIMITS",
    "Entry",
    "Limits",
    "SafeZip",
    "check_depth",
    "checked",
    "conversations_member",
    "entry_error",
    "epoch_time",
    "iso_time",
    "join_texts",
    "loads_entry",
    "put_back",
    "read_entries",
    "report_foreign_fields",
    "same_time",
]


def read_entries(
    binary: BinaryIO,
    *,
    members: Callable[[str], bool] | None = None,
    lines: Literal["auto", "never", "always"] = "auto",
    limits: Limits | None = None,
) -> Iterator[Entry]:
    """The entries of a JSON array, a single JSON value, JSON Lines or, when ``members``
    says which of its files hold conversations, a zip archive. ``lines`` says whether the
    file may be (``auto``: when its first line is a whole JSON object) or must be JSON
    Lines (then every line is an entry, a broken one an error of its own). ``limits``
    default to :data:`LIMITS` as it is when the file is read."""
    limits = limits or LIMITS
    try:
        stream = _seekable(binary, limits)
        kind = _sniff(stream, limits)
    except FormatError as error:
        yield Entry("file", error=error)
        return
    if kind == "zip":
        if members is None:
            yield Entry("file", error=FormatError("zip archives are not read by this format"))
            return
        yield from zip_entries(stream, members, limits)
    elif lines == "always" or (kind == "lines" and lines == "auto"):
        yield from line_entries(stream, "", limits)
    else:
        yield from json_entries(stream, "", limits)


def _seekable(binary: BinaryIO, limits: Limits) -> BinaryIO:
    if binary.seekable():
        return binary
    # Zips and sniffing need to seek: spool what cannot (bounded like a whole file).
    spool = tempfile.SpooledTemporaryFile(max_size=16 * 1024 * 1024)  # noqa: SIM115
    shutil.copyfileobj(Bounded(binary, limits.max_file_bytes, "file"), spool)
    spool.seek(0)
    return spool  # type: ignore[return-value]


def _sniff(stream: BinaryIO, limits: Limits) -> str:
    """``zip``, ``lines`` (the first line is a whole JSON object) or ``json``."""
    start = stream.tell()
    head = stream.read(64 * 1024)
    stream.seek(start)
    if head.startswith(b"PK"):
        return "zip"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise FormatError("the file is empty", field="file")
    if not stripped.startswith(b"{"):
        return "json"
    first = stream.readline(limits.max_entry_bytes + 1)
    stream.seek(start)
    try:
        orjson.loads(first.lstrip(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError:
        return "json"  # one object spread over several lines
    return "lines"


_CONVERSATIONS_MEMBER = re.compile(r"conversations(-\d+)?\.json")


def conversations_member(name: str) -> bool:
    """Whether a zip member holds an export's conversations: ``conversations.json``, or one
    of the shards a large account's export is split into (``conversations-000.json``...)."""
    return _CONVERSATIONS_MEMBER.fullmatch(posixpath.basename(name)) is not None


def epoch_time(value: JSON) -> datetime | None:
    """The UTC datetime of epoch seconds (int or float), or None when it is not one."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return datetime.fromtimestamp(value, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def iso_time(value: JSON) -> datetime | None:
    """The datetime an ISO 8601 string names, or None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def same_time(a: datetime | None, b: datetime | None) -> bool:
    """Whether two datetimes name the same instant (naive ones taken as UTC)."""
    if a is None or b is None:
        return a is b
    a = a if a.tzinfo else a.replace(tzinfo=UTC)
    b = b if b.tzinfo else b.replace(tzinfo=UTC)
    return a == b


def put_back(items: list[Any], kept: JSON) -> list[Any]:
    """``items`` with the ``[position, value]`` pairs of ``kept`` back at their places."""
    if not isinstance(kept, list):
        return items
    out = list(items)
    for pair in sorted(kept, key=lambda pair: pair[0]):
        out.insert(min(pair[0], len(out)), pair[1])
    return out


def join_texts(texts: list[str]) -> str:
    """Text blocks written as one string: glued where they already meet at a space or
    punctuation (text split around citations), else separated by a blank line."""
    out = ""
    for text in texts:
        if out and text and not (out[-1].isspace() or text[0].isspace()):
            out += "" if text[0] in ",.;:!?)]}" else "\n\n"
        out += text
    return out


def entry_error(error: FormatError, value: JSON, *id_keys: str) -> FormatError:
    """``error`` naming the conversation it spoils by its own id (the first of ``id_keys``
    the entry has), so that a report of a file of many says which one was skipped."""
    if isinstance(value, dict):
        for key in id_keys:
            if isinstance(value.get(key), str | int) and not isinstance(value.get(key), bool):
                return FormatError(f"conversation {value[key]}: {error.message}", field=error.field)
    return error


def checked(read: Callable[[], T], path: str) -> T:
    """``read()``, with a value UMF's own types refuse (which the readers' checks let
    through) reported as a :class:`FormatError` at ``path``, as any bad input is."""
    try:
        return read()
    except ValidationError as error:
        first = error.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        field = ".".join(part for part in (path, location) if part) or "payload"
        raise FormatError(first["msg"], field=field) from None
