"""Write the archive back out in a format: one file for formats that hold many
conversations, else one file per conversation.

A file of many is written as it is rendered, a chunk of conversations at a time, so an
archive of any size exports in the memory of one chunk; the file is the same, byte for
byte, as rendering every conversation at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations import selectors
from providers import formats


class Command(BaseCommand):
    help = "Export conversations in a format into a directory."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, help="target format id")
        parser.add_argument("--out", required=True, type=Path, help="output directory")
        parser.add_argument("--user", help="only this user's conversations")

    def handle(self, *args: Any, format: str, out: Path, user: str | None, **options: Any) -> None:
        try:
            target = formats.get(format)
        except formats.FormatError as error:
            raise CommandError(error.message) from None
        owner = None
        if user:
            owner = selectors.user_by_username(username=user)
            if owner is None:
                raise CommandError(f"no user named {user!r}")
        out.mkdir(parents=True, exist_ok=True)
        warnings = 0
        if target.render_many is not None:
            loaded = selectors.conversations_umf(owner=owner, chunk_size=CHUNK)
            path = out / f"conversations{_extension(target)}"
            with path.open("wb") as file:
                count, warnings = _write_many(file, target, loaded)
        else:
            count = 0
            for conversation in selectors.conversations_to_export(owner=owner):
                rendered = selectors.conversation_export(conversation=conversation, target=target)
                _write(out / f"{conversation.pk}{_extension(target)}", rendered.payload)
                warnings += len(rendered.warnings)
                count += 1
        self.stdout.write(
            f"wrote {count} conversation(s) as {target.id} to {out} ({warnings} warnings)"
        )


# Conversations rendered together when writing a file of many.
CHUNK = 200


def _chunks(conversations: Iterable[Any]) -> Iterator[list[Any]]:
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


def _write_many(
    file: IO[bytes], target: formats.Format, conversations: Iterable[Any]
) -> tuple[int, int]:
    """Write the file of many, chunk by chunk; returns (conversations, warnings)."""
    count = warnings = 0
    written_entries = False
    open_line = False  # the text written so far ends inside a line
    for number, chunk in enumerate(_chunks(conversations)):
        rendered = target.render_all(chunk)
        count += len(chunk)
        warnings += len(rendered.warnings)
        payload = rendered.payload
        if number == 0 and len(chunk) == 1:  # the whole archive is one conversation
            file.write(_encode(payload))
            return count, warnings
        if isinstance(payload, str):  # text (JSON Lines): the chunks' lines, one after another
            if open_line:
                file.write(b"\n")
            file.write(payload.encode())
            open_line = bool(payload) and not payload.endswith("\n")
            continue
        if not isinstance(payload, list):
            raise CommandError(f"{target.id} renders many conversations as {type(payload)}")
        for entry in payload:
            # What orjson writes for the whole list, indented: one entry at a time.
            text = orjson.dumps(entry, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ")
            file.write((b",\n  " if written_entries else b"[\n  ") + text)
            written_entries = True
    if count == 0:
        file.write(_encode(target.render_all([]).payload))
    elif written_entries:
        file.write(b"\n]")
    return count, warnings


def _extension(target: formats.Format) -> str:
    if target.kind == "text":
        return ".jsonl" if target.id == "openai-finetune" else ".txt"
    return ".json"


def _encode(payload: object) -> bytes:
    if isinstance(payload, str):
        return payload.encode()
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2)


def _write(path: Path, payload: object) -> None:
    path.write_bytes(_encode(payload))
