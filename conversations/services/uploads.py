"""Uploaded files kept in PostgreSQL, in chunks, so that any host can read them.

A web process writes an upload as it arrives (:class:`UploadWriter`, fed by the API's
upload handler, never holding it in memory or on disk); a worker on another host reads it
back as a seekable stream (:func:`upload_open`: a zip needs to seek). An upload is
deleted when its job ends, swept when abandoned (:func:`uploads_sweep`), and limited per
user: all of a user's uploads waiting to be imported stay under ``IMPORT_QUOTA_BYTES``.
"""

from __future__ import annotations

import io
import shutil
import uuid
from datetime import timedelta
from typing import IO

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q, Sum
from django.utils import timezone

from conversations import models

CHUNK_BYTES = 1024 * 1024


class UploadQuotaExceeded(Exception):
    """The upload would take the owner's stored uploads past ``IMPORT_QUOTA_BYTES``."""

    def __init__(self, used: int, incoming: int) -> None:
        quota = settings.IMPORT_QUOTA_BYTES
        super().__init__(
            f"your uploads waiting to be imported hold {used} bytes; with this one "
            f"({incoming} bytes) they would pass your quota of {quota} bytes "
            "(UMF_IMPORT_QUOTA_BYTES): wait for your imports to finish"
        )
        self.message = str(self)


def upload_check_quota(*, owner: User, incoming: int, exclude: uuid.UUID | None = None) -> None:
    """:class:`UploadQuotaExceeded` when ``incoming`` more bytes pass the owner's quota."""
    # An export job's file is not waiting to be imported.
    others = models.Upload.objects.filter(owner=owner, export_job__isnull=True)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    used = others.aggregate(total=Sum("size"))["total"] or 0
    if used + incoming > settings.IMPORT_QUOTA_BYTES:
        raise UploadQuotaExceeded(used, incoming)


class UploadWriter:
    """Writes an upload chunk by chunk as its bytes arrive. ``announced``: the bytes the
    request says it carries, counted against the quota until the upload is complete.
    ``quota=False``: a file the archive writes (an export job's), which no quota limits."""

    def __init__(self, *, owner: User, announced: int = 0, quota: bool = True) -> None:
        self.quota = quota
        if quota:
            upload_check_quota(owner=owner, incoming=announced)
        self.owner = owner
        self.upload = models.Upload.objects.create(
            owner=owner, size=announced, chunk_bytes=CHUNK_BYTES
        )
        self._buffer = bytearray()
        self._written = 0
        self._chunks = 0

    def write(self, data: bytes) -> int:
        self._buffer += data
        while len(self._buffer) >= CHUNK_BYTES:
            self._flush(bytes(self._buffer[:CHUNK_BYTES]))
            del self._buffer[:CHUNK_BYTES]
        return len(data)

    def _flush(self, data: bytes) -> None:
        if self.quota and self._written + len(data) > self.upload.size:
            # More than announced (or nothing was): the quota is checked on what came.
            upload_check_quota(
                owner=self.owner, incoming=self._written + len(data), exclude=self.upload.pk
            )
        models.UploadChunk.objects.create(upload=self.upload, index=self._chunks, data=data)
        self._chunks += 1
        self._written += len(data)

    def flush(self) -> None:
        """Nothing: full chunks are stored as they fill, the last one by :meth:`close`."""

    def close(self) -> models.Upload:
        """Store the last bytes and mark the upload complete, with its real size."""
        if self._buffer:
            self._flush(bytes(self._buffer))
            self._buffer.clear()
        models.Upload.objects.filter(pk=self.upload.pk).update(size=self._written, complete=True)
        self.upload.size, self.upload.complete = self._written, True
        return self.upload

    def abort(self) -> None:
        upload_delete(self.upload.pk)


def upload_store(*, owner: User, stream: IO[bytes]) -> models.Upload:
    """Store a whole stream (a file the command reads, a form's upload) as an upload."""
    writer = UploadWriter(owner=owner)
    try:
        shutil.copyfileobj(stream, writer, length=CHUNK_BYTES)
    except BaseException:
        writer.abort()
        raise
    return writer.close()


class ChunkReader(io.RawIOBase):
    """An upload as a seekable binary file: reads its chunks one query at a time,
    keeping the last one read."""

    def __init__(self, upload: models.Upload) -> None:
        self._upload_id = upload.pk
        self._size = upload.size
        self._chunk_bytes = upload.chunk_bytes
        self._position = 0
        self._cached: tuple[int, bytes] = (-1, b"")

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        if base + offset < 0:
            raise OSError("seek before the start of the upload")
        self._position = base + offset
        return self._position

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._position >= self._size:
            return 0
        index, start = divmod(self._position, self._chunk_bytes)
        data = self._chunk(index)
        count = min(len(buffer), len(data) - start)
        if count <= 0:
            raise OSError(f"chunk {index} of upload {self._upload_id} is missing or short")
        buffer[:count] = data[start : start + count]
        self._position += count
        return count

    def _chunk(self, index: int) -> bytes:
        if self._cached[0] != index:
            data = (
                models.UploadChunk.objects.filter(upload_id=self._upload_id, index=index)
                .values_list("data", flat=True)
                .first()
            )
            if data is None:
                raise OSError(f"the upload {self._upload_id} is gone")
            self._cached = (index, bytes(data))
        return self._cached[1]


def upload_open(upload: models.Upload) -> IO[bytes]:
    """The upload as a buffered, seekable binary stream."""
    return io.BufferedReader(ChunkReader(upload), buffer_size=64 * 1024)


def upload_delete(upload_id: uuid.UUID | None) -> None:
    """Delete an upload and its chunks (nothing when there is none)."""
    if upload_id is not None:
        models.UploadChunk.objects.filter(upload_id=upload_id).delete()
        models.Upload.objects.filter(pk=upload_id).delete()


def uploads_sweep() -> int:
    """Delete the uploads no job will read: never given to a job (a request that died
    halfway; an export job's file is its job's) after ``UPLOAD_ABANDONED_SECONDS``, or
    whose import job has ended. Returns how many."""
    cutoff = timezone.now() - timedelta(seconds=settings.UPLOAD_ABANDONED_SECONDS)
    ended = [models.ImportJob.Status.SUCCEEDED, models.ImportJob.Status.FAILED]
    abandoned = models.Upload.objects.filter(
        Q(job__isnull=True, export_job__isnull=True, created_at__lt=cutoff)
        | Q(job__status__in=ended)
    ).values_list("pk", flat=True)
    swept = list(abandoned[:1000])
    for upload_id in swept:
        upload_delete(upload_id)
    return len(swept)
