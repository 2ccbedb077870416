"""JSON arrays streamed one element at a time (from ijson events), and JSON Lines."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

import ijson
import orjson

from providers.formats.base import FormatError
from providers.json_integers import MAX_INTEGER, MIN_INTEGER, describe, integer_beyond_64_bits
from providers.umf import JSON

from ._common import Bounded, Entry, Limits, loads_entry
from ._tokens import LongNumber, ParserReader


def json_entries(stream: BinaryIO, label: str, limits: Limits) -> Iterator[Entry]:
    """The elements of a JSON array (or the one value of a file), built one at a time;
    ``label`` names the file in positions (``label[3]``). An array of objects is split by
    :func:`_split_objects` while it can be; the event parser reads the rest."""
    start = stream.tell() if stream.seekable() else None
    if start is not None:
        done = 0
        try:
            for entry in _split_objects(
                Bounded(stream, limits.max_file_bytes, label), label, limits
            ):
                if entry is None:  # the fast path gave up: read on from the next element
                    break
                done += 1
                yield entry
            else:
                return
        except FormatError:  # past the file's limit: the event parser says so
            pass
        stream.seek(start)
        yield from itertools.islice(_event_entries(stream, label, limits), done, None)
        return
    yield from _event_entries(stream, label, limits)


# Entries are split from this many bytes at a time; an entry tried more often than
# _MAX_TRIES as a JSON document (its text has "}, {" inside) goes to the event parser.
_CHUNK = 1024 * 1024
_MAX_TRIES = 32
_OBJECT_END = re.compile(rb"}[ \t\r\n]*(?:,[ \t\r\n]*{|])")


def _split_objects(stream: Bounded, label: str, limits: Limits) -> Iterator[Entry | None]:
    """The objects of a JSON array, each decoded whole by orjson: an element ends at a
    ``}`` followed by ``,`` or ``]``, and the text from its ``{`` to that ``}`` decodes only
    if the ``}`` is the element's own (one closing a nested object, or inside a string,
    leaves the text unbalanced). Yields None, and stops, at whatever it does not handle
    (an element that is not an object, one larger than an entry may be, one with many
    ``}, {`` inside, bad JSON): the event parser takes over from there with its own errors.
    Entries found here have not had their nesting checked (``Entry.depth_checked``)."""
    buffer = stream.read(_CHUNK).removeprefix(b"\xef\xbb\xbf")
    at = _skip_space(buffer, 0)
    if buffer[at : at + 1] != b"[":
        yield None
        return
    at, index, after_value = at + 1, 0, False
    while True:
        at = _skip_space(buffer, at)
        if at >= len(buffer):
            buffer, at = stream.read(_CHUNK), 0
            if not buffer:
                yield None  # the file ends inside the array
                return
            continue
        char = buffer[at : at + 1]
        if after_value and char == b",":
            at, after_value = at + 1, False
            continue
        if after_value and char == b"]":
            if (buffer[at + 1 :] + stream.read(64)).strip():
                yield None  # something after the array
            return
        found = (
            _one_object(stream, buffer, at, limits) if char == b"{" and not after_value else None
        )
        if found is None:
            yield None
            return
        value, buffer, end, big = found
        position = f"{label}[{index}]"
        if big is None:
            yield Entry(position, value=value, depth_checked=False)
        else:
            inner, digits = big
            path = f"{position}.{inner}"  # an object's: inner starts with a key
            yield Entry(position, error=FormatError(describe(path, digits), field=path))
        at, index, after_value = end + 1, index + 1, True


def _one_object(
    stream: Bounded, buffer: bytes, at: int, limits: Limits
) -> tuple[JSON, bytes, int, tuple[str, str] | None] | None:
    """The object starting at ``buffer[at]``, the buffer (read further as needed, and then
    starting at the object), the index there of the object's last byte and the first
    integer beyond 64 bits in it (path, digits), if any; None when it cannot be split here."""
    tries, search = 0, at
    while True:
        match = _OBJECT_END.search(buffer, search)
        if match is None:
            if len(buffer) - at > limits.max_entry_bytes:
                return None
            more = stream.read(_CHUNK)
            if not more:
                return None
            # Keep only the object so far: what came before it is done with.
            search = max(0, len(buffer) - at - 16)
            buffer, at = buffer[at:] + more, 0
            continue
        end = match.start()
        if end + 1 - at > limits.max_entry_bytes:
            return None
        try:
            value = orjson.loads(buffer[at : end + 1])
        except orjson.JSONDecodeError:
            tries += 1
            if tries > _MAX_TRIES:
                return None
            search = end + 1
            continue
        # An integer orjson read as a float: the entry is refused, the next one read.
        return value, buffer, end, integer_beyond_64_bits(buffer[at : end + 1])


def _skip_space(buffer: bytes, at: int) -> int:
    while at < len(buffer) and buffer[at] in b" \t\r\n":
        at += 1
    return at


def _event_entries(stream: BinaryIO, label: str, limits: Limits) -> Iterator[Entry]:
    """:func:`json_entries` from the parser's events: any JSON, with every limit."""
    # One string or number larger than an entry may be stops the file: it cannot be
    # skipped. (Never less than 1 MiB: the parser reads 64 KiB ahead of its events.)
    token_limit = max(limits.max_entry_bytes, 1024 * 1024)
    reader = ParserReader(_WithoutBom(stream), limits, label or "file", token_limit)
    events = ijson.basic_parse(reader, use_float=True)
    try:
        first = next(events, None)
        if first is None:
            yield Entry(label or "file", error=FormatError("the file is empty", field="file"))
        elif first[0] == "start_array":
            yield from _array_items(events, reader, label, limits)
        else:
            position = label or "file"
            yield _build_entry(first, events, reader, position, limits)
            next(events, None)  # trailing garbage after the one value raises here
    except FormatError as error:
        yield Entry(label or "file", error=error)
    except LongNumber:
        # Said with the path of the number, found from where the parser was.
        position, builder = reader.at
        inner = builder.path("" if position == "file" else position) if builder else position
        path = inner.lstrip(".") or position
        message = f"a number longer than {limits.max_number_chars} characters"
        yield Entry(position, error=FormatError(message, field=path))
    except (ijson.JSONError, UnicodeDecodeError, ValueError) as error:
        yield Entry(label or "file", error=FormatError(f"not valid JSON: {error}", field=label))


