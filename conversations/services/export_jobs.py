"""Exports of many conversations (the whole archive, a list's results, a selection) as one
file, written by a worker with progress, in the memory of one chunk whatever their
number (:mod:`conversations.export_files`, the export command's rule).

The file is written into PostgreSQL as it is rendered (an :class:`uploads.UploadWriter`
that no quota limits), so the web process of any host serves it. A worker claims a job
with a lease (a conditional UPDATE) and renews it as it goes; every job ends: succeeded,
or failed with its reason, by the worker or, when its worker vanished, by the reconciler.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from conversations import export_files, models, selectors
from conversations.services import enqueue as enqueue_task
from conversations.services import uploads
from conversations.services.trash import NotFound
from providers import formats

logger = logging.getLogger(__name__)
Status = models.ExportJob.Status
# A worker holds a job this long past its last progress (written every PROGRESS_EVERY
# conversations, and with each chunk of the file).
LEASE = timedelta(minutes=10)
PROGRESS_EVERY = 50
Item = TypeVar("Item")


def export_job_create(
    *,
    owner: User,
    format_id: str,
    ids: Sequence[Any] | None = None,
    filters: dict[str, Any] | None = None,
) -> models.ExportJob:
    """A job exporting the owner's conversations of ``ids`` (:class:`NotFound` when one is
    not the owner's, or is in the trash), or all that the list's ``filters`` match (none:
    the whole archive), as ``format_id`` (``FormatError`` when unknown); its task is sent
    once the transaction commits (``QueueUnavailable`` when the broker cannot take it:
    the job waits, queued, for the reconciler)."""
    formats.get(format_id)
    if ids is not None:
        ids = list(dict.fromkeys(str(pk) for pk in ids))
        found = selectors.conversation_selection(owner=owner, ids=ids).values_list("pk", flat=True)
        missing = sorted(set(ids) - {str(pk) for pk in found})
        if missing:
            raise NotFound(missing, "out of the trash")
    selection = {"ids": ids} if ids is not None else {"filters": _stored_filters(filters or {})}
    with transaction.atomic():
        job = models.ExportJob.objects.create(
            owner=owner,
            format=format_id,
            selection=selection,
            lease_expires_at=timezone.now() + LEASE,
        )
        enqueue_task.send_on_commit(enqueue_task.EXPORT_JOB, job.pk)
    return job


def export_job_execute(*, job_id: uuid.UUID) -> str:
    """Write the job's file; returns a short summary. Safe to run twice: a job is claimed
    only when queued. The job always ends: any error fails it with its reason."""
    now = timezone.now()
    claimed = models.ExportJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
        status=Status.RUNNING,
        attempts=F("attempts") + 1,
        started_at=now,
        lease_expires_at=now + LEASE,
    )
    if not claimed:
        return "nothing to do: the job was taken or is finished"
    job = models.ExportJob.objects.select_related("owner").get(pk=job_id)
    try:
        return _write(job)
    except Exception as error:
        logger.exception("export job %s stopped on an error", job.pk)
        return _finish(job, Status.FAILED, f"the export stopped: {type(error).__name__}: {error}")


def _write(job: models.ExportJob) -> str:
    target = formats.get(job.format)
    selection = _selection(job)
    _progress(job, total=selection.count())
    writer = uploads.UploadWriter(owner=job.owner, quota=False)
    models.ExportJob.objects.filter(pk=job.pk).update(file=writer.upload)
    chunk = export_files.CHUNK
    if target.render_many is not None:
        umf = selectors.conversations_umf(selection=selection, chunk_size=chunk)
        count, warnings = export_files.write_many(writer, target, _counted(job, umf))
    else:
        conversations = selectors.conversations_to_export(selection=selection, chunk_size=chunk)
        rendered = (
            (str(c.pk), selectors.conversation_export(conversation=c, target=target))
            for c in _counted(job, conversations)
        )
        count, warnings = export_files.write_zip(writer, target, rendered)
    file = writer.close()
    models.ExportJob.objects.filter(pk=job.pk).update(
        processed=count,
        warning_count=warnings.count,
        warnings=warnings.summary(),
        filename=export_files.filename(target),
    )
    return _finish(job, Status.SUCCEEDED, "", summary=f"{count} conversation(s), {file.size} bytes")


def _selection(job: models.ExportJob) -> Any:
    if "ids" in job.selection:
        return selectors.conversation_selection(owner=job.owner, ids=job.selection["ids"])
    return selectors.conversation_selection(
        owner=job.owner, filters=_read_filters(job.selection.get("filters", {}))
    )


def _counted(job: models.ExportJob, items: Iterable[Item]) -> Iterator[Item]:
    """``items``, writing the job's progress (and renewing its lease) as they go."""
    for count, item in enumerate(items, start=1):
        yield item
        if count % PROGRESS_EVERY == 0:
            _progress(job, processed=count)


