"""A canary provider key, configured and used, shows up nowhere it should not: no log line
(DEBUG included), stored request, API or admin response, export or task message."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from conversations import models
from conversations.services import replays
from fakes.provider_server import FakeProviderServer
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db
CANARY = "sk-canary-7f3a9c1e5b2d4f6a8e0c"


@pytest.fixture
def provider(settings: Any) -> Iterator[FakeProviderServer]:
    with FakeProviderServer(api_key=CANARY) as server:
        settings.UMF_PROVIDERS = [server.provider_settings("anthropic", "claude-test")]
        yield server


def test_the_canary_key_leaks_nowhere(
    api: APIClient, alice: Any, provider: FakeProviderServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    pk = api.post(
        "/api/v1/conversations/import",
        {"format": "umf", "payload": load_fixture("umf/weather-tools.json")},
        format="json",
    ).json()["conversations"][0]["id"]
    # The task message: what .delay() is given once the transaction commits.
    with (
        mock.patch("conversations.tasks.replay_run_execute.delay") as enqueue,
        mock.patch.object(transaction, "on_commit", lambda callback: callback()),
    ):
        run = api.post(
            f"/api/v1/conversations/{pk}/replays",
            {"provider": "fake", "model": "claude-test"},
            format="json",
        ).json()
    assert enqueue.call_count == 1
    assert all(CANARY not in repr(call) for call in enqueue.call_args_list)
    replays.replay_execute(run_id=models.ReplayRun.objects.get().pk)

    assert provider.requests, "the provider was called"
    assert provider.requests[0].headers["x-api-key"] == CANARY  # it was used...
    seen = [record.getMessage() for record in caplog.records]
    seen += [repr(record.args) for record in caplog.records]
    seen.append(api.get(f"/api/v1/replays/{run['id']}").content.decode())
    seen.append(api.get("/api/v1/providers").content.decode())
    seen.append(api.get(f"/api/v1/conversations/{pk}").content.decode())
    for fmt in ("umf", "anthropic", "openai-chat"):
        seen.append(api.get(f"/api/v1/conversations/{pk}/export?format={fmt}").content.decode())
    seen += [repr(row) for row in models.ReplayTurn.objects.values()]
    seen += [repr(row) for row in models.ReplayRun.objects.values()]
    seen += [repr(row) for row in models.Message.objects.values("metadata", "extra")]
    admin = Client()
    alice.is_staff = alice.is_superuser = True
    alice.save()
    admin.force_login(alice)
    for path in (
        "/admin/conversations/replayrun/",
        f"/admin/conversations/replayrun/{run['id']}/change/",
    ):
        page = admin.get(path)
        assert page.status_code == 200, path
        seen.append(page.content.decode())
    leaks = [text for text in seen if CANARY in text]
    assert leaks == []  # ...and never shown
