"""Uploads kept in PostgreSQL in chunks: streamed in by the API, read back seekable by
any worker, deleted when their job ends, swept when abandoned, limited per user."""

from __future__ import annotations

import io
import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from conversations import models
from conversations.services import import_jobs, uploads
from tests.conversations.services.test_import_job_path import (
    chatgpt_zip_with_images,
    finetune_lines,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(uploads, "CHUNK_BYTES", 100)
    return 100


def post(api: APIClient, name: str, content: bytes) -> Any:
    file = io.BytesIO(content)
    file.name = name
    return api.post("/api/v1/imports/", {"file": file}, format="multipart")


def test_an_upload_is_stored_in_chunks_and_deleted_when_its_job_ends(
    api: APIClient, small_chunks: int, django_capture_on_commit_callbacks: Any
) -> None:
    content = chatgpt_zip_with_images()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post(api, "export.zip", content)
    assert response.status_code == 202, response.content
    job = models.ImportJob.objects.select_related("upload").get(pk=response.json()["id"])
    assert job.upload is not None and job.upload.complete
    assert job.size == job.upload.size == len(content)
    chunks = list(job.upload.chunks.order_by("index").values_list("data", flat=True))
    assert len(chunks) == -(-len(content) // small_chunks)
    assert b"".join(bytes(chunk) for chunk in chunks) == content

    for callback in callbacks:  # the worker, reading the chunks back (a zip: it seeks)
        callback()
    job.refresh_from_db()
    assert (job.status, job.created) == ("succeeded", 1), job.error
    assert job.upload_id is None
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def test_the_chunk_reader_reads_and_seeks_like_a_file(alice: Any, small_chunks: int) -> None:
    content = bytes(random.Random(7).randrange(256) for _ in range(1234))
    upload = uploads.upload_store(owner=alice, stream=io.BytesIO(content))
    stream = uploads.upload_open(upload)
    assert stream.read() == content
    shuffle = random.Random(8)
    for _ in range(200):
        start, length = shuffle.randrange(1300), shuffle.randrange(300)
        stream.seek(start)
        assert stream.read(length) == content[start : start + length]
    stream.seek(-10, io.SEEK_END)
    assert stream.read() == content[-10:]


def test_an_upload_past_the_users_quota_is_a_413_naming_it(
    api: APIClient, alice: Any, settings: Any
) -> None:
    settings.IMPORT_QUOTA_BYTES = 1000
    uploads.upload_store(owner=alice, stream=io.BytesIO(b"x" * 600))  # a job still waiting
    response = post(api, "f.jsonl", finetune_lines(10))
    assert response.status_code == 413
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("quota_exceeded", "file")
    assert "UMF_IMPORT_QUOTA_BYTES" in error["message"]
    assert models.Upload.objects.count() == 1 and not models.ImportJob.objects.exists()


def test_a_refused_upload_leaves_nothing_stored(api: APIClient) -> None:
    response = post(api, "cat.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    assert response.status_code == 422
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def test_abandoned_uploads_are_swept(alice: Any, settings: Any) -> None:
    def stored() -> models.Upload:
        return uploads.upload_store(owner=alice, stream=io.BytesIO(b"[]"))

    abandoned, recent, waiting, ended = stored(), stored(), stored(), stored()
    long_ago = timezone.now() - timedelta(seconds=settings.UPLOAD_ABANDONED_SECONDS + 1)
    models.Upload.objects.filter(pk__in=[abandoned.pk, waiting.pk, ended.pk]).update(
        created_at=long_ago
    )
    models.ImportJob.objects.create(owner=alice, filename="w.json", upload=waiting)
    models.ImportJob.objects.create(
        owner=alice, filename="e.json", upload=ended, status="succeeded"
    )

    assert uploads.uploads_sweep() == 2
    assert set(models.Upload.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}


def test_the_command_and_the_page_store_their_file_as_an_upload(alice: Any) -> None:
    job = import_jobs.import_job_create(
        owner=alice, upload=io.BytesIO(finetune_lines(2)), filename="f.jsonl", enqueue=False
    )
    assert job.upload is not None and job.upload.size == len(finetune_lines(2))
    import_jobs.import_job_execute(job_id=job.pk)
    assert not models.Upload.objects.exists()
