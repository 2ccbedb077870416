"""A broker that cannot be reached: the API answers 503 JSON naming the row that waits,
the reconciler runs it once the broker is back, and a client's retry with the same
Idempotency-Key gets the same row, never a second one. Every 5xx of the API is JSON."""

from __future__ import annotations

import io
import socket
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone
from rest_framework.test import APIClient

from conversations import models
from conversations.services import import_jobs, replays
from tests.conversations.helpers import weather_imported
from tests.conversations.services.test_import_job_path import finetune_lines
from tests.conversations.services.test_replay_worker import forget_connections
from umfsite.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def broker_down() -> Iterator[None]:
    previous = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(
        broker_url=f"redis://127.0.0.1:{closed_port()}/0", task_always_eager=False
    )
    forget_connections()
    yield
    celery_app.conf.update(**previous)
    forget_connections()


def broker_back() -> None:
    # The broker is back: tasks run (here, in-process, as without a broker).
    celery_app.conf.update(task_always_eager=True)
    forget_connections()


def upload(api: APIClient, key: str | None = None) -> Any:
    file = io.BytesIO(finetune_lines(2))
    file.name = "f.jsonl"
    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post("/api/v1/imports/", {"file": file}, format="multipart", **headers)


def replay(api: APIClient, conversation: str, key: str | None = None) -> Any:
    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(
        f"/api/v1/conversations/{conversation}/replays",
        {"provider": "echo", "model": "echo-1"},
        format="json",
        **headers,
    )


def test_an_upload_with_the_broker_down_is_a_503_naming_the_job_that_waits(
    api: APIClient, broker_down: None
) -> None:
    response = upload(api, key="upload-1")

    assert response.status_code == 503
    error = response.json()["error"]
    assert (error["code"], error["kind"]) == ("queue_unavailable", "import job")
    job = models.ImportJob.objects.get()
    assert error["id"] == str(job.pk) and job.status == "queued"

    again = upload(api, key="upload-1")  # the client retries
    assert again.status_code == 202 and again.json()["id"] == str(job.pk)
    assert models.ImportJob.objects.count() == 1

    broker_back()
    models.ImportJob.objects.update(lease_expires_at=timezone.now())
    assert import_jobs.import_job_reconcile() == 1
    job.refresh_from_db()
    assert (job.status, job.created) == ("succeeded", 2)
    assert models.Conversation.objects.count() == 2


def test_a_replay_with_the_broker_down_is_a_503_and_runs_once_when_it_is_back(
    api: APIClient, broker_down: None
) -> None:
    conversation = weather_imported(api)
    response = replay(api, conversation, key="replay-1")

    assert response.status_code == 503
    error = response.json()["error"]
    assert (error["code"], error["kind"]) == ("queue_unavailable", "replay run")
    run = models.ReplayRun.objects.get()
    assert error["id"] == str(run.pk) and run.status == "queued"

    again = replay(api, conversation, key="replay-1")
    assert again.status_code == 202 and again.json()["id"] == str(run.pk)
    assert models.ReplayRun.objects.count() == 1

    broker_back()
    models.ReplayRun.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert replays.replay_reconcile() == 1
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    assert models.Message.objects.filter(replay_run=run).count() == 1


def test_a_retry_with_the_same_idempotency_key_gets_the_same_rows(api: APIClient) -> None:
    first, second = upload(api, key="k-1"), upload(api, key="k-1")
    assert first.status_code == second.status_code == 202
    assert first.json()["id"] == second.json()["id"]
    assert upload(api, key="k-2").json()["id"] != first.json()["id"]
    assert models.ImportJob.objects.count() == 2

    conversation = weather_imported(api)
    runs = [replay(api, conversation, key="r-1").json()["id"] for _ in range(2)]
    assert runs[0] == runs[1]
    assert replay(api, conversation).json()["id"] != runs[0]
    assert models.ReplayRun.objects.count() == 2


def test_one_users_key_is_not_anothers(api: APIClient, bob_api: APIClient) -> None:
    assert upload(api, key="same").json()["id"] != upload(bob_api, key="same").json()["id"]


@pytest.mark.parametrize("key", ["", "x" * 201, "naïve", "two words"])
def test_a_malformed_idempotency_key_is_a_400_naming_the_header(api: APIClient, key: str) -> None:
    response = (
        upload(api, key=key)
        if key
        else api.post("/api/v1/imports/", {}, format="multipart", HTTP_IDEMPOTENCY_KEY="")
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Idempotency-Key"


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (RuntimeError("a bug"), 500, "server_error"),
        (
            OperationalError("server closed the connection unexpectedly"),
            503,
            "database_unavailable",
        ),
    ],
    ids=["an_unexpected_error_is_a_500", "a_database_that_is_down_is_a_503"],
)
def test_a_failure_of_the_server_is_an_error_in_the_api_s_shape(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, error: Exception, status: int, code: str
) -> None:
    def failing(**kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(import_jobs, "import_job_create", failing)
    response = upload(api)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == code
