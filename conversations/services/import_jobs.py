"""Background imports of whole files (data exports, datasets): streamed, in batches,
with a result per conversation, and never the same conversation twice.

The uploaded file is kept in PostgreSQL (:mod:`uploads`) until the job ends, so a worker
on any host reads it, and open while its batches are read: an
entry of a zip export reads its attached files when it is parsed. Formats that hold many
conversations are read one conversation at a time (``Format.iter_parse``); one that cannot
be read is a failed item and the rest still import.

A worker claims a job with a lease (a conditional UPDATE, as replays do) and renews it
with each batch, in the batch's transaction; a worker that vanished leaves a lease that
runs out, and the reconciler (beat) hands the job to another worker, which resumes after
the last stored batch. Every job ends: succeeded, or failed with its reason.
"""

from __future__ import annotations

import itertools
import logging
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from conversations import models, selectors
from conversations.records import content_hash
from conversations.services import enqueue as enqueue_task
from conversations.services import uploads
from conversations.services.bulk import bulk_insert
from conversations.services.import_files import Entry, Read, Unread, detect_format, file_entries
from conversations.services.imports import (
    ImportedConversation,
    conversation_caps,
    conversation_save_many,
)
from conversations.services.trash import conversations_out_of_trash
from providers import formats
from providers.validation import check_conversation

logger = logging.getLogger(__name__)
Status = models.ImportJob.Status
ItemStatus = models.ImportItem.Status
BATCH_SIZE = 250
# Batches between two refreshes of the planner's statistics of the conversation table.
ANALYZE_EVERY = 8


def import_job_create(
    *,
    owner: User,
    upload: IO[bytes] | models.Upload,
    filename: str,
    format_id: str = "auto",
    enqueue: bool = True,
    idempotency_key: str = "",
) -> models.ImportJob:
    """Make a job of the uploaded file (an upload already stored, or a stream stored now,
    see :mod:`uploads`) and enqueue its import once the transaction commits
    (``enqueue=False``: the caller runs :func:`import_job_execute` itself). With an
    ``idempotency_key`` the owner used before, the job made then, and nothing new.
    :class:`QueueUnavailable` when the broker cannot take the task: the job is stored
    and waits for the reconciler. The upload is the job's: deleted when it ends, or now
    when no job is made."""
    stored = upload if isinstance(upload, models.Upload) else None
    try:
        if earlier := selectors.import_job_by_key(owner=owner, idempotency_key=idempotency_key):
            uploads.upload_delete(stored.pk if stored else None)
            return earlier
        if format_id != "auto":
            formats.get(format_id)  # FormatError (field "format") for an unknown id
        if stored is None:
            stored = uploads.upload_store(owner=owner, stream=upload)  # type: ignore[arg-type]
        with transaction.atomic():
            job = models.ImportJob.objects.create(
                owner=owner,
                requested_format=format_id,
                filename=Path(filename).name[:255],
                upload=stored,
                size=stored.size,
                idempotency_key=idempotency_key,
                # The task should have started by then, or the reconciler sends it again.
                lease_expires_at=timezone.now() + timedelta(seconds=settings.IMPORT_LEASE_SECONDS),
            )
            if enqueue:
                enqueue_task.send_on_commit(enqueue_task.IMPORT_JOB, job.pk)
    except IntegrityError:
        # The same key in a concurrent request: that request's job is the one.
        uploads.upload_delete(stored.pk if stored else None)
        earlier = selectors.import_job_by_key(owner=owner, idempotency_key=idempotency_key)
        if earlier is None:
            raise
        return earlier
    except formats.FormatError:
        uploads.upload_delete(stored.pk if stored else None)
        raise
    return job


