"""Without a broker, as under ``make run``: imports and replays run in a background thread
of the web process, so the request answers at once (202) as it does with a worker, and
the job or run ends on its own, failed with its reason when the provider cannot be
reached; never a 500 (issue 20 item 6, issue 21 item 7)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from conversations import models

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def in_background(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.UMF_TASKS_IN_BACKGROUND = True


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def import_umf(api: APIClient, messages: list[dict[str, str]]) -> str:
    response = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": messages}, format="json"
    )
    assert response.status_code == 201, response.json()
    return str(response.json()["conversations"][0]["id"])


@pytest.mark.usefixtures("in_background")
def test_a_replay_against_a_provider_nobody_answers_is_202_then_fails_with_its_reason(
    api: APIClient, settings: Any
) -> None:
    settings.REPLAY_MAX_ATTEMPTS = 1
    settings.UMF_PROVIDERS = [
        {
            "name": "down",
            "kind": "openai-chat",
            "base_url": f"http://127.0.0.1:{free_port()}/v1",
            "models": ["m"],
            "allow_private_network": True,
            "timeout": 1,
        }
    ]
    conversation = import_umf(api, [{"role": "user", "content": "hello?"}])
    response = api.post(
        f"/api/v1/conversations/{conversation}/replays",
        {"provider": "down", "model": "m"},
        format="json",
    )
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    wait_for(lambda: models.ReplayRun.objects.get(pk=run_id).status == "failed", "the run to fail")
    run = api.get(f"/api/v1/replays/{run_id}").json()
    assert "connection failed" in run["error"] or "connection failed" in run["turns"][0]["error"]


@pytest.mark.usefixtures("in_background")
def test_a_blocked_address_fails_the_run_at_the_first_attempt(
    api: APIClient, settings: Any
) -> None:
    settings.REPLAY_MAX_ATTEMPTS = 6
    settings.UMF_PROVIDERS = [
        {"name": "inside", "kind": "openai-chat", "base_url": "http://10.0.0.1/v1", "models": ["m"]}
    ]
    conversation = import_umf(api, [{"role": "user", "content": "hello?"}])
    response = api.post(
        f"/api/v1/conversations/{conversation}/replays",
        {"provider": "inside", "model": "m"},
        format="json",
    )
    assert response.status_code == 202
    run_id = response.json()["id"]
    wait_for(lambda: models.ReplayRun.objects.get(pk=run_id).status == "failed", "the run")
    run = models.ReplayRun.objects.get(pk=run_id)
    assert run.attempts == 1  # permanent: not retried
    assert "not called: refused to connect to 10.0.0.1" in run.error


@pytest.mark.usefixtures("in_background")
def test_an_upload_answers_at_once_and_imports_in_the_background(api: APIClient) -> None:
    lines = b"".join(
        b'{"messages": [{"role": "user", "content": "line %d"}]}\n' % index for index in range(50)
    )
    upload = SimpleUploadedFile("chats.jsonl", lines, content_type="application/jsonl")
    response = api.post("/api/v1/imports/", {"file": upload, "format": "openai-finetune"})
    assert response.status_code == 202, response.content
    job_id = response.json()["id"]
    wait_for(lambda: models.ImportJob.objects.get(pk=job_id).status == "succeeded", "the import")
    assert models.Conversation.objects.count() == 50
