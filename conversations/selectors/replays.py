"""Replay runs as the pages show them: one run, a conversation's latest runs, and the
turn-by-turn comparison of an original with its replay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from conversations import models
from conversations.replay_requests import request_of, requests_rebuilt
from conversations.selectors.thread import THREAD_COLUMNS

# What a turn stored of its exchange: only read where it is shown.
_EXCHANGE = ("request", "request_delta", "request_headers", "response")


def replay_run_get(*, owner: User, run_id: Any, conversation_id: Any) -> models.ReplayRun:
    """The owner's run of that conversation (``DoesNotExist`` otherwise)."""
    return (
        _runs(owner).select_related("conversation").get(pk=run_id, conversation_id=conversation_id)
    )


def replay_run_detail(*, owner: User, run_id: Any) -> models.ReplayRun:
    """The owner's run with its turns (``DoesNotExist`` otherwise), as the API shows it:
    each turn with its ``sent_request`` rebuilt."""
    run = _runs(owner).prefetch_related("turns").get(pk=run_id)
    return _with_requests([run])[0]


def replay_run_list(
    *, owner: User, limit: int, conversation_id: Any = None
) -> list[models.ReplayRun]:
    """The owner's latest runs (of one conversation, when named), newest first, with
    their turns but not what the turns sent (a run's requests are read one run at a time,
    by :func:`replay_run_detail`)."""
    turns = models.ReplayTurn.objects.defer(*_EXCHANGE)  # a list shows no request
    runs = _runs(owner).prefetch_related(Prefetch("turns", queryset=turns))
    if conversation_id is not None:
        runs = runs.filter(conversation_id=conversation_id)
    return list(runs[:limit])


def _with_requests(runs: list[models.ReplayRun]) -> list[models.ReplayRun]:
    """``runs`` (turns prefetched), each turn's ``sent_request`` rebuilt from the stored
    deltas (conversations.replay_requests)."""
    for run in runs:
        turns = run.turns.all()
        requests = requests_rebuilt(turns)
        for turn in turns:
            turn.sent_request = requests[turn.pk]
    return runs


def replay_turn_request(*, turn: models.ReplayTurn) -> Any:
    """The request a turn sent, whole (None when it stored none: it has not succeeded),
    rebuilt along its chain of bases from one query of the run's stored requests."""
    stored = models.ReplayTurn.objects.filter(run_id=turn.run_id, index__lte=turn.index).only(
        "id", "request", "request_base", "request_delta"
    )
    return request_of(list(stored), turn.pk)


def replay_turn_at(*, run: models.ReplayRun, index: int) -> models.ReplayTurn:
    """The run's turn at ``index`` (``DoesNotExist`` otherwise)."""
    return models.ReplayTurn.objects.defer(*_EXCHANGE).get(run=run, index=index)


def _runs(owner: User) -> QuerySet[models.ReplayRun]:
    # The runs of a conversation in the trash are out of sight with it.
    return models.ReplayRun.objects.filter(owner=owner, conversation__deleted_at__isnull=True)


def replay_run_by_key(*, owner: User, idempotency_key: str) -> models.ReplayRun | None:
    """The owner's run created with that Idempotency-Key, if any (None without a
    key: no query)."""
    if not idempotency_key:
        return None
    return models.ReplayRun.objects.filter(owner=owner, idempotency_key=idempotency_key).first()


def replay_run_warnings(*, run: models.ReplayRun) -> list[models.DriftWarning]:
    """What rendering the conversation for the run's provider could not carry, in order."""
    return list(run.warnings.all())


def replay_runs_of(*, conversation: models.Conversation, limit: int = 20) -> list[Any]:
    """The latest runs of a conversation, newest first."""
    return list(models.ReplayRun.objects.filter(conversation=conversation)[:limit])


@dataclass
class ComparedTurn:
    turn: models.ReplayTurn
    original: dict[str, Any] | None
    replay: dict[str, Any] | None


def replay_comparison(*, run: models.ReplayRun) -> list[ComparedTurn]:
    """Each turn of a run with its original and its replayed message (dicts with
    ``blocks``), in three queries: turns, messages, blocks."""
    turns = list(run.turns.order_by("index").defer(*_EXCHANGE))
    ids = [i for t in turns for i in (t.original_message_id, t.message_id) if i is not None]
    messages = {
        row["id"]: {**row, "blocks": []}
        for row in models.Message.objects.filter(pk__in=ids).values(*THREAD_COLUMNS)
    }
    blocks = models.ContentBlock.objects.filter(message_id__in=list(messages)).order_by(
        "message_id", "index"
    )
    for message_id, block_type, text, payload in blocks.values_list(
        "message_id", "type", "text", "payload"
    ):
        # ``detached``: shown apart from the thread, so no result is paired with a call.
        block = {**payload, "type": block_type, "text": text, "detached": True}
        messages[message_id]["blocks"].append(block)
    return [
        ComparedTurn(t, messages.get(t.original_message_id), messages.get(t.message_id))
        for t in turns
    ]
