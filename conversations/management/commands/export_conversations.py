"""Write the archive back out in a format: one file for formats that hold many
conversations, else one file per conversation (:mod:`conversations.export_files`: an
archive of any size exports in the memory of one chunk). Conversations in the trash are
left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations import export_files, selectors
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
        warnings = export_files.Tally()
        if target.render_many is not None:
            loaded = selectors.conversations_umf(owner=owner, chunk_size=export_files.CHUNK)
            with (out / export_files.filename(target)).open("wb") as file:
                count, warnings = export_files.write_many(file, target, loaded)
        else:
            count = 0
            for conversation in selectors.conversations_to_export(owner=owner):
                rendered = selectors.conversation_export(conversation=conversation, target=target)
                _write(out / f"{conversation.pk}{export_files.extension(target)}", rendered.payload)
                warnings.add(rendered.warnings, where=str(conversation.pk))
                count += 1
        self.stdout.write(
            f"wrote {count} conversation(s) as {target.id} to {out} ({warnings.count} warnings)"
        )


def _write(path: Path, payload: object) -> None:
    path.write_bytes(export_files.encode(payload))
