"""Import jobs as the API and the pages show them: one job, the latest ones, and the
result of each conversation a job read."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User

from conversations import models


def import_job_get(*, owner: User, job_id: uuid.UUID) -> models.ImportJob:
    """The owner's job (``DoesNotExist`` for anyone else's)."""
    return models.ImportJob.objects.get(owner=owner, pk=job_id)


def import_job_list(*, owner: User, limit: int) -> list[models.ImportJob]:
    """The owner's latest jobs, newest first."""
    return list(models.ImportJob.objects.filter(owner=owner)[:limit])


def import_job_by_key(*, owner: User, idempotency_key: str) -> models.ImportJob | None:
    """The owner's job created with that Idempotency-Key, if any (None without a
    key: no query)."""
    if not idempotency_key:
        return None
    return models.ImportJob.objects.filter(owner=owner, idempotency_key=idempotency_key).first()


def import_job_items(
    *,
    job: models.ImportJob,
    limit: int,
    offset: int = 0,
    status: str | None = None,
    with_conversations: bool = False,
) -> list[models.ImportItem]:
    """The job's results in file order, from ``offset`` (only those of ``status``, when
    given); ``with_conversations`` joins the conversation each one stored (the page links
    it by title)."""
    items = job.items.all()
    if with_conversations:
        items = items.select_related("conversation")
    if status is not None:
        items = items.filter(status=status)
    return list(items[offset : offset + limit])