def import_job_execute(
    *, job_id: uuid.UUID, progress: Callable[[int], object] | None = None
) -> str:
    """Import the job's file; returns a short summary. Safe to run twice: a job is
    claimed when queued or when its worker's lease ran out, and a claimed job resumes
    after the last batch stored. The job always ends: an entry that cannot be read or
    stored is a failed item, an error outside any entry fails the job with its reason;
    only a lost database connection leaves it to the reconciler. ``progress`` is called
    with the number of conversations of each batch done."""
    job = _claim(job_id)
    if job is None:
        return "nothing to do: the job was taken or is finished"
    try:
        with _open_upload(job) as stream:
            fmt = _resolve_format(job, stream)
            _hold(job, format=fmt.id)
            entries = file_entries(fmt, stream, job.size)
            # What an earlier claim stored is skipped (one item per entry, in order).
            entries = itertools.islice(entries, job.processed, None)
            for number, batch in enumerate(_batches(entries)):
                if number % ANALYZE_EVERY == 0:
                    _refresh_statistics()
                _import_batch(job, fmt, batch)
                if progress is not None:
                    progress(len(batch))
    except LeaseLost:
        return "stopped: another worker took the job over"
    except formats.FormatError as error:
        return _finish(job, Status.FAILED, _describe(error))
    except OSError as error:
        return _finish(job, Status.FAILED, f"could not read the file: {error}")
    except (OperationalError, InterfaceError):
        raise  # the database is gone: the lease runs out and the reconciler runs it again
    except Exception as error:
        logger.exception("import job %s stopped on an unexpected error", job.pk)
        return _finish(job, Status.FAILED, f"the import stopped: {_exception_text(error)}")
    return _finish(job, Status.SUCCEEDED, "")


class LeaseLost(Exception):
    """This worker's claim on the job is over: another one holds it now."""


def _claim(job_id: uuid.UUID) -> models.ImportJob | None:
    """Take the job for this worker (a conditional UPDATE): queued, or running with an
    expired lease (its worker vanished). A job claimed too often fails instead."""
    now = timezone.now()
    claimable = Q(status=Status.QUEUED) | Q(status=Status.RUNNING, lease_expires_at__lt=now)
    claimed = models.ImportJob.objects.filter(claimable, pk=job_id).update(
        status=Status.RUNNING,
        attempts=F("attempts") + 1,
        lease_expires_at=now + timedelta(seconds=settings.IMPORT_LEASE_SECONDS),
        started_at=Coalesce(F("started_at"), now),
    )
    if not claimed:
        return None
    job = models.ImportJob.objects.select_related("owner", "upload").get(pk=job_id)
    if job.attempts > settings.IMPORT_MAX_ATTEMPTS:
        _finish(job, Status.FAILED, _gave_up(job.attempts - 1))
        return None
    return job


def _gave_up(attempts: int) -> str:
    return f"the import's worker stopped {attempts} times before it finished; upload it again"


def _hold(job: models.ImportJob, **fields: Any) -> None:
    """Renew this worker's lease (and write ``fields``), or raise :class:`LeaseLost`
    when another claim took the job. In a transaction, the job's row stays locked until
    the commit, so two claims never store the same batch."""
    lease = timezone.now() + timedelta(seconds=settings.IMPORT_LEASE_SECONDS)
    held = models.ImportJob.objects.filter(
        pk=job.pk, status=Status.RUNNING, attempts=job.attempts
    ).update(lease_expires_at=lease, **fields)
    if not held:
        raise LeaseLost


def _exception_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:1000]


@contextmanager
def _open_upload(job: models.ImportJob) -> Iterator[IO[bytes]]:
    if job.upload is None:
        raise OSError("the upload is gone")
    with uploads.upload_open(job.upload) as stream:
        yield stream


KEY_LENGTH = 200  # Conversation.source_key, ImportItem.key


def _check_key(key: str | None) -> None:
    if key is not None and len(key) > KEY_LENGTH:
        raise formats.FormatError(
            f"the conversation's id is longer than {KEY_LENGTH} characters", field="id"
        )


def _short_key(key: str | None) -> str | None:
    return None if key is None else key[:KEY_LENGTH]


