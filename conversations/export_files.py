"""Conversations written out as one file, in the memory of a chunk whatever their number:
the rule of the export command and of export jobs alike.

A format that holds many conversations (``Format.render_many``) writes one file of them,
rendered ``CHUNK`` conversations at a time, the same, byte for byte, as rendering every
conversation at once; any other format writes a file per conversation (the command, into
a directory; a job, into one zip)."""

from __future__ import annotations

import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Protocol, cast

import orjson

from providers import formats
from providers.umf import DriftWarning


class Writable(Protocol):
    """Where a file is written: an open file, or an upload being stored."""

    def write(self, data: bytes, /) -> object: ...

    def flush(self) -> None: ...


# Conversations rendered together when writing a file of many.
CHUNK = 200
# Warnings an export keeps word for word, to show what kind of thing it lost; the rest
# are only counted, by category, so that memory stays that of a chunk.
EXAMPLES = 20


@dataclass
class Tally:
    """What an export could not carry: its warnings counted by category, and the first
    ``EXAMPLES`` of them as they were said."""

    count: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    examples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, warnings: Iterable[DriftWarning], where: str = "") -> None:
        """Count ``warnings`` (of the conversation named ``where``, if any)."""
        for warning in warnings:
            self.count += 1
            self.categories[warning.category] += 1
            if len(self.examples) < EXAMPLES:
                said: dict[str, Any] = {"category": warning.category}
                said.update(severity=warning.severity, message=warning.message)
                said.update(field=warning.field, conversation=where)
                self.examples.append(said)

    def summary(self) -> dict[str, Any]:
        """The tally as JSON: categories, most frequent first, and the examples."""
        return {"categories": dict(self.categories.most_common()), "examples": self.examples}


def chunks(conversations: Iterable[Any]) -> Iterator[list[Any]]:
    """Chunks of ``CHUNK`` conversations, and the rest (``CHUNK`` to ``2 * CHUNK - 1``) at the
    end: a format renders a file of one conversation differently from a file of many, so no
    chunk may hold one unless the whole archive does."""
    buffer: list[Any] = []
    for conversation in conversations:
        buffer.append(conversation)
        if len(buffer) == 2 * CHUNK:
            yield buffer[:CHUNK]
            del buffer[:CHUNK]
    if buffer:
        yield buffer


def write_many(
    file: Writable, target: formats.Format, conversations: Iterable[Any]
) -> tuple[int, Tally]:
    """Write the file of many (UMF conversations), chunk by chunk; returns
    (conversations, what they could not carry)."""
    count, warnings = 0, Tally()
    written_entries = False
    open_line = False  # the text written so far ends inside a line
    for number, chunk in enumerate(chunks(conversations)):
        rendered = target.render_all(chunk)
        count += len(chunk)
        warnings.add(rendered.warnings)
        payload = rendered.payload
        if number == 0 and len(chunk) == 1:  # the whole archive is one conversation
            file.write(encode(payload))
            return count, warnings
        if isinstance(payload, str):  # text (JSON Lines): the chunks' lines, one after another
            if open_line:
                file.write(b"\n")
            file.write(payload.encode())
            open_line = bool(payload) and not payload.endswith("\n")
            continue
        if not isinstance(payload, list):
            raise ValueError(f"{target.id} renders many conversations as {type(payload)}")
        for entry in payload:
            # What orjson writes for the whole list, indented: one entry at a time.
            text = orjson.dumps(entry, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ")
            file.write((b",\n  " if written_entries else b"[\n  ") + text)
            written_entries = True
    if count == 0:
        file.write(encode(target.render_all([]).payload))
    elif written_entries:
        file.write(b"\n]")
    return count, warnings


def write_zip(
    file: Writable, target: formats.Format, rendered: Iterable[tuple[str, formats.Rendered]]
) -> tuple[int, Tally]:
    """Write a zip of one file per conversation (its name, and the file of one the format
    rendered); returns (conversations, what they could not carry). ``file`` need not
    seek."""
    count, warnings = 0, Tally()
    # zipfile writes to a stream it cannot seek in (it keeps the offsets itself).
    with zipfile.ZipFile(cast(IO[bytes], file), "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, one in rendered:
            archive.writestr(f"{name}{extension(target)}", encode(one.payload))
            count += 1
            warnings.add(one.warnings, where=name)
    return count, warnings


def filename(target: formats.Format) -> str:
    """The name of the file a job writes: one file of many, else a zip."""
    if target.render_many is not None:
        return f"conversations{extension(target)}"
    return f"conversations-{target.id}.zip"


def extension(target: formats.Format) -> str:
    """The file name extension of a payload of ``target``."""
    if target.kind == "text":
        return ".jsonl" if target.id == "openai-finetune" else ".txt"
    return ".json"


def encode(payload: object) -> bytes:
    """The bytes of a payload's file: a text format's text, else indented JSON."""
    if isinstance(payload, str):
        return payload.encode()
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2)


# What a downloaded file is, by its extension, for the Content-Type of its download.
MEDIA_TYPES = {
    ".json": "application/json",
    ".jsonl": "application/jsonl",  # one JSON document a line (OpenAI's fine-tuning files)
    ".txt": "text/plain; charset=utf-8",
    ".zip": "application/zip",
}


def media_type(name: str) -> str:
    """The Content-Type of a file called ``name`` that this module wrote."""
    return MEDIA_TYPES.get(name[name.rfind(".") :], "application/octet-stream")


def payload_media_type(payload: object) -> str:
    """The Content-Type of :func:`encode`'s bytes of ``payload``."""
    return MEDIA_TYPES[".txt" if isinstance(payload, str) else ".json"]
