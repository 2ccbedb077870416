"""Without a broker, as under ``make run``: imports and replays run in a background thread
of the web process, so the request answers at once (202) as it does with a worker, and
the job or run ends on its own, failed with its reason when the provider cannot be
reached; never a 500 (issue 20 item 6, issue 21 item 7)."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from conversations import models
from tests.conversations.helpers import imported, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_background")]


@pytest.fixture
def in_background(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.UMF_TASKS_IN_BACKGROUND = True


def nobody_listens() -> str:
    """A local address where no server answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def failed_run(api: APIClient, settings: Any, provider: dict[str, Any]) -> models.ReplayRun:
    """Replay a one-question conversation against ``provider``: the answer is a 202 at
    once, and the run, run in the background, ends failed."""
    settings.UMF_PROVIDERS = [{"name": "p", "kind": "openai-chat", "models": ["m"], **provider}]
    conversation = imported(api, [{"role": "user", "content": "hello?"}], "umf")
    response = api.post(
        f"/api/v1/conversations/{conversation}/replays",
        {"provider": "p", "model": "m"},
        format="json",
    )
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    wait_for(lambda: models.ReplayRun.objects.get(pk=run_id).status == "failed", 30, "the run")
    return models.ReplayRun.objects.get(pk=run_id)


def test_a_replay_against_a_provider_nobody_answers_is_202_then_fails_with_its_reason(
    api: APIClient, settings: Any
) -> None:
    settings.REPLAY_MAX_ATTEMPTS = 1
    down = {"base_url": nobody_listens(), "allow_private_network": True, "timeout": 1}
    run = failed_run(api, settings, down)
    turn = run.turns.get()
    assert "connection failed" in run.error or "connection failed" in turn.error


def test_a_blocked_address_fails_the_run_at_the_first_attempt(
    api: APIClient, settings: Any
) -> None:
    settings.REPLAY_MAX_ATTEMPTS = 6
    run = failed_run(api, settings, {"base_url": "http://10.0.0.1/v1"})
    assert run.attempts == 1  # permanent: not retried
    assert "not called: refused to connect to 10.0.0.1" in run.error


def test_an_upload_answers_at_once_and_imports_in_the_background(api: APIClient) -> None:
    lines = b"".join(
        b'{"messages": [{"role": "user", "content": "line %d"}]}\n' % index for index in range(50)
    )
    upload = SimpleUploadedFile("chats.jsonl", lines, content_type="application/jsonl")
    response = api.post("/api/v1/imports/", {"file": upload, "format": "openai-finetune"})
    assert response.status_code == 202, response.content
    job_id = response.json()["id"]
    wait_for(
        lambda: models.ImportJob.objects.get(pk=job_id).status == "succeeded", 30, "the import"
    )
    assert models.Conversation.objects.count() == 50