def _refresh_statistics() -> None:
    """ANALYZE the conversation table (PostgreSQL). Each batch looks its conversations up
    by owner and key or hash; with statistics from before a big import (the table was
    small) the planner walks all the owner's rows instead of the unique indexes, and
    autovacuum seldom catches up while an import runs."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            table = models.Conversation._meta.db_table
            cursor.execute(f"ANALYZE {table} (owner_id, source_format, source_key, content_hash)")


def _batches(entries: Iterator[Entry]) -> Iterator[list[Entry]]:
    while batch := list(itertools.islice(entries, BATCH_SIZE)):
        yield batch


def _import_batch(job: models.ImportJob, fmt: formats.Format, batch: list[Entry]) -> None:
    """Store a batch (:func:`_store_batch`). A batch that raises is stored again one
    entry at a time, so that the entry at fault is a failed item with the reason and the
    others still import."""
    try:
        _store_batch(job, fmt, batch)
    except (LeaseLost, OperationalError, InterfaceError):
        raise
    except Exception as error:
        if len(batch) > 1:
            logger.warning("import job %s: a batch failed (%r), retried one by one", job.pk, error)
            for entry in batch:
                _import_batch(job, fmt, [entry])
            return
        logger.exception("import job %s: entry could not be imported", job.pk)
        index, key = _position(batch[0])
        failure = formats.FormatError(f"could not be imported: {_exception_text(error)}")
        with transaction.atomic():
            _hold(job)
            _record(job, [_failed_item(job, index, _short_key(key), failure)])


def _position(entry: Entry) -> tuple[int, str | None]:
    if isinstance(entry, Unread):
        return entry.index, entry.key
    index, item, _ = entry
    return index, item.key if isinstance(item, formats.ParseResult) else None


def _store_batch(job: models.ImportJob, fmt: formats.Format, batch: list[Entry]) -> None:
    """Store a batch in one transaction: conversations that cannot be read or stored are
    failed items, the others are saved together (:func:`conversation_save_many`)."""
    failures: dict[int, tuple[str | None, formats.FormatError]] = {}
    ready: list[tuple[int, formats.ParseResult, str]] = []
    unchanged, read = _skip_stored(job, fmt, batch)
    for index, entry, whole in read:
        if isinstance(entry, formats.FormatError):
            failures[index] = (None, entry)
            continue
        try:
            _check_key(entry.key)
            check_conversation(entry.conversation, validated=entry.validated, **conversation_caps())
        except formats.FormatError as error:
            failures[index] = (_short_key(entry.key), error)
            continue
        digest = whole or content_hash(fmt.id, entry.conversation.model_dump(mode="json"))
        ready.append((index, entry, digest))
    with transaction.atomic():
        _hold(job)  # first: the job's row stays locked until this batch commits
        saved = conversation_save_many(
            owner=job.owner, fmt=fmt, items=[(item, digest) for _, item, digest in ready]
        )
        items = [_failed_item(job, index, key, error) for index, (key, error) in failures.items()]
        items.extend(unchanged)
        for (index, item, _), result in zip(ready, saved, strict=True):
            if isinstance(result, formats.FormatError):
                items.append(_failed_item(job, index, item.key, result))
            else:
                items.append(_item(job, index, item, result))
        _record(job, items)


def _record(job: models.ImportJob, items: list[models.ImportItem]) -> None:
    """Insert the items and add them to the job's counts (in the batch's transaction)."""
    items.sort(key=lambda row: row.index)
    counts = Counter(row.status for row in items)
    bulk_insert(models.ImportItem, [_item_row(item) for item in items])
    models.ImportJob.objects.filter(pk=job.pk).update(
        processed=F("processed") + len(items),
        created=F("created") + counts[ItemStatus.CREATED],
        updated=F("updated") + counts[ItemStatus.UPDATED],
        unchanged=F("unchanged") + counts[ItemStatus.UNCHANGED],
        failed=F("failed") + counts[ItemStatus.FAILED],
    )


def _skip_stored(
    job: models.ImportJob, fmt: formats.Format, batch: list[Entry]
) -> tuple[list[models.ImportItem], list[Read]]:
    """Entries not read yet that the owner has stored as they are become unchanged items
    without being read (a re-import costs a hash and a query a batch); the others are
    read."""
    unread = [entry for entry in batch if isinstance(entry, Unread) and entry.digest]
    stored = selectors.conversations_unchanged(
        owner=job.owner,
        format_id=fmt.id,
        identities=[(entry.key, entry.digest or "") for entry in unread],
    )
    found = {entry.index: conversation for entry, conversation in zip(unread, stored, strict=True)}
    conversations_out_of_trash(conversations=[c for c in found.values() if c is not None])
    unchanged: list[models.ImportItem] = []
    read: list[Read] = []
    for entry in batch:
        if not isinstance(entry, Unread):
            read.append(entry)
        elif (conversation := found.get(entry.index)) is not None:
            unchanged.append(_unchanged_item(job, entry, conversation))
        else:
            assert fmt.read_entry is not None
            read.append((entry.index, fmt.read_entry(entry.entry), entry.digest))
    return unchanged, read


def _unchanged_item(
    job: models.ImportJob, entry: Unread, conversation: models.Conversation
) -> models.ImportItem:
    return models.ImportItem(
        job=job,
        index=entry.index,
        key=entry.key,
        status=ItemStatus.UNCHANGED,
        conversation=conversation,
        title=conversation.title[:300],
        warning_count=conversation.warning_count,
    )


def _item_row(item: models.ImportItem) -> dict[str, Any]:
    return {f.attname: getattr(item, f.attname) for f in _ITEM_FIELDS}


_ITEM_FIELDS = [f for f in models.ImportItem._meta.concrete_fields if not f.primary_key]


def _item(
    job: models.ImportJob, index: int, item: formats.ParseResult, result: ImportedConversation
) -> models.ImportItem:
    return models.ImportItem(
        job=job,
        index=index,
        key=item.key,
        status=result.status,
        conversation=result.conversation,
        title=result.conversation.title[:300],
        added_messages=result.added_messages,
        warning_count=len(item.warnings),
    )


def _failed_item(
    job: models.ImportJob, index: int, key: str | None, error: formats.FormatError
) -> models.ImportItem:
    return models.ImportItem(
        job=job,
        index=index,
        key=key,
        status=ItemStatus.FAILED,
        error=error.message[:2000],
        field=(error.field or "")[:300],
    )


def _describe(error: formats.FormatError) -> str:
    return error.message + (f" (at {error.field})" if error.field else "")


def _finish(job: models.ImportJob, status: str, error: str) -> str:
    """End the job (unless another claim took it since) and delete its upload."""
    with transaction.atomic():  # an ended job never shows an upload left behind
        ended = models.ImportJob.objects.filter(
            pk=job.pk, attempts=job.attempts, status__in=[Status.QUEUED, Status.RUNNING]
        ).update(status=status, error=error, finished_at=timezone.now(), lease_expires_at=None)
        if not ended:
            return "stopped: another worker took the job over"
        uploads.upload_delete(job.upload_id)
    job.refresh_from_db()
    summary = (
        f"{job.filename}: {job.created} created, {job.updated} updated, "
        f"{job.unchanged} unchanged, {job.failed} failed"
    )
    return f"{summary}; failed: {error}" if error else summary


def _resolve_format(job: models.ImportJob, stream: IO[bytes]) -> formats.Format:
    if job.requested_format != "auto":
        return formats.get(job.requested_format)
    return detect_format(stream, job.filename)


def import_job_reconcile() -> int:
    """Run again, or end, the jobs nobody works on: running past their lease (their
    worker vanished), or queued past it (their task was lost, or never sent). A job
    claimed ``IMPORT_MAX_ATTEMPTS`` times fails. Returns how many were enqueued again
    (stops at the first the broker refuses: it is down, the next round tries again)."""
    now = timezone.now()
    lease = timedelta(seconds=settings.IMPORT_LEASE_SECONDS)
    stale = models.ImportJob.objects.filter(
        status__in=[Status.QUEUED, Status.RUNNING], lease_expires_at__lt=now
    ).only("pk", "status", "attempts", "upload_id", "filename")
    count = 0
    for job in stale[:1000]:
        if job.status == Status.RUNNING and job.attempts >= settings.IMPORT_MAX_ATTEMPTS:
            _finish(job, Status.FAILED, _gave_up(job.attempts))
            continue
        if not enqueue_task.send_again(
            enqueue_task.IMPORT_JOB, models.ImportJob.objects.all(), job.pk, lease_until=now + lease
        ):
            break
        count += 1
    return count
