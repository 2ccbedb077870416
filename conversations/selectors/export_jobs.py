"""Export jobs and the files they wrote, for their owner only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import User

from conversations import models


def export_job_get(*, owner: User, job_id: Any) -> models.ExportJob:
    """The owner's export job (``DoesNotExist`` for anyone else's)."""
    return models.ExportJob.objects.select_related("file").get(owner=owner, pk=job_id)


def export_job_list(*, owner: User, limit: int) -> list[models.ExportJob]:
    """The owner's latest export jobs, newest first."""
    return list(models.ExportJob.objects.filter(owner=owner).order_by("-created_at")[:limit])


def export_file_chunks(*, job: models.ExportJob) -> Iterator[bytes]:
    """The bytes of the job's file, a stored chunk (1 MiB, ``services.uploads``) at a
    time, one query each: a file of any size is served in the memory of one chunk."""
    if job.file_id is None:
        return
    index = 0
    while True:
        data = (
            models.UploadChunk.objects.filter(upload_id=job.file_id, index=index)
            .values_list("data", flat=True)
            .first()
        )
        if data is None:
            return
        yield bytes(data)
        index += 1
