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
:func:`sniff` says what a file is from its first bytes, for this reader and for the
importers that decide what to do with an upload.

The family's other modules: :mod:`.wiring` (an archive format's parse, render and file
hooks, from its reader, writer and words), :mod:`.foreign` (what the formats say alike when
they write another format's conversation), :mod:`.values` (export times, flattened text,
tool definitions).

A new archive (another data export, another OpenTelemetry dialect) is a package of the one
shape holding only what is its own: ``_constants`` (its id, its ``Namespace`` and its
``Words``), ``_detect`` (what one of its entries looks like, for
:func:`~.wiring.fits_every_entry`), ``_parse`` (one entry into a conversation),
``_render`` (a conversation back into one entry, with :mod:`.foreign`'s reporters for
what it cannot hold) and ``_rules`` (the target's structural rules), and an
``__init__`` that builds its :class:`~.wiring.Archive` (or :func:`~.wiring.data_export`
for a ``conversations.json``-or-zip export) and registers ``**ARCHIVE.hooks()``. Files,
zips, JSON Lines, limits, keys, lists of one and the bulk import's hooks come from here.
"""

from __future__ import annotations

import posixpath
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, BinaryIO, Literal

import orjson

from providers.formats.base import FormatError

from ._common import LIMITS, Bounded, Entry, Limits, check_depth, loads_entry
from ._json import json_entries, line_entries
from ._zip import SafeZip, zip_entries
from .values import epoch_time, iso_time

__all__ = [
    "LIMITS",
    "Entry",
    "Limits",
    "SafeZip",
    "Sniffed",
    "check_depth",
    "conversations_member",
    "epoch_time",
    "iso_time",
    "json_entries",
    "loads_entry",
    "read_entries",
    "sniff",
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
        kind = sniff(stream, limits).kind
        if kind == "empty":
            raise FormatError("the file is empty", field="file")
    except FormatError as error:
        yield Entry("file", error=error)
        return
    if kind in ("zip", "broken-zip"):
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


SNIFF_BYTES = 64 * 1024
Kind = Literal["empty", "zip", "broken-zip", "lines", "array", "object", "other"]


@dataclass(frozen=True)
class Sniffed:
    """What a file is: its ``kind`` (``lines`` when its first line is a whole JSON object,
    ``object`` when one does not end there, ``broken-zip`` when it starts like a zip and is
    not one, ``other`` for anything but a zip, an array or an object); whether its first
    bytes are UTF-8 ``text`` (a character cut by their end forgiven); and, for a file that
    starts with an object, whether a later line starts one too (``more_lines``: JSON
    Lines, not one document)."""

    kind: Kind
    text: bool
    more_lines: bool = False


def sniff(stream: IO[bytes], limits: Limits = LIMITS, *, line_bytes: int | None = None) -> Sniffed:
    """What the file is, from its first bytes and, when it starts with an object, its first
    line (read up to ``line_bytes``, by default an entry's size: a longer one is taken as
    no whole object). The one place that tells what an upload is, for this reader and for
    the importers. Leaves the stream where it was."""
    start = stream.tell()
    try:
        head = stream.read(SNIFF_BYTES)
        if not head:
            return Sniffed("empty", text=False)
        if head.startswith(b"PK"):
            stream.seek(start)
            return Sniffed("zip" if zipfile.is_zipfile(stream) else "broken-zip", text=False)
        text = _is_text(head)
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if not stripped.startswith((b"[", b"{")):
            return Sniffed("other", text)
        if stripped.startswith(b"["):
            return Sniffed("array", text)
        stream.seek(start)
        first = stream.readline((limits.max_entry_bytes if line_bytes is None else line_bytes) + 1)
        more_lines = head[:1] == b"{" and b"\n{" in first + stream.read(SNIFF_BYTES)
        try:
            orjson.loads(first.lstrip(b"\xef\xbb\xbf"))
        except orjson.JSONDecodeError:
            return Sniffed("object", text, more_lines)
        return Sniffed("lines", text, more_lines)
    finally:
        stream.seek(start)


def _is_text(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the sample's end is not an error.
        return len(head) == SNIFF_BYTES and error.start >= len(head) - 3
    return True


_CONVERSATIONS_MEMBER = re.compile(r"conversations(-\d+)?\.json")


def conversations_member(name: str) -> bool:
    """Whether a zip member holds an export's conversations: ``conversations.json``, or one
    of the shards a large account's export is split into (``conversations-000.json``...)."""
    return _CONVERSATIONS_MEMBER.fullmatch(posixpath.basename(name)) is not None
