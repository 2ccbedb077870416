"""Background imports of whole files (data exports, datasets): streamed, in batches,
with a result per conversation, and never the same conversation twice.

The uploaded file is kept on disk until the job ends. Formats that hold many
conversations are read one conversation at a time (``Format.iter_parse``); one that cannot
be read is a failed item and the rest still import.
"""

from __future__ import annotations

import itertools
import logging
import shutil
import uuid
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import ijson
import orjson
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from conversations import models, strict_json
from conversations.records import content_hash
from conversations.services.bulk import bulk_insert
from conversations.services.imports import (
    ImportedConversation,
    conversations_save_many,
    stored_unchanged,
)
from providers import formats
from providers.validation import check_conversation

logger = logging.getLogger(__name__)
Status = models.ImportJob.Status
ItemStatus = models.ImportItem.Status
BATCH_SIZE = 250
# Batches between two refreshes of the planner's statistics of the conversation table.
ANALYZE_EVERY = 8
SAMPLE_BYTES = 4 * 1024 * 1024


def import_job_create(
    *,
    owner: User,
    upload: IO[bytes],
    filename: str,
    format_id: str = "auto",
    enqueue: bool = True,
) -> models.ImportJob:
    """Keep the uploaded file and enqueue its import once the transaction commits
    (``enqueue=False``: the caller runs :func:`import_job_execute` itself)."""
    from conversations.tasks import import_job_execute

    if format_id != "auto":
        formats.get(format_id)  # FormatError (field "format") for an unknown id
    job_id = models.uuid7()
    directory = Path(settings.IMPORT_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{job_id}{_suffix(filename)}"
    with path.open("wb") as target:
        shutil.copyfileobj(upload, target, length=1024 * 1024)
    with transaction.atomic():
        job = models.ImportJob.objects.create(
            id=job_id,
            owner=owner,
            requested_format=format_id,
            filename=Path(filename).name[:255],
            path=str(path),
            size=path.stat().st_size,
        )
        if enqueue:
            transaction.on_commit(lambda: import_job_execute.delay(str(job.pk)))
    return job


def _suffix(filename: str) -> str:
    suffix = Path(filename).suffix.lower()
    return suffix if suffix in {".json", ".jsonl", ".zip", ".txt"} else ".json"


def import_job_execute(
    *, job_id: uuid.UUID, progress: Callable[[int], object] | None = None
) -> str:
    """Import the job's file; returns a short summary. Safe to run twice: only a queued
    job is claimed, and re-imported conversations are recognised anyway. ``progress`` is
    called with the number of conversations of each batch done."""
    claimed = models.ImportJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return "nothing to do: the job was taken or is finished"
    job = models.ImportJob.objects.select_related("owner").get(pk=job_id)
    try:
        fmt = _resolve_format(job)
        models.ImportJob.objects.filter(pk=job.pk).update(format=fmt.id)
        for number, batch in enumerate(_batches(_read(fmt, Path(job.path)))):
            if number % ANALYZE_EVERY == 0:
                _refresh_statistics()
            _import_batch(job, fmt, batch)
            if progress is not None:
                progress(len(batch))
    except formats.FormatError as error:
        return _finish(job, Status.FAILED, _describe(error))
    except OSError as error:
        return _finish(job, Status.FAILED, f"could not read the file: {error}")
    return _finish(job, Status.SUCCEEDED, "")


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


def _read(fmt: formats.Format, path: Path) -> Iterator[Entry]:
    if fmt.iter_entries is not None and fmt.entry_identity is not None:
        with path.open("rb") as stream:
            for index, entry in enumerate(fmt.iter_entries(stream)):
                identity = fmt.entry_identity(entry)
                if identity is None:
                    yield Unread(index, entry, None, None)
                else:
                    key, document = identity
                    yield Unread(index, entry, key, _identity_hash(fmt.id, document))
        return
    if fmt.iter_parse is not None:
        with path.open("rb") as stream:
            for index, entry in enumerate(fmt.iter_parse(stream)):
                yield index, entry, None
        return
    if path.stat().st_size > settings.MAX_REQUEST_BYTES:
        raise formats.FormatError(
            f"a {fmt.id} file holds one conversation and must be under "
            f"{settings.MAX_REQUEST_BYTES} bytes",
            field="file",
        )
    payload = _load_whole(fmt, path)
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


def _load_whole(fmt: formats.Format, path: Path) -> object:
    if fmt.kind != "text":
        return _json_file(path)
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise formats.FormatError(f"the file is not UTF-8 text: {error}", field="file") from None


def _json_file(path: Path) -> object:
    """The file's JSON, read by the API's rules (no duplicate key, no integer beyond 64
    bits...): a file of one conversation is the same document as a request body."""
    try:
        return strict_json.loads(path.read_bytes())
    except strict_json.JsonError as error:
        if error.code == "parse_error":
            reason = error.message.removeprefix("malformed JSON: ")
            raise formats.FormatError(
                f"the file is not valid JSON: {reason}", field="file"
            ) from None
        raise formats.FormatError(error.message, field=error.path or "file") from None


def _import_batch(job: models.ImportJob, fmt: formats.Format, batch: list[Entry]) -> None:
    """Store a batch in one transaction: conversations that cannot be read or stored are
    failed items, the others are saved together (:func:`conversations_save_many`)."""
    failures: dict[int, tuple[str | None, formats.FormatError]] = {}
    ready: list[tuple[int, formats.ParseResult, str]] = []
    unchanged, read = _skip_stored(job, fmt, batch)
    for index, entry, whole in read:
        if isinstance(entry, formats.FormatError):
            failures[index] = (None, entry)
            continue
        try:
            _check_key(entry.key)
            check_conversation(entry.conversation)
        except formats.FormatError as error:
            failures[index] = (_short_key(entry.key), error)
            continue
        digest = whole or content_hash(fmt.id, entry.conversation.model_dump(mode="json"))
        ready.append((index, entry, digest))
    with transaction.atomic():
        saved = conversations_save_many(
            owner=job.owner, fmt=fmt, items=[(item, digest) for _, item, digest in ready]
        )
        items = [_failed_item(job, index, key, error) for index, (key, error) in failures.items()]
        items.extend(unchanged)
        for (index, item, _), result in zip(ready, saved, strict=True):
            if isinstance(result, formats.FormatError):
                items.append(_failed_item(job, index, item.key, result))
            else:
                items.append(_item(job, index, item, result))
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
    stored = stored_unchanged(
        owner=job.owner,
        format_id=fmt.id,
        identities=[(entry.key, entry.digest or "") for entry in unread],
    )
    found = {entry.index: conversation for entry, conversation in zip(unread, stored, strict=True)}
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
    models.ImportJob.objects.filter(pk=job.pk).update(
        status=status, error=error, finished_at=timezone.now()
    )
    Path(job.path).unlink(missing_ok=True)
    job.refresh_from_db()
    summary = (
        f"{job.filename}: {job.created} created, {job.updated} updated, "
        f"{job.unchanged} unchanged, {job.failed} failed"
    )
    return f"{summary}; failed: {error}" if error else summary


def _resolve_format(job: models.ImportJob) -> formats.Format:
    if job.requested_format != "auto":
        return formats.get(job.requested_format)
    return formats.detect(_sample(Path(job.path)))


def _sample(path: Path) -> object:
    """A small piece of the file that shows its format: the first conversation of a JSON
    array or a zip export, the first line of JSONL, or the whole of a small file."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith(".json")]
            if not names:
                raise formats.FormatError("the zip holds no JSON file", field="file")
            name = "conversations.json" if "conversations.json" in names else names[0]
            with archive.open(name) as member:
                return _first_items(member)
    with path.open("rb") as stream:
        head = stream.read(SAMPLE_BYTES)
    if path.suffix == ".jsonl" or (head[:1] == b"{" and b"\n{" in head):
        return head.split(b"\n", 1)[0].decode("utf-8", errors="replace") + "\n"
    if len(head) < SAMPLE_BYTES:
        # Only to tell the format: the entries are read (and judged) one by one later.
        try:
            return orjson.loads(head)
        except orjson.JSONDecodeError as error:
            message = f"the file is not valid JSON: {error}"
            raise formats.FormatError(message, field="file") from None
    with path.open("rb") as stream:
        return _first_items(stream)


def _first_items(stream: IO[bytes]) -> object:
    try:
        first = next(ijson.items(stream, "item", use_float=True), None)
    except ijson.JSONError as error:
        raise formats.FormatError(f"the file is not valid JSON: {error}", field="file") from None
    if first is None:
        raise formats.FormatError("the file holds no conversation", field="file")
    return [first]
