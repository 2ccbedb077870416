"""Import jobs in real Celery worker processes, through the local Redis broker: a worker
killed with SIGKILL in the middle of a job leaves it to the reconciler, and another worker
finishes it with nothing imported twice."""

from __future__ import annotations

import io
import signal
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models
from conversations.services import import_jobs
from tests.conversations.helpers import wait_for
from tests.conversations.services import test_replay_worker as replay_worker
from tests.conversations.services.test_import_job_path import (
    chatgpt_zip_with_images,
    finetune_lines,
)
from tests.conversations.services.test_replay_worker import WorkerFactory

# The replay tests' worker fixtures: a Redis queue of the test's own, worker processes.
queue = replay_worker.queue
provider = replay_worker.provider
start_worker = replay_worker.start_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]
CONVERSATIONS = 3000


@pytest.fixture(autouse=True)
def short_import_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    # Read by the workers this test starts (their environment is this process's).
    monkeypatch.setenv("UMF_IMPORT_LEASE_SECONDS", "2")


def job_of(job_id: str) -> models.ImportJob:
    return models.ImportJob.objects.get(pk=job_id)


def test_a_killed_worker_leaves_the_job_to_another_with_nothing_twice(
    api: APIClient, start_worker: WorkerFactory, tmp_path: Path
) -> None:
    first = start_worker()
    file = io.BytesIO(finetune_lines(CONVERSATIONS))
    file.name = "big.jsonl"
    response = api.post(
        "/api/v1/imports/", {"file": file, "format": "openai-finetune"}, format="multipart"
    )
    assert response.status_code == 202, response.content
    job_id = response.json()["id"]
    wait_for(lambda: job_of(job_id).processed >= 250, 90, "the first batch")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    stopped_at = job_of(job_id).processed
    assert 0 < stopped_at < CONVERSATIONS, "the job finished before the kill"

    start_worker()
    # What beat does every minute: once the dead worker's lease is over, send it again.
    wait_for(lambda: import_jobs.import_job_reconcile() > 0, 30, "the lease to run out")
    wait_for(lambda: job_of(job_id).status in ("succeeded", "failed"), 120, "the job to end")

    job = job_of(job_id)
    assert job.status == "succeeded", job.error
    assert (job.processed, job.created, job.failed, job.attempts) == (
        CONVERSATIONS,
        CONVERSATIONS,
        0,
        2,
    )
    indexes = list(job.items.order_by("index").values_list("index", flat=True))
    assert indexes == list(range(CONVERSATIONS))
    assert models.Conversation.objects.count() == CONVERSATIONS
    assert not models.Upload.objects.exists() and not models.UploadChunk.objects.exists()


def test_a_worker_imports_a_zip_with_images(api: APIClient, start_worker: WorkerFactory) -> None:
    start_worker()
    file = io.BytesIO(chatgpt_zip_with_images())
    file.name = "export.zip"
    response = api.post("/api/v1/imports/", {"file": file}, format="multipart")
    assert response.status_code == 202, response.content
    job_id = response.json()["id"]
    wait_for(lambda: job_of(job_id).status in ("succeeded", "failed"), 60, "the job to end")

    job: Any = job_of(job_id)
    assert (job.status, job.created) == ("succeeded", 1), job.error
    assert models.ContentBlock.objects.filter(type="image", attachment__isnull=False).count() == 1
