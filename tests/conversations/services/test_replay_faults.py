"""Replays against a fake provider speaking OpenAI's wire protocol over HTTP: transient
faults are retried no sooner than retry-after, permanent ones fail at once, a cap on
attempts ends in failed with the reason."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from conversations import models
from conversations.services import replays
from fakes.provider_server import Answer, FakeProviderServer, Fault, RandomFaults
from tests.conversations.helpers import weather_imported

pytestmark = pytest.mark.django_db
KEY = "sk-fake-provider-key-0123456789"


@pytest.fixture
def provider(settings: Any) -> Iterator[FakeProviderServer]:
    with FakeProviderServer(api_key=KEY) as server:
        settings.UMF_PROVIDERS = [server.provider_settings("openai-chat", "fake-1", timeout=2)]
        yield server


@pytest.fixture
def run_id(api: APIClient, provider: FakeProviderServer) -> uuid.UUID:
    imported = weather_imported(api)
    # Not executed here (no on_commit capture): each test drives the service itself.
    response = api.post(
        f"/api/v1/conversations/{imported}/replays",
        {"provider": "fake", "model": "fake-1", "mode": "each"},
        format="json",
    )
    assert response.status_code == 202
    return uuid.UUID(response.json()["id"])


def run(run_id: uuid.UUID) -> models.ReplayRun:
    return models.ReplayRun.objects.get(pk=run_id)


def time_passes(run_id: uuid.UUID) -> None:
    """The retry's time comes (instead of sleeping until next_attempt_at)."""
    models.ReplayRun.objects.filter(pk=run_id).update(next_attempt_at=timezone.now())


def test_a_429_is_retried_no_sooner_than_retry_after(
    run_id: uuid.UUID, provider: FakeProviderServer
) -> None:
    provider.script(Fault.rate_limited(retry_after="7"), Answer(text="one"), Answer(text="two"))

    first = replays.replay_execute(run_id=run_id)
    assert first.retry_in is not None and first.retry_in >= 7
    assert run(run_id).status == "queued" and "429" in run(run_id).error

    time_passes(run_id)
    second = replays.replay_execute(run_id=run_id)
    assert second.retry_in is None
    finished = run(run_id)
    assert finished.status == "succeeded"
    assert finished.provider_calls == 3  # the 429, then one call per turn
    assert [t.attempts for t in finished.turns.order_by("index")] == [2, 1]
    assert len(provider.requests) == 3


def test_a_retry_after_longer_than_one_countdown_is_honoured(
    run_id: uuid.UUID, provider: FakeProviderServer, settings: Any
) -> None:
    settings.REPLAY_MAX_COUNTDOWN = 2
    provider.script(Fault.rate_limited(retry_after="30"), Answer(text="one"), Answer(text="two"))
    before = timezone.now()

    first = replays.replay_execute(run_id=run_id)
    assert first.retry_in == 2  # one countdown, well under the visibility timeout...
    due = run(run_id).next_attempt_at
    assert due is not None and (due - before).total_seconds() >= 30  # ...but the wait is 30 s

    # The countdown ends long before retry-after: the run is deferred again, not called.
    early = replays.replay_execute(run_id=run_id)
    assert early.retry_in is not None and 0 < early.retry_in <= 2
    assert run(run_id).status == "queued" and len(provider.requests) == 1

    time_passes(run_id)
    assert replays.replay_execute(run_id=run_id).retry_in is None
    assert run(run_id).status == "succeeded" and len(provider.requests) == 3


@pytest.mark.parametrize(
    "fault", [Fault.bad_request(), Fault.unauthorized(), Fault.quota_exhausted()]
)
def test_a_permanent_fault_fails_at_once_with_the_reason(
    run_id: uuid.UUID, provider: FakeProviderServer, fault: Fault
) -> None:
    provider.script(fault)
    outcome = replays.replay_execute(run_id=run_id)
    assert outcome.retry_in is None
    failed = run(run_id)
    assert failed.status == "failed"
    assert "Permanent" in failed.error
    assert failed.provider_calls == 1 and len(provider.requests) == 1


@pytest.mark.parametrize(
    "fault", [Fault.server_error(), Fault.overloaded(), Fault.truncated(), Fault.hang(5)]
)
def test_transient_faults_are_retried(
    run_id: uuid.UUID, provider: FakeProviderServer, fault: Fault
) -> None:
    provider.script(fault)
    assert replays.replay_execute(run_id=run_id).retry_in is not None
    time_passes(run_id)
    assert replays.replay_execute(run_id=run_id).retry_in is None
    assert run(run_id).status == "succeeded"


def test_attempts_are_capped(
    run_id: uuid.UUID, provider: FakeProviderServer, settings: Any
) -> None:
    settings.REPLAY_MAX_ATTEMPTS = 3
    provider.fault_plan = RandomFaults(seed=1, rate=1.0, faults=[Fault.server_error()])
    outcomes = []
    for _ in range(5):
        outcomes.append(replays.replay_execute(run_id=run_id))
        time_passes(run_id)
    failed = run(run_id)
    assert failed.status == "failed"
    assert "gave up after 3 attempts" in failed.error
    assert [o.retry_in is not None for o in outcomes[:3]] == [True, True, False]
    assert len(provider.requests) == 3


def test_the_key_is_sent_but_never_stored(
    run_id: uuid.UUID, provider: FakeProviderServer, api: APIClient
) -> None:
    replays.replay_execute(run_id=run_id)
    assert provider.requests[0].headers.get("authorization") == f"Bearer {KEY}"
    body = api.get(f"/api/v1/replays/{run_id}").content
    assert KEY.encode() not in body
    stored = models.ReplayTurn.objects.filter(run_id=run_id).values_list(
        "request_headers", "request"
    )
    assert all(KEY not in str(row) for row in stored)


@pytest.mark.usefixtures("statements")
def test_an_answer_with_nul_characters_is_stored_with_them_replaced_and_a_warning(
    run_id: uuid.UUID, provider: FakeProviderServer
) -> None:
    # PostgreSQL text and jsonb cannot hold NUL: the store failed, the run stayed running,
    # and every redelivery called the provider again.
    provider.script(Answer(text="bad\x00text"), Answer(text="fine"))
    outcome = replays.replay_execute(run_id=run_id)
    assert outcome.retry_in is None
    done = run(run_id)
    assert done.status == "succeeded"
    assert done.provider_calls == 2 and len(provider.requests) == 2
    first = done.turns.order_by("index").first()
    assert first is not None and first.message is not None
    [block] = first.message.blocks.all()
    assert block.text == "bad\ufffdtext"
    assert "\ufffd" in orjson.dumps(first.response).decode()
    [warning] = models.DriftWarning.objects.filter(
        replay_run=done, category="content-dropped", message=first.message
    )
    assert warning.field == "response.message.content[0].text"
    assert warning.details == {
        "response": ["message.content[0].text"],
        "raw_response": ["choices[0].message.content"],
    }
