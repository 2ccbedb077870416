"""Reading an import job's file: which format it is, and its entries one by one.

Everything here reads from an open binary stream that the caller keeps open until the
last entry is stored: an entry of a zip export reads its attached files from the archive
when it is parsed, which may be long after it was yielded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import filetype
import orjson
from django.conf import settings

from conversations import json_input
from conversations.records import content_hash
from providers import formats
from providers.formats._archive import LIMITS, SNIFF_BYTES, json_entries, sniff

SAMPLE_BYTES = 4 * 1024 * 1024

# (position in the file, what was read there, the identity of a whole-file payload)
Read = tuple[int, formats.ParseResult | formats.FormatError, str | None]


@dataclass
class Unread:
    """An entry of a file of many not read yet (``Format.iter_entries``), with what
    identifies it: its source key and content hash (None when it could not be decoded)."""

    index: int
    entry: Any
    key: str | None
    digest: str | None


Entry = Read | Unread


def file_entries(fmt: formats.Format, stream: IO[bytes], size: int) -> Iterator[Entry]:
    """The entries of the file in ``fmt``, in order, each with its position. ``stream``
    must stay open until the last one is stored."""
    if fmt.iter_entries is not None and fmt.entry_identity is not None:
        for index, entry in enumerate(fmt.iter_entries(stream)):  # type: ignore[arg-type]
            identity = fmt.entry_identity(entry)
            if identity is None:
                yield Unread(index, entry, None, None)
            else:
                key, document = identity
                yield Unread(index, entry, key, _identity_hash(fmt.id, document))
        return
    if fmt.iter_parse is not None:
        for index, item in enumerate(fmt.iter_parse(stream)):  # type: ignore[arg-type]
            yield index, item, None
        return
    if size > settings.MAX_REQUEST_BYTES:
        raise formats.FormatError(
            f"a {fmt.id} file holds one conversation and must be under "
            f"{settings.MAX_REQUEST_BYTES} bytes",
            field="file",
        )
    payload = _load_whole(fmt, stream.read())
    try:
        items = fmt.parse(payload)
    except formats.FormatError as error:
        yield 0, error, None
        return
    # One conversation is identified by its document, as the synchronous import does.
    whole = content_hash(fmt.id, payload) if len(items) == 1 else None
    for index, item in enumerate(items):
        yield index, item, whole


def _identity_hash(format_id: str, document: object) -> str | None:
    try:
        return content_hash(format_id, document)
    except TypeError:  # orjson refuses what it cannot encode (nesting past 255 levels)
        return None


def _load_whole(fmt: formats.Format, data: bytes) -> object:
    if fmt.kind != "text":
        return _json_document(data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise formats.FormatError(f"the file is not UTF-8 text: {error}", field="file") from None


def _json_document(data: bytes) -> object:
    """The file's JSON, read by the API's rules (no duplicate key, no integer beyond 64
    bits...): a file of one conversation is the same document as a request body."""
    try:
        return json_input.loads(data)
    except json_input.JsonError as error:
        if error.code == "parse_error":
            reason = error.message.removeprefix("malformed JSON: ")
            raise formats.FormatError(
                f"the file is not valid JSON: {reason}", field="file"
            ) from None
        raise formats.FormatError(error.message, field=error.path or "file") from None


def detect_format(stream: IO[bytes], filename: str) -> formats.Format:
    """The format of the file, told from a small sample of it (see :func:`_sample`).
    Leaves the stream at its start."""
    try:
        return formats.detect(_sample(stream, filename))
    finally:
        stream.seek(0)


def _sample(stream: IO[bytes], filename: str) -> object:
    """A small piece of the file that shows its format: the first conversation of a JSON
    array or of a zip export (see :func:`_zip_sample`), the first line of JSONL, or the
    whole of a small file."""
    sniffed = sniff(stream)
    if sniffed.kind == "zip":
        return _zip_sample(stream)
    stream.seek(0)
    head = stream.read(SAMPLE_BYTES)
    if filename.lower().endswith(".jsonl") or sniffed.more_lines:
        return head.split(b"\n", 1)[0].decode("utf-8", errors="replace") + "\n"
    if len(head) < SAMPLE_BYTES:
        # Only to tell the format: the entries are read (and judged) one by one later.
        try:
            return orjson.loads(head)
        except orjson.JSONDecodeError as error:
            message = f"the file is not valid JSON: {error}"
            raise formats.FormatError(message, field="file") from None
    stream.seek(0)
    return _first_items(stream)


def _zip_sample(stream: IO[bytes]) -> object:
    """The first conversation of a zip export, read by the formats that read zips: each
    knows which members hold its conversations (``conversations.json``, the shards of a
    split export...), whatever else the zip holds and in whatever order."""
    reasons = []
    for fmt in formats.all_formats():
        if fmt.iter_entries is None:
            continue
        stream.seek(0)
        first = next(iter(fmt.iter_entries(stream)), None)  # type: ignore[arg-type]
        if first is not None and first.error is None:
            return [first.value]
        if first is not None and "not read by this format" not in first.error.message:
            reasons.append(first.error.message)
    because = f" ({reasons[0]})" if reasons else ""
    message = f"the zip holds no JSON file of conversations that a format reads{because}"
    raise formats.FormatError(message, field="file")


def _first_items(stream: IO[bytes]) -> object:
    """The first readable element of a JSON array, read by the archive's streaming reader
    (linear, whatever the tokens: issue 21); elements that cannot be read are passed over,
    and when none can, the last reason is the error."""
    error = None
    for entry in json_entries(stream, "", LIMITS):  # type: ignore[arg-type]
        if entry.error is not None:
            error = entry.error
        elif entry.position != "file":  # an element, not the file's one value
            return [entry.value]
    if error is None:
        raise formats.FormatError("the file holds no conversation", field="file")
    message = error.message
    if message.startswith("not valid JSON"):
        message = f"the file is {message}"
    raise formats.FormatError(message, field=error.field or "file")


ACCEPTED = "conversations.json, a .zip data export or a .jsonl dataset"


def upload_refusal(upload: IO[bytes]) -> str | None:
    """Why the upload cannot be a file of conversations, in a person's words (None when
    it may be one): said of what the file is, from its first bytes, before a job exists,
    so that an image or a truncated archive is refused now rather than a failed job
    later. Leaves the file at its start."""
    try:
        sniffed = sniff(upload, line_bytes=SNIFF_BYTES)
        upload.seek(0)
        head = upload.read(8192)
    finally:
        upload.seek(0)
    if sniffed.kind == "empty":
        return f"the file is empty: upload {ACCEPTED}"
    if sniffed.kind == "broken-zip":
        return "the file starts like a zip but is cut short or damaged: download the export again"
    if sniffed.kind == "zip" or sniffed.text:
        return None
    kind = filetype.guess(head)
    what = f"a .{kind.extension} file ({kind.mime})" if kind is not None else "binary data"
    return f"the file is {what}, not conversations: upload {ACCEPTED}"