class _WithoutBom:
    """A stream with the UTF-8 byte order mark some editors write taken off its start."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.started = False

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes, the first ones without a byte order mark."""
        data = self.raw.read(size)
        if not self.started and data:  # ijson first reads 0 bytes to learn the type
            self.started = True
            if data.startswith(b"\xef\xbb\xbf"):
                return data[3:] or self.raw.read(size)
        return data


def _array_items(
    events: Iterator[tuple[str, Any]], reader: ParserReader, label: str, limits: Limits
) -> Iterator[Entry]:
    index = 0
    while True:
        reader.at = (f"{label}[{index}]", None)
        event = next(events)
        if event[0] == "end_array":
            next(events, None)
            return
        yield _build_entry(event, events, reader, f"{label}[{index}]", limits)
        index += 1


def _build_entry(
    first: tuple[str, Any],
    events: Iterator[tuple[str, Any]],
    reader: ParserReader,
    position: str,
    limits: Limits,
) -> Entry:
    start = reader.consumed
    builder = _Builder(limits.max_depth)
    reader.at = (position, builder)
    event: tuple[str, Any] | None = first
    while True:
        assert event is not None
        reader.mark = reader.consumed
        if builder.problem is None and reader.consumed - start > limits.max_entry_bytes:
            builder.fail(f"entry larger than {limits.max_entry_bytes} bytes")
        if builder.feed(*event):
            break
        event = next(events, None)
        if event is None:
            raise FormatError("the file ends inside an entry", field=position)
    if builder.problem is not None:
        return Entry(position, error=FormatError(builder.problem, field=position))
    return Entry(position, value=builder.value)