def _progress(job: models.ExportJob, **fields: Any) -> None:
    models.ExportJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(
        lease_expires_at=timezone.now() + LEASE, **fields
    )


def _finish(job: models.ExportJob, status: str, error: str, summary: str = "") -> str:
    """End the job, unless it ended already; a failed job keeps no file."""
    with transaction.atomic():
        ended = models.ExportJob.objects.filter(
            pk=job.pk, status__in=[Status.QUEUED, Status.RUNNING]
        ).update(
            status=status, error=error[:2000], finished_at=timezone.now(), lease_expires_at=None
        )
        if ended and status == Status.FAILED:
            file_id = models.ExportJob.objects.filter(pk=job.pk).values_list("file_id", flat=True)
            uploads.upload_delete(file_id.first())
    if not ended:
        return "stopped: the job had ended"
    return f"failed: {error}" if error else f"exported {summary}"


# The list's filters that are times: kept as ISO 8601 text in the job's selection.
TIME_FILTERS = ("created_after", "created_before", "started_after", "started_before")


def _stored_filters(filters: dict[str, Any]) -> dict[str, Any]:
    stored = {key: value for key, value in filters.items() if value is not None}
    for key in TIME_FILTERS:
        if key in stored:
            stored[key] = stored[key].isoformat()
    return stored


def _read_filters(stored: dict[str, Any]) -> dict[str, Any]:
    filters = dict(stored)
    for key in TIME_FILTERS:
        if key in filters:
            filters[key] = datetime.fromisoformat(filters[key])
    return filters


def export_job_reconcile() -> int:
    """End or send again the jobs nobody works on: running past their lease (their worker
    vanished: failed, with that reason), queued past it (their task was lost: sent again).
    Returns how many were ended or sent."""
    now = timezone.now()
    stale = models.ExportJob.objects.filter(
        status__in=[Status.QUEUED, Status.RUNNING], lease_expires_at__lt=now
    ).only("pk", "status")
    count = 0
    for job in stale[:1000]:
        if job.status == Status.RUNNING:
            _finish(
                job, Status.FAILED, "the export's worker stopped before it finished; start it again"
            )
        elif not enqueue_task.send_again(
            enqueue_task.EXPORT_JOB, models.ExportJob.objects.all(), job.pk, lease_until=now + LEASE
        ):
            break
        count += 1
    return count


def export_jobs_expire(*, now: datetime | None = None) -> int:
    """Delete the jobs that ended more than ``EXPORT_KEEP_DAYS`` days ago, and their
    files. Returns how many."""
    before = (now or timezone.now()) - timedelta(days=settings.EXPORT_KEEP_DAYS)
    expired = models.ExportJob.objects.filter(
        Q(status__in=[Status.SUCCEEDED, Status.FAILED]), finished_at__lt=before
    )
    count = 0
    for job_id, file_id in expired.values_list("pk", "file_id")[:1000]:
        with transaction.atomic():
            models.ExportJob.objects.filter(pk=job_id).delete()
            uploads.upload_delete(file_id)
        count += 1
    return count
