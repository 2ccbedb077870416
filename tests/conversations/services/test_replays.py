"""Replays through the API with the offline echo provider (tasks run in-process here;
tests/conversations/services/test_replay_worker.py runs them in a real Celery worker)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from conversations import models
from conversations.services import replays
from tests.conftest import load_fixture
from tests.conversations.helpers import weather_imported

# Every test both ways: the worker's hand-written statements (conversations.pgsql) and the ORM.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("statements")]


@pytest.fixture
def weather(api: APIClient) -> str:
    return weather_imported(api)


def start(api: APIClient, conversation: str, **body: Any) -> Any:
    body = {"provider": "echo", "model": "echo-1", **body}
    return api.post(f"/api/v1/conversations/{conversation}/replays", body, format="json")


def run_replay(api: APIClient, conversation: str, capture: Any, **body: Any) -> dict[str, Any]:
    with capture(execute=True):
        response = start(api, conversation, **body)
    assert response.status_code == 202, response.json()
    run = api.get(f"/api/v1/replays/{response.json()['id']}")
    assert run.status_code == 200
    return dict(run.json())


def test_providers_lists_echo_and_never_keys(api: APIClient, settings: Any) -> None:
    settings.UMF_PROVIDERS = [
        *settings.UMF_PROVIDERS,
        {
            "name": "secret-one",
            "kind": "openai-chat",
            "base_url": "http://10.1.2.3/v1",
            "api_key": "sk-canary-123",
            "models": ["m"],
        },
    ]
    response = api.get("/api/v1/providers/")
    assert response.status_code == 200
    assert {p["name"] for p in response.json()} == {"echo", "secret-one"}
    assert b"sk-canary-123" not in response.content
    assert b"10.1.2.3" not in response.content


def test_replay_last_regenerates_the_final_turn_as_a_branch(
    api: APIClient, weather: str, django_capture_on_commit_callbacks: Any
) -> None:
    run = run_replay(api, weather, django_capture_on_commit_callbacks)

    assert run["status"] == "succeeded"
    assert run["provider_calls"] == 1 and run["attempts"] == 1
    [turn] = run["turns"]
    assert turn["status"] == "succeeded"
    new = models.Message.objects.get(pk=turn["message"])
    original = models.Message.objects.get(pk=turn["original_message"])
    assert new.parent_id == original.parent_id  # a sibling of the replayed turn
    assert new.replay_run_id is not None and new.role == "assistant"
    provenance = models.Provenance.objects.get(message=new)
    assert (provenance.frontend, provenance.backend) == ("umf", "echo")
    assert turn["request"] is not None and turn["usage"]


def test_the_original_thread_is_unchanged_by_a_replay(
    api: APIClient, weather: str, django_capture_on_commit_callbacks: Any
) -> None:
    run_replay(api, weather, django_capture_on_commit_callbacks)
    exported = api.get(f"/api/v1/conversations/{weather}/export?format=umf").json()
    assert exported["payload"] == load_fixture("umf/weather-tools.json")


def test_replay_each_regenerates_every_assistant_turn_from_its_prefix(
    api: APIClient, weather: str, django_capture_on_commit_callbacks: Any
) -> None:
    run = run_replay(api, weather, django_capture_on_commit_callbacks, mode="each")

    assert run["status"] == "succeeded"
    assert len(run["turns"]) == 2
    for turn in run["turns"]:
        new = models.Message.objects.get(pk=turn["message"])
        original = models.Message.objects.get(pk=turn["original_message"])
        assert new.parent_id == original.parent_id
    first_request = run["turns"][0]["request"]
    # The first turn's prefix ends with the user's question, the second's with tool results.
    assert "umbrella" in str(first_request).lower()
    assert "upstream timeout" in str(run["turns"][1]["request"])
    assert "upstream timeout" not in str(first_request)


def test_a_redelivered_task_never_calls_the_provider_again(
    api: APIClient, weather: str, django_capture_on_commit_callbacks: Any
) -> None:
    run = run_replay(api, weather, django_capture_on_commit_callbacks, mode="each")
    outcome = replays.replay_execute(run_id=uuid.UUID(run["id"]))
    again = api.get(f"/api/v1/replays/{run['id']}").json()

    assert "nothing to do" in outcome.summary
    assert again["provider_calls"] == 2
    assert models.Message.objects.filter(replay_run_id=run["id"]).count() == 2


def test_a_turn_another_delivery_stored_meanwhile_is_not_written_twice(
    api: APIClient, alice: Any, weather: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # While this delivery waits for the provider, another one (its lease taken over)
    # stores the turn: this one's answer is rolled back, message, blocks and provenance.
    run = replays.replay_start(
        owner=alice,
        conversation=models.Conversation.objects.get(pk=weather),
        provider="echo",
        model="echo-1",
    )
    from conversations.provider_settings import provider_client

    echo = provider_client("echo")
    assert echo is not None
    answer = echo.complete

    class Overtaken:
        def complete(self, *args: Any, **kwargs: Any) -> Any:
            exchange = answer(*args, **kwargs)
            models.ReplayTurn.objects.filter(run=run).update(status="succeeded")
            return exchange

    monkeypatch.setattr(replays, "provider_client", lambda name: Overtaken())
    messages, provenance = models.Message.objects.count(), models.Provenance.objects.count()

    outcome = replays.replay_execute(run_id=run.pk)

    assert outcome.summary == "turn 0 was stored by another delivery"
    assert models.Message.objects.count() == messages
    assert models.Provenance.objects.count() == provenance
    assert models.ContentBlock.objects.filter(message__replay_run=run).count() == 0
    assert models.ReplayTurn.objects.get(run=run).message_id is None


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"provider": "nope"}, 422, "provider"),
        ({"model": ""}, 400, "model"),
        ({"mode": "sometimes"}, 400, "mode"),
        ({"from_message": "01a20180-dc9d-75a0-b49d-8de274b88d6b"}, 422, "from_message"),
        ({"parameters": "hot"}, 400, "parameters"),
    ],
)
def test_bad_replay_requests(
    api: APIClient, weather: str, body: dict[str, Any], status: int, field: str
) -> None:
    response = start(api, weather, **body)
    assert response.status_code == status, response.json()
    assert response.json()["error"]["field"] == field
    assert models.ReplayRun.objects.count() == 0


def test_runs_are_private(
    api: APIClient, bob_api: APIClient, weather: str, django_capture_on_commit_callbacks: Any
) -> None:
    run = run_replay(api, weather, django_capture_on_commit_callbacks)
    assert bob_api.get(f"/api/v1/replays/{run['id']}").status_code == 404
    assert bob_api.get(f"/api/v1/replays?conversation={weather}").json() == []
    assert start(bob_api, weather).status_code == 404
    listed = api.get(f"/api/v1/replays/?conversation={weather}").json()
    assert [r["id"] for r in listed] == [run["id"]]


def test_countdowns_stay_well_under_the_visibility_timeout() -> None:
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility >= settings.REPLAY_MAX_COUNTDOWN * 4
    assert visibility >= settings.REPLAY_LEASE_SECONDS * 4
    countdown = replays.task_countdown(replays.retry_backoff(50, retry_after=10_000))
    assert countdown == settings.REPLAY_MAX_COUNTDOWN


def test_retry_delay_honours_retry_after() -> None:
    assert replays.retry_backoff(1, retry_after=7.5) >= 7.5
    assert replays.retry_backoff(1, retry_after=None) <= 1.2
    assert 3.2 <= replays.retry_backoff(3, retry_after=None) <= 4.8


def test_task_settings_are_json_and_late_acks() -> None:
    from conversations.tasks import replay_run_execute

    assert settings.CELERY_TASK_SERIALIZER == "json"
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert replay_run_execute.acks_late and replay_run_execute.reject_on_worker_lost


def test_a_turn_runs_a_fixed_number_of_queries_whatever_the_length(
    api: APIClient, alice: Any, django_assert_num_queries: Any, statements: str
) -> None:
    # Claim; the turns with their run and conversation; the thread (messages, blocks,
    # tools, warnings); then one transaction (a savepoint here): the turn, the new rows,
    # the run. The ORM version writes the message, its blocks and provenance by COPY,
    # which the count does not see; the hand-written statements (prepared) claim and load
    # in one, send the thread's four reads in one round trip, and the three INSERTs too.
    for length in (2, 40):
        payload = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"}
            for i in range(length)
        ]
        imported = api.post(
            "/api/v1/conversations/import", {"format": "umf", "payload": payload}, format="json"
        ).json()["conversations"][0]["id"]
        run = replays.replay_start(
            owner=alice,
            conversation=models.Conversation.objects.get(pk=imported),
            provider="echo",
            model="echo-1",
        )
        with django_assert_num_queries(12 if statements == "sql" else 10):
            outcome = replays.replay_execute(run_id=run.pk)
        assert outcome.summary == "succeeded: 1 turn(s)"


def test_a_provider_client_is_kept_for_its_configuration(settings: Any) -> None:
    from conversations.provider_settings import provider_client

    fake = {"name": "fake", "kind": "openai-chat", "base_url": "http://127.0.0.1:9/v1"}
    settings.UMF_PROVIDERS = [fake]
    first = provider_client("fake")
    assert first is not None and provider_client("fake") is first
    settings.UMF_PROVIDERS = [{**fake, "api_key": "sk-new"}]
    assert provider_client("fake") is not first
    assert provider_client("nope") is None
