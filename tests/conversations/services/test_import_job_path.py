"""Imports through the job path (API upload -> job -> stored rows -> page and export):
zip exports with attached files, jobs that always end, and a format told from the members
the format reads whatever their order in the zip."""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
from typing import Any

import orjson
import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from conversations import models
from conversations.services import import_jobs
from tests.conftest import FIXTURES, load_fixture
from tests.conversations.helpers import run_upload, zip_of

pytestmark = pytest.mark.django_db

# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
# The two images dalle_images.json points at (file-service:// and sediment://).
UPLOADED_IMAGE = "file-7QeUu8fRsdBwHp1D2kZxCq"
GENERATED_IMAGE = "file_00000000a1b2c3d4e5f6a7b8c9d0e1f2"


def chatgpt_zip_with_images() -> bytes:
    conversations = load_fixture("chatgpt-export/dalle_images.json")
    return zip_of(
        [
            ("conversations.json", orjson.dumps(conversations)),
            (f"{UPLOADED_IMAGE}-cat.png", PNG),
            (f"{GENERATED_IMAGE}.dat", b"not read: the image block points at no zip member"),
        ]
    )


def test_a_chatgpt_zip_with_images_imports_with_its_attachments(
    api: APIClient, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    job = run_upload(
        api, django_capture_on_commit_callbacks, "export.zip", chatgpt_zip_with_images()
    )

    assert job["status"] == "succeeded", job["error"]
    assert (job["format"], job["created"], job["failed"]) == ("chatgpt-export", 1, 0)
    conversation_id = job["items"][0]["conversation"]
    [block] = models.ContentBlock.objects.filter(
        message__conversation_id=conversation_id, type="image", attachment__isnull=False
    ).select_related("attachment")
    assert block.attachment is not None
    assert block.attachment.sha256 == hashlib.sha256(PNG).hexdigest()

    browser = Client()
    browser.force_login(alice)
    page = browser.get(f"/conversations/{conversation_id}/")
    assert page.status_code == 200
    assert f"/attachments/{block.attachment_id}/" in page.content.decode()
    exported = api.get(f"/api/v1/conversations/{conversation_id}/export?format=chatgpt-export")
    assert exported.status_code == 200, exported.content
    assert exported.json()["payload"][0]["title"] == "Watercolour cat"
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def finetune_lines(count: int, start: int = 0) -> bytes:
    """An openai-finetune JSONL file of ``count`` distinct conversations."""
    return b"\n".join(
        orjson.dumps(
            {
                "messages": [
                    {"role": "user", "content": f"question {number}"},
                    {"role": "assistant", "content": f"answer {number}"},
                ]
            }
        )
        for number in range(start, start + count)
    )


def test_an_entry_that_raises_while_imported_is_a_failed_item_the_others_import(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_conversation = import_jobs.check_conversation  # type: ignore[attr-defined]

    def check_or_crash(conversation: Any, **caps: Any) -> None:
        check_conversation(conversation, **caps)
        if "question 1" in conversation.model_dump_json():
            raise RuntimeError("a bug in a reader")

    monkeypatch.setattr(import_jobs, "check_conversation", check_or_crash)
    job = run_upload(
        api, django_capture_on_commit_callbacks, "f.jsonl", finetune_lines(3), "openai-finetune"
    )

    assert (job["status"], job["created"], job["failed"]) == ("succeeded", 2, 1)
    assert job["items"][1]["status"] == "failed"
    assert "RuntimeError: a bug in a reader" in job["items"][1]["error"]
    assert models.Conversation.objects.count() == 2


def test_an_error_outside_any_entry_fails_the_job_with_its_reason(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    file_entries = import_jobs.file_entries  # type: ignore[attr-defined]

    def entries_then_crash(*args: Any) -> Any:
        yield from itertools.islice(file_entries(*args), 2)
        raise ValueError("the reader broke down")

    monkeypatch.setattr(import_jobs, "file_entries", entries_then_crash)
    monkeypatch.setattr(import_jobs, "BATCH_SIZE", 1)
    job = run_upload(
        api, django_capture_on_commit_callbacks, "f.jsonl", finetune_lines(3), "openai-finetune"
    )

    assert job["status"] == "failed"
    assert job["error"] == "the import stopped: ValueError: the reader broke down"
    assert (job["processed"], job["created"]) == (2, 2)
    assert job["finished_at"] is not None
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


class WorkerVanished(BaseException):
    """What a worker killed mid-job looks like to the job: it stops where it is."""


def test_a_job_whose_worker_vanished_is_resumed_by_the_reconciler(
    alice: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    monkeypatch.setattr(import_jobs, "BATCH_SIZE", 2)
    job = import_jobs.import_job_create(
        owner=alice, upload=io.BytesIO(finetune_lines(5)), filename="f.jsonl", enqueue=False
    )

    def vanish(count: int) -> None:
        raise WorkerVanished

    with pytest.raises(WorkerVanished):
        import_jobs.import_job_execute(job_id=job.pk, progress=vanish)
    job.refresh_from_db()
    assert (job.status, job.processed, job.attempts) == ("running", 2, 1)
    # While the lease holds, nothing is run twice.
    assert import_jobs.import_job_reconcile() == 0
    assert import_jobs.import_job_execute(job_id=job.pk).startswith("nothing to do")

    models.ImportJob.objects.filter(pk=job.pk).update(lease_expires_at=timezone.now())
    assert import_jobs.import_job_reconcile() == 1  # runs it here: no broker in tests

    job.refresh_from_db()
    assert (job.status, job.processed, job.created, job.attempts) == ("succeeded", 5, 5, 2)
    assert sorted(job.items.values_list("index", flat=True)) == [0, 1, 2, 3, 4]
    assert models.Conversation.objects.count() == 5
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def test_a_job_whose_worker_keeps_vanishing_ends_failed(alice: Any, settings: Any) -> None:
    job = import_jobs.import_job_create(
        owner=alice, upload=io.BytesIO(finetune_lines(1)), filename="f.jsonl", enqueue=False
    )
    models.ImportJob.objects.filter(pk=job.pk).update(
        status="running", attempts=settings.IMPORT_MAX_ATTEMPTS, lease_expires_at=timezone.now()
    )
    assert import_jobs.import_job_reconcile() == 0

    job.refresh_from_db()
    assert job.status == "failed" and job.finished_at is not None
    assert "stopped 3 times" in job.error
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def test_a_queued_job_whose_task_was_lost_is_sent_again(alice: Any) -> None:
    job = import_jobs.import_job_create(
        owner=alice, upload=io.BytesIO(finetune_lines(1)), filename="f.jsonl", enqueue=False
    )
    assert import_jobs.import_job_reconcile() == 0  # its task may still be on its way
    models.ImportJob.objects.filter(pk=job.pk).update(lease_expires_at=timezone.now())
    assert import_jobs.import_job_reconcile() == 1

    job.refresh_from_db()
    assert (job.status, job.created) == ("succeeded", 1)


SPLIT = FIXTURES / "chatgpt-export" / "files"
SIDE_FILES = [
    ("user.json", b'{"id": "user-1", "email": "a@example.com"}'),
    ("export_manifest.json", b'{"version": 2, "files": ["conversations-000.json"]}'),
    ("conversation_asset_file_names.json", b'{"file-AbC": "photo.png"}'),
    ("message_feedback.json", b"[]"),
    ("shared_conversations.json", b'[{"id": "s-1", "title": "shared"}]'),
    ("chat.html", b"<html></html>"),
]


@pytest.mark.parametrize("side_files_first", [True, False])
def test_auto_tells_a_split_chatgpt_zip_whatever_its_member_order(
    api: APIClient, django_capture_on_commit_callbacks: Any, side_files_first: bool
) -> None:
    shards = [(path.name, path.read_bytes()) for path in sorted(SPLIT.glob("*.json"))]
    members = SIDE_FILES + shards if side_files_first else shards + SIDE_FILES
    job = run_upload(api, django_capture_on_commit_callbacks, "export.zip", zip_of(members))

    assert job["status"] == "succeeded", job["error"]
    assert job["format"] == "chatgpt-export"
    assert job["processed"] == 4
