"""Mode ``each`` stores each turn's request as a reference to the turn before plus its
delta (issue 21), and everything that shows a request rebuilds it exactly as it was sent:
the API, a retry of a failed turn, and the migration that converted the stored runs."""

from __future__ import annotations

import itertools
import uuid
from importlib import import_module
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from django.apps import apps
from django.db import connection
from rest_framework.test import APIClient

from conversations import models
from conversations.provider_settings import provider_client
from conversations.services import replays
from providers.clients.base import PermanentProviderError
from tests.conversations.helpers import store, tool_conversation

# Every test both ways: the worker's hand-written statements (conversations.pgsql) and the ORM.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("statements")]

TURNS = 6


class Recording:
    """The echo provider, keeping every request it was sent; ``fail_at`` (a call number,
    from 0) fails that call for good."""

    def __init__(self, fail_at: int | None = None) -> None:
        echo = provider_client("echo")
        assert echo is not None
        self.echo, self.fail_at = echo, fail_at
        self.sent: list[Any] = []

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        if len(self.sent) == self.fail_at:
            self.fail_at = None
            raise PermanentProviderError("refused", status=400)
        exchange = self.echo.complete(*args, **kwargs)
        self.sent.append(exchange.request)
        return exchange


@pytest.fixture
def conversation(alice: Any) -> Any:
    return store(alice, tool_conversation(TURNS, "d"))


def replayed(alice: Any, conversation: Any, provider: Recording, monkeypatch: Any) -> Any:
    monkeypatch.setattr(replays, "provider_client", lambda name: provider)
    run = replays.replay_start(
        owner=alice, conversation=conversation, provider="echo", model="echo-1", mode="each"
    )
    replays.replay_execute(run_id=run.pk)
    return run


def stored_turns(run: Any) -> list[Any]:
    return list(models.ReplayTurn.objects.filter(run=run).order_by("index"))


def test_each_turn_stores_a_reference_and_a_delta_not_a_copy(
    alice: Any, conversation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = Recording()
    run = replayed(alice, conversation, provider, monkeypatch)
    turns = stored_turns(run)
    assert len(turns) == len(provider.sent) == TURNS
    assert turns[0].request == provider.sent[0] and turns[0].request_base_id is None
    for before, turn in itertools.pairwise(turns):
        assert turn.request is None and turn.request_base_id == before.pk
        # What it adds, not the prefix: the new messages only.
        assert turn.request_delta["keys"]["messages"]["keep"] > 0
    whole = sum(len(orjson.dumps(request)) for request in provider.sent)
    stored = len(orjson.dumps(turns[0].request)) + sum(
        len(orjson.dumps(turn.request_delta)) for turn in turns[1:]
    )
    assert stored < whole / 2


def test_the_api_shows_each_request_as_it_was_sent(
    api: APIClient, alice: Any, conversation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = Recording()
    run = replayed(alice, conversation, provider, monkeypatch)
    shown = api.get(f"/api/v1/replays/{run.pk}").json()
    assert [turn["request"] for turn in shown["turns"]] == provider.sent
    [listed] = api.get(f"/api/v1/replays/?conversation={conversation.pk}").json()
    assert [turn["index"] for turn in listed["turns"]] == [turn["index"] for turn in shown["turns"]]
    assert not any("request" in turn for turn in listed["turns"])  # on the run's own page


def test_a_retried_turn_is_stored_against_the_turn_before_it(
    api: APIClient, alice: Any, conversation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = Recording(fail_at=3)
    run = replayed(alice, conversation, provider, monkeypatch)
    run.refresh_from_db()
    assert run.status == "failed"
    assert [turn.status for turn in stored_turns(run)][2:5] == ["succeeded", "failed", "pending"]

    replays.replay_retry(run=run)
    replays.replay_execute(run_id=run.pk)

    turns = stored_turns(run)
    assert all(turn.status == "succeeded" for turn in turns)
    assert turns[3].request_base_id == turns[2].pk  # rebuilt from the rows to resume
    shown = api.get(f"/api/v1/replays/{run.pk}").json()
    assert [turn["request"] for turn in shown["turns"]] == provider.sent


def test_the_migration_converts_whole_requests_and_back(
    api: APIClient, alice: Any, conversation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    migration = import_module("conversations.migrations.0013_replay_turn_request_delta")
    provider = Recording()
    run = replayed(alice, conversation, provider, monkeypatch)
    sent = list(provider.sent)
    last = replays.replay_start(
        owner=alice, conversation=conversation, provider="echo", model="echo-1"
    )
    replays.replay_execute(run_id=last.pk)
    # As the turns were stored before: every request whole.
    for turn, request in zip(stored_turns(run), sent, strict=True):
        models.ReplayTurn.objects.filter(pk=turn.pk).update(
            request=request, request_base=None, request_delta=None
        )
    editor = SimpleNamespace(connection=connection)

    migration.to_deltas(apps, editor)

    turns = stored_turns(run)
    assert turns[0].request == sent[0]
    assert all(turn.request is None and turn.request_delta for turn in turns[1:])
    assert [turn.request_base_id for turn in turns[1:]] == [turn.pk for turn in turns[:-1]]
    [single] = stored_turns(last)
    assert single.request is not None and single.request_base_id is None
    shown = api.get(f"/api/v1/replays/{run.pk}").json()
    assert [turn["request"] for turn in shown["turns"]] == sent

    migration.to_whole(apps, editor)

    turns = stored_turns(run)
    assert [turn.request for turn in turns] == sent
    assert not any(turn.request_delta or turn.request_base_id for turn in turns)


def test_a_run_deleted_with_its_conversation_takes_its_chain_of_turns(
    alice: Any, conversation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = replayed(alice, conversation, Recording(), monkeypatch)
    conversation.delete()
    assert not models.ReplayTurn.objects.filter(run_id=run.pk).exists()
    assert not models.ReplayRun.objects.filter(pk=uuid.UUID(str(run.pk))).exists()