class _Builder:
    """Builds one JSON value from ijson events, refusing depth past a limit. After a
    problem it keeps consuming events (to find the entry's end) but builds nothing."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        self.stack: list[Any] = []
        self.keys: list[str | None] = []
        self.value: JSON = None
        self.problem: str | None = None
        self.depth = 0

    def fail(self, problem: str) -> None:
        """Stop building: the entry is refused for ``problem``."""
        self.problem = problem
        self.stack.clear()
        self.keys.clear()

    def feed(self, event: str, value: Any) -> bool:
        """Take one event; True when the value is complete."""
        if event in ("start_map", "start_array"):
            self.depth += 1
            if self.problem is None and self.depth > self.max_depth:
                self.fail(f"JSON nested deeper than {self.max_depth} levels")
            if self.problem is None:
                self.stack.append({} if event == "start_map" else [])
                self.keys.append(None)
            return False
        if event in ("end_map", "end_array"):
            self.depth -= 1
            if self.problem is None:
                self.keys.pop()
                return self._add(self.stack.pop())
            return self.depth == 0
        if event == "map_key":
            if self.problem is None:
                self.keys[-1] = value
            return False
        if self.problem is None:
            if type(value) is int and not MIN_INTEGER <= value <= MAX_INTEGER:
                self.fail(describe("", str(value)))  # orjson could not write it back
                return self.depth == 0
            return self._add(value)
        return self.depth == 0

    def path(self, position: str) -> str:
        """The path of the value being read, inside the entry at ``position``."""
        out = position
        for container, key in zip(self.stack, self.keys, strict=True):
            out += f".{key}" if isinstance(container, dict) else f"[{len(container)}]"
        return out

    def _add(self, value: Any) -> bool:
        if not self.stack:
            self.value = value
            return True
        container = self.stack[-1]
        if isinstance(container, list):
            container.append(value)
        else:
            container[self.keys[-1]] = value
        return False


def line_entries(stream: BinaryIO, label: str, limits: Limits) -> Iterator[Entry]:
    """The lines of a JSON Lines file (blank ones skipped), each decoded on its own."""
    number = 0
    total = 0
    while True:
        raw = stream.readline(limits.max_entry_bytes + 1)
        if not raw:
            return
        number += 1
        total += len(raw)
        position = f"{label} line {number}".strip()
        if total > limits.max_file_bytes:
            yield Entry(position, error=FormatError("file too large", field=position))
            return
        if len(raw) > limits.max_entry_bytes and not raw.endswith(b"\n"):
            _skip_line(stream)
            message = f"line longer than {limits.max_entry_bytes} bytes"
            yield Entry(position, error=FormatError(message, field=position))
            continue
        entry = _line_entry(raw, position, limits)
        if entry is not None:
            yield entry


def _skip_line(stream: BinaryIO) -> None:
    while True:
        chunk = stream.readline(1024 * 1024)
        if not chunk or chunk.endswith(b"\n"):
            return


def _line_entry(raw: bytes, position: str, limits: Limits) -> Entry | None:
    body, line_end = _split_line_end(raw)
    if not body.strip():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        message = f"not valid UTF-8 at byte {error.start}"
        return Entry(position, error=FormatError(message, field=position))
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        value = loads_entry(text, position, limits)
    except FormatError as error:
        return Entry(position, error=error)
    return Entry(position, value=value, text=text, line_end=line_end)


def _split_line_end(raw: bytes) -> tuple[bytes, str]:
    for ending in (b"\r\n", b"\n"):
        if raw.endswith(ending):
            return raw[: -len(ending)], ending.decode()
    return raw, ""
