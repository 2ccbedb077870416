"""Write the archive back out in a format: one file for formats that hold many
conversations, else one file per conversation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations import models, selectors
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
        conversations = models.Conversation.objects.order_by("created_at")
        if user:
            owner = get_user_model().objects.filter(username=user).first()
            if owner is None:
                raise CommandError(f"no user named {user!r}")
            conversations = conversations.filter(owner=owner)
        out.mkdir(parents=True, exist_ok=True)
        warnings = 0
        if target.render_many is not None:
            loaded = [selectors.conversation_umf(conversation=c).umf for c in conversations]
            rendered = target.render_all(loaded)
            _write(out / f"conversations{_extension(target)}", rendered.payload)
            warnings, count = len(rendered.warnings), len(loaded)
        else:
            count = 0
            for conversation in conversations.iterator(chunk_size=200):
                stored = selectors.conversation_umf(conversation=conversation)
                rendered = target.render(stored.umf)
                _write(out / f"{conversation.pk}{_extension(target)}", rendered.payload)
                warnings += len(rendered.warnings)
                count += 1
        self.stdout.write(
            f"wrote {count} conversation(s) as {target.id} to {out} ({warnings} warnings)"
        )


def _extension(target: formats.Format) -> str:
    if target.kind == "text":
        return ".jsonl" if target.id == "openai-finetune" else ".txt"
    return ".json"


def _write(path: Path, payload: object) -> None:
    if isinstance(payload, str):
        path.write_text(payload, encoding="utf-8")
    else:
        path.write_bytes(orjson.dumps(payload, option=orjson.OPT_INDENT_2))
