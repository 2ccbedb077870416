"""Import a file of conversations from the shell, with a progress bar (the same job path
as ``POST /api/v1/imports/``, run in this process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from conversations import models, selectors
from conversations.services import import_jobs


class Command(BaseCommand):
    help = "Import conversations from a file (json, jsonl or zip) for a user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--format", default="auto", help="format id, or auto (default)")
        parser.add_argument("--user", required=True, help="the owner's username")

    def handle(self, *args: Any, path: Path, format: str, user: str, **options: Any) -> None:
        owner = selectors.user_by_username(username=user)
        if owner is None:
            raise CommandError(f"no user named {user!r}")
        if not path.is_file():
            raise CommandError(f"no file at {path}")
        with path.open("rb") as upload:
            job = import_jobs.import_job_create(
                owner=owner, upload=upload, filename=path.name, format_id=format, enqueue=False
            )
        with tqdm(desc=path.name, unit=" conversations", disable=None) as bar:
            summary = import_jobs.import_job_execute(
                job_id=job.pk, progress=lambda count: bar.update(count)
            )
        job = selectors.import_job_get(owner=owner, job_id=job.pk)
        if job.status == models.ImportJob.Status.FAILED:
            raise CommandError(summary)
        self.stdout.write(summary)
        failed = models.ImportItem.Status.FAILED
        for item in selectors.import_job_items(job=job, limit=20, status=failed):
            self.stderr.write(f"  #{item.index} {item.key or ''}: {item.error} ({item.field})")
