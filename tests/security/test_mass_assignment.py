"""Writable endpoints ignore fields a client must not set: owner, id, status, dates..."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models

pytestmark = pytest.mark.django_db
FORGED = {
    "owner": 1,
    "owner_id": 1,
    "id": "01a20180-dc9d-75a0-b49d-8de274b88d6b",
    "status": "succeeded",
    "created_at": "2000-01-01T00:00:00Z",
    "content_hash": "0" * 64,
    "attempts": 99,
    "provider_calls": 99,
}


def test_import_ignores_forged_fields(api: APIClient, alice: Any, bob: Any) -> None:
    body = {"format": "umf", "payload": [{"role": "user", "content": "hi"}], **FORGED}
    body["owner"] = bob.pk
    response = api.post("/api/v1/conversations/import", body, format="json")
    assert response.status_code == 201
    conversation = models.Conversation.objects.get()
    assert conversation.owner == alice
    assert str(conversation.pk) != FORGED["id"]
    assert conversation.created_at.year > 2000
    assert conversation.content_hash != FORGED["content_hash"]


def test_replay_ignores_forged_fields(
    api: APIClient, alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pk = api.post(
        "/api/v1/conversations/import",
        {"format": "umf", "payload": [{"role": "user", "content": "hi"}]},
        format="json",
    ).json()["conversations"][0]["id"]
    body = {"provider": "echo", "model": "echo-1", **FORGED, "owner": bob.pk}
    response = api.post(f"/api/v1/conversations/{pk}/replays", body, format="json")
    assert response.status_code == 202
    run = models.ReplayRun.objects.get()
    assert run.owner == alice
    assert str(run.pk) != FORGED["id"]
    assert run.attempts == 0 and run.provider_calls == 0
    assert run.status == "queued"


def test_upload_ignores_forged_fields(api: APIClient, alice: Any, bob: Any) -> None:
    import io

    file = io.BytesIO(b'[{"role": "user", "content": "hi"}]')
    file.name = "x.json"
    body = {"file": file, "format": "umf", **{k: str(v) for k, v in FORGED.items()}}
    body["owner"] = str(bob.pk)
    response = api.post("/api/v1/imports/", body, format="multipart")
    assert response.status_code == 202
    job = models.ImportJob.objects.get()
    assert job.owner == alice and str(job.pk) != FORGED["id"]
    assert job.processed == 0 or job.status != "succeeded" or job.created_at.year > 2000
