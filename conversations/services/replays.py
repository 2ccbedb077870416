"""Replaying a conversation against a provider: start a run, execute it turn by turn.

A run is created with its turns in the request's transaction and enqueued after commit.
The worker claims the run with a conditional UPDATE (a lease), then calls the provider
once per pending turn; each success is written in one transaction that also flips the
turn from pending to succeeded, so a redelivered task never calls the provider again for
a turn that succeeded. Failures are classified by the client; the retry policy lives in
:func:`retry_backoff` and nowhere else.
"""

from __future__ import annotations

import logging
import random
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from conversations import models, pgsql, selectors
from conversations.provider_settings import configured_providers, provider_client
from conversations.services import enqueue
from conversations.services.replay_limits import replay_refusal
from conversations.services.replay_store import (
    SentBefore,
    TurnAnswer,
    replay_run_finish,
    replay_turn_store,
)
from providers import umf
from providers.clients.base import Client, PermanentProviderError, ProviderError

logger = logging.getLogger(__name__)
Status = models.ReplayRun.Status
TurnStatus = models.ReplayTurn.Status


class ReplayRequestError(ValueError):
    """A replay request that cannot be run; ``field`` names the input at fault, ``status``
    the HTTP status to answer (422, or 429 with ``retry_after`` seconds)."""

    def __init__(
        self, message: str, *, field: str, status: int = 422, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status
        self.retry_after = retry_after


def replay_start(
    *,
    owner: User,
    conversation: models.Conversation,
    provider: str,
    model: str,
    parameters: dict[str, Any] | None = None,
    mode: str = models.ReplayRun.Mode.LAST,
    from_message: uuid.UUID | None = None,
    idempotency_key: str = "",
) -> models.ReplayRun:
    """Create a run and its turns, and enqueue it once the transaction commits. With an
    ``idempotency_key`` the owner used before, the run made then, and nothing new.
    :class:`QueueUnavailable` when the broker cannot take the task: the run is stored
    and waits, queued, for the reconciler."""
    if earlier := selectors.replay_run_by_key(owner=owner, idempotency_key=idempotency_key):
        return earlier
    config = configured_providers().get(provider)
    if config is None:
        known = ", ".join(sorted(configured_providers()))
        raise ReplayRequestError(f"unknown provider {provider!r}; known: {known}", field="provider")
    try:
        with transaction.atomic():
            stored = selectors.conversation_umf(conversation=conversation)
            targets = _turn_targets(stored, mode, from_message)
            refusal = replay_refusal(
                owner=owner,
                config=config,
                model=model,
                parameters=parameters or {},
                turns=len(targets),
            )
            if refusal is not None:
                raise ReplayRequestError(
                    refusal.message,
                    field=refusal.field,
                    status=refusal.status,
                    retry_after=refusal.retry_after,
                )
            run = models.ReplayRun.objects.create(
                owner=owner,
                conversation=conversation,
                provider=provider,
                model=model,
                parameters=parameters or {},
                mode=mode,
                from_message_id=from_message,
                idempotency_key=idempotency_key,
            )
            models.ReplayTurn.objects.bulk_create(
                models.ReplayTurn(run=run, index=index, original_message_id=message_id)
                for index, message_id in enumerate(targets)
            )
            enqueue.send_on_commit(enqueue.REPLAY_RUN, run.pk)
    except IntegrityError:
        # The same key in a concurrent request: that request's run is the one.
        earlier = selectors.replay_run_by_key(owner=owner, idempotency_key=idempotency_key)
        if earlier is None:
            raise
        return earlier
    return run


def _turn_targets(
    stored: selectors.StoredConversation, mode: str, from_message: uuid.UUID | None
) -> list[uuid.UUID | None]:
    """The original assistant messages to regenerate (None: answer after the last message)."""
    ids, messages = stored.message_ids, stored.umf.messages
    start = 0
    if from_message is not None:
        if from_message not in ids:
            raise ReplayRequestError("not a message of this conversation", field="from_message")
        start = ids.index(from_message)
    if messages[start:] and messages[start].hidden and from_message is not None:
        raise ReplayRequestError("hidden context is never replayed", field="from_message")
    assistant = [
        ids[i]
        for i in range(start, len(ids))
        if messages[i].role == "assistant" and not messages[i].hidden
    ]
    if mode == models.ReplayRun.Mode.EACH:
        if not assistant:
            raise ReplayRequestError("no assistant turn to regenerate", field="mode")
        return list(assistant)
    if from_message is not None:
        if messages[start].role != "assistant":
            raise ReplayRequestError(
                "mode last regenerates an assistant message", field="from_message"
            )
        return [from_message]
    if not messages:
        raise ReplayRequestError("the conversation has no messages", field="conversation")
    # The final assistant turn, or a new answer when the thread ends with a question.
    return [ids[-1]] if messages[-1].role == "assistant" else [None]


@dataclass
class Outcome:
    """What a worker should do after :func:`replay_execute`: stop, or run again later."""

    summary: str
    retry_in: float | None = None


def retry_backoff(attempt: int, retry_after: float | None) -> float:
    """The one retry policy: the seconds to wait before the next attempt, exponential
    backoff with jitter, never sooner than the provider's ``retry-after``."""
    backoff = min(2.0 ** max(attempt - 1, 0), 60.0) * random.uniform(0.8, 1.2)
    return float(max(backoff, retry_after or 0.0))


def task_countdown(wait: float) -> float:
    """The task's countdown for a wait, never later than ``REPLAY_MAX_COUNTDOWN`` (which
    stays well under the broker's visibility timeout). A longer wait is served in hops:
    the run records ``next_attempt_at`` and is not claimed before it (see :func:`_claim`)."""
    return float(min(max(wait, 0.0), settings.REPLAY_MAX_COUNTDOWN))


def _claim(run_id: uuid.UUID) -> list[models.ReplayTurn] | None:
    """Take the run for this worker: queued and due (its retry time, if any, has come),
    or running with an expired lease. Returns its turns in order, each with the run and
    its conversation loaded (every run has a turn), or None when the run was not there
    to take."""
    now = timezone.now()
    lease = now + timedelta(seconds=settings.REPLAY_LEASE_SECONDS)
    return _claim_turns(run_id, now, lease)


# What a worker never reads of a turn: the exchange it stored.
_TURN_DEFERRED = ("request", "request_delta", "request_headers", "response")


@cache
def _claim_statement() -> tuple[str, Any, Any, Any]:
    run_fields = pgsql.fields_of(models.ReplayRun)
    conversation_fields = pgsql.fields_of(models.Conversation)
    turn_fields = pgsql.fields_of(models.ReplayTurn, frozenset(_TURN_DEFERRED))
    run_columns = ", ".join(pgsql.quote(field.column) for field in run_fields)
    sql = f"""
        WITH r AS (
            UPDATE {pgsql.table(models.ReplayRun)}
            SET status = %(running)s, lease_expires_at = %(lease)s,
                attempts = attempts + 1, started_at = %(now)s, next_attempt_at = NULL
            WHERE id = %(id)s AND (
                (status = %(queued)s AND (next_attempt_at IS NULL OR next_attempt_at <= %(now)s))
                OR (status = %(running)s AND lease_expires_at < %(now)s))
            RETURNING {run_columns}
        )
        SELECT {pgsql.select_list(run_fields, "r")},
               {pgsql.select_list(conversation_fields, "c")},
               {pgsql.select_list(turn_fields, "t")}
        FROM r
        JOIN {pgsql.table(models.Conversation)} c ON c.id = r.conversation_id
        JOIN {pgsql.table(models.ReplayTurn)} t ON t.run_id = r.id
        ORDER BY t.{pgsql.quote("index")}
    """
    return sql, run_fields, conversation_fields, turn_fields


def _claim_sql(run_id: uuid.UUID, now: datetime, lease: datetime) -> list[models.ReplayTurn] | None:
    """:func:`_claim` in one statement: the same conditional UPDATE, and the turns, run and
    conversation read in the same round trip."""
    sql, run_fields, conversation_fields, turn_fields = _claim_statement()
    params = {
        "id": run_id,
        "now": now,
        "lease": lease,
        "running": str(Status.RUNNING),
        "queued": str(Status.QUEUED),
    }
    rows = pgsql.fetch(sql, params)
    if not rows:
        return None
    split, end = len(run_fields), len(run_fields) + len(conversation_fields)
    run = pgsql.instance(models.ReplayRun, run_fields, rows[0][:split])
    run.conversation = pgsql.instance(models.Conversation, conversation_fields, rows[0][split:end])
    turns = []
    for row in rows:
        turn = pgsql.instance(models.ReplayTurn, turn_fields, row[end:])
        turn.run = run
        turns.append(turn)
    return turns


@pgsql.sql_twin(_claim_sql)
def _claim_turns(
    run_id: uuid.UUID, now: datetime, lease: datetime
) -> list[models.ReplayTurn] | None:
    """:func:`_claim` through the ORM: the conditional UPDATE, then the turns with their
    run and conversation (on PostgreSQL one statement does both, :func:`_claim_sql`)."""
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    claimable = (Q(status=Status.QUEUED) & due) | Q(status=Status.RUNNING, lease_expires_at__lt=now)
    updated = models.ReplayRun.objects.filter(claimable, pk=run_id).update(
        status=Status.RUNNING,
        lease_expires_at=lease,
        attempts=F("attempts") + 1,
        started_at=now,
        next_attempt_at=None,
    )
    if updated != 1:
        return None
    return list(
        models.ReplayTurn.objects.filter(run_id=run_id)
        .select_related("run__conversation")
        .defer(*_TURN_DEFERRED)
        .order_by("index")
    )


def replay_execute(*, run_id: uuid.UUID) -> Outcome:
    """Run every pending turn of a run, once; see the module docstring."""
    turns = _claim(run_id)
    if turns is None:
        return _not_claimed(run_id)
    # The pending turns to call, the succeeded ones for the totals.
    run = turns[0].run
    client = provider_client(run.provider)
    if client is None:
        return _fail(run, f"provider {run.provider!r} is no longer configured")
    pending = [turn for turn in turns if turn.status == TurnStatus.PENDING]
    done = [turn for turn in turns if turn.status == TurnStatus.SUCCEEDED]
    if not pending:
        return _succeed(run, done)
    stored = selectors.conversation_umf(conversation=run.conversation)
    sent_before = _sent_before(done)
    for number, turn in enumerate(pending):
        if number:
            _renew_lease(run)  # the claim took the lease for the first call
        last = number == len(pending) - 1
        outcome = _run_turn(run, turn, client, stored, done, sent_before, last=last)
        if outcome is not None:
            return outcome
    return Outcome(f"succeeded: {len(pending)} turn(s)")


def _not_claimed(run_id: uuid.UUID) -> Outcome:
    run = models.ReplayRun.objects.filter(pk=run_id).first()
    if run is None or run.status in (Status.SUCCEEDED, Status.FAILED):
        return Outcome("nothing to do: the run is finished or gone")
    if run.status == Status.QUEUED and run.next_attempt_at is not None:
        # A wait longer than one countdown (a long retry-after): defer again until due.
        remaining = (run.next_attempt_at - timezone.now()).total_seconds()
        return Outcome("not due yet", retry_in=task_countdown(remaining))
    # Another worker holds a live lease: look again when it runs out.
    remaining = (
        (run.lease_expires_at - timezone.now()).total_seconds() if run.lease_expires_at else 0
    )
    return Outcome("held by another worker", retry_in=max(remaining, 0) + 1)


def _run_turn(
    run: models.ReplayRun,
    turn: models.ReplayTurn,
    client: Client,
    stored: selectors.StoredConversation,
    done: list[models.ReplayTurn],
    sent_before: SentBefore,
    *,
    last: bool,
) -> Outcome | None:
    prefix, parent_id, position = _prefix(stored, turn)
    try:
        exchange = client.complete(prefix, model=run.model, parameters=run.parameters)
    except ProviderError as error:
        return _provider_failed(run, turn, error)
    answer = TurnAnswer(
        run=run,
        turn=turn,
        exchange=exchange,
        parent_id=parent_id,
        position=position,
        sent_before=sent_before,
    )
    if not replay_turn_store(answer, finish_run=last, succeeded_before=done):
        # Another delivery of this task got there first and carries on with the run.
        return Outcome(f"turn {turn.index} was stored by another delivery")
    done.append(turn)
    return None


def _sent_before(done: list[models.ReplayTurn]) -> SentBefore:
    """The base for the next turn's request: the latest stored turn's (rebuilt, one query)
    when the run resumes (a retry, a redelivery), else none yet."""
    if not done:
        return SentBefore()
    latest = max(done, key=lambda turn: turn.index)
    request = selectors.replay_turn_request(turn=latest)
    return SentBefore() if request is None else SentBefore(latest.pk, request)


def _prefix(
    stored: selectors.StoredConversation, turn: models.ReplayTurn
) -> tuple[umf.Conversation, uuid.UUID | None, int]:
    """The conversation up to (not including) the turn's original message, the id of the
    message the new answer hangs from, and the position it takes (the original's)."""
    ids = stored.message_ids
    end = ids.index(turn.original_message_id) if turn.original_message_id in ids else len(ids)
    conversation = stored.umf.model_copy(update={"messages": stored.umf.messages[:end]})
    # Hidden context (the person's profile, memories) is never sent to a provider.
    visible, _ = umf.without_hidden(conversation)
    return visible, ids[end - 1] if end > 0 else None, end


def _renew_lease(run: models.ReplayRun) -> None:
    lease = timezone.now() + timedelta(seconds=settings.REPLAY_LEASE_SECONDS)
    models.ReplayRun.objects.filter(pk=run.pk).update(lease_expires_at=lease)


def _provider_failed(
    run: models.ReplayRun, turn: models.ReplayTurn, error: ProviderError
) -> Outcome:
    reason = f"{type(error).__name__}: {error.message}"
    if error.status is not None:
        reason += f" (HTTP {error.status})"
    models.ReplayTurn.objects.filter(pk=turn.pk).update(error=reason, attempts=F("attempts") + 1)
    models.ReplayRun.objects.filter(pk=run.pk).update(provider_calls=F("provider_calls") + 1)
    run.refresh_from_db(fields=["attempts"])
    if isinstance(error, PermanentProviderError) or not error.transient:
        models.ReplayTurn.objects.filter(pk=turn.pk).update(status=TurnStatus.FAILED)
        return _fail(run, reason)
    if run.attempts >= settings.REPLAY_MAX_ATTEMPTS:
        return _fail(run, f"gave up after {run.attempts} attempts; last error: {reason}")
    wait = retry_backoff(run.attempts, error.retry_after)
    # Back to queued so whoever runs next (the retry, or the reconciler) may claim it,
    # but not before next_attempt_at, however many countdowns that takes.
    models.ReplayRun.objects.filter(pk=run.pk).update(
        status=Status.QUEUED,
        lease_expires_at=None,
        error=reason,
        next_attempt_at=timezone.now() + timedelta(seconds=wait),
    )
    logger.info("replay %s: transient failure, retry in %.1fs: %s", run.pk, wait, reason)
    return Outcome(f"retrying: {reason}", retry_in=task_countdown(wait))


def _fail(run: models.ReplayRun, reason: str) -> Outcome:
    models.ReplayRun.objects.filter(pk=run.pk).update(
        status=Status.FAILED, error=reason, finished_at=timezone.now(), lease_expires_at=None
    )
    logger.warning("replay %s failed: %s", run.pk, reason)
    return Outcome(f"failed: {reason}")


def _succeed(run: models.ReplayRun, turns: list[models.ReplayTurn]) -> Outcome:
    """Close a run whose turns all succeeded before (a redelivery after the last store)."""
    replay_run_finish(run, turns)
    return Outcome("succeeded: nothing left to call")


def replay_reconcile() -> int:
    """Re-enqueue runs that nobody is working on: running past their lease, or queued
    past their retry time (their task was lost, or never sent: the broker was down).
    Returns how many (stops at the first the broker refuses: the next round tries again)."""
    now = timezone.now()
    grace = now - timedelta(seconds=settings.REPLAY_LEASE_SECONDS)
    stuck = models.ReplayRun.objects.filter(
        Q(status=Status.RUNNING, lease_expires_at__lt=now)
        | Q(status=Status.QUEUED, next_attempt_at__lt=now - timedelta(seconds=30))
        | Q(status=Status.QUEUED, next_attempt_at__isnull=True, created_at__lt=grace)
    ).values_list("pk", flat=True)
    count = 0
    for run_id in stuck[:1000]:
        try:
            enqueue.send(enqueue.REPLAY_RUN, run_id)
        except enqueue.QueueUnavailable:
            break
        count += 1
    return count


def replay_start_each(
    *, conversations: QuerySet[models.Conversation], provider: str, model: str, mode: str
) -> tuple[int, list[tuple[models.Conversation, ReplayRequestError]]]:
    """:func:`replay_start` for each conversation (the admin's selection), each run owned
    by the conversation's owner; how many started, and why the others did not."""
    started, refused = 0, []
    for conversation in conversations.select_related("owner"):
        try:
            replay_start(
                owner=conversation.owner,
                conversation=conversation,
                provider=provider,
                model=model,
                mode=mode,
            )
            started += 1
        except ReplayRequestError as error:
            refused.append((conversation, error))
    return started, refused


def replay_retry_failed(*, runs: QuerySet[models.ReplayRun]) -> tuple[int, int]:
    """:func:`replay_retry` for each failed run among ``runs`` (the admin's selection);
    how many were retried, and how many were left alone (not failed)."""
    failed = list(runs.filter(status=Status.FAILED))
    for run in failed:
        replay_retry(run=run)
    return len(failed), runs.count() - len(failed)


def replay_retry(*, run: models.ReplayRun) -> models.ReplayRun:
    """Run a failed run again: its failed turns become pending; succeeded ones stay."""
    with transaction.atomic():
        run.turns.filter(status=TurnStatus.FAILED).update(status=TurnStatus.PENDING, error="")
        models.ReplayRun.objects.filter(pk=run.pk, status=Status.FAILED).update(
            status=Status.QUEUED, attempts=0, error="", finished_at=None, next_attempt_at=None
        )
        enqueue.send_on_commit(enqueue.REPLAY_RUN, run.pk)
    run.refresh_from_db()
    return run
