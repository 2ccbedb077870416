"""Writing a replay turn's answer as a new branch beside the original thread."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from conversations import models, pgsql
from conversations.records import Rows, add_messages, warning_row
from conversations.services.storage import insert_rows
from providers.clients.base import Exchange


@dataclass
class TurnAnswer:
    run: models.ReplayRun
    turn: models.ReplayTurn
    exchange: Exchange
    parent_id: uuid.UUID | None
    # The position of the turn it regenerates: replay answers are its siblings.
    position: int


def store_turn_answer(
    answer: TurnAnswer, *, finish_run: bool, succeeded_before: Sequence[models.ReplayTurn] = ()
) -> bool:
    """Store the answer and mark the turn succeeded (and the run, when this was its last
    turn, with totals over ``succeeded_before`` and this turn), in one transaction: one
    commit per provider call, the cost that matters.

    Returns False (and writes nothing) when the turn is no longer pending: another
    delivery of the same task already stored it, so there is never a duplicate branch.
    """
    run, exchange = answer.run, answer.exchange
    message = exchange.response.message
    if message.model is None:
        message = message.model_copy(update={"model": run.model})
    rows = Rows(conversation=run.conversation, replay_run_id=run.pk)
    add_messages(rows, [message], start_position=answer.position, parent_id=answer.parent_id)
    message_id = rows.messages[0]["id"]
    _add_warnings(rows, run, exchange, message_id)
    rows.provenance.append(
        models.Provenance(
            conversation=run.conversation,
            message_id=message_id,
            frontend=run.conversation.source_format,
            backend=run.provider,
            model=message.model or run.model,
        )
    )
    with transaction.atomic():
        # First, so that nothing is written when another delivery stored the turn; the row
        # lock it takes holds a concurrent delivery until this commits (which then finds
        # the turn succeeded). The message it points to is inserted next: foreign keys are
        # checked at commit.
        if not _mark_succeeded(answer.turn, exchange, message_id):
            return False
        insert_rows(rows, new_conversation=False)
        if finish_run:
            finish_run_succeeded(run, [*succeeded_before, answer.turn])
        else:
            pgsql.update(models.ReplayRun, {"id": run.pk}, {"provider_calls": pgsql.Add(1)})
    return True


def finish_run_succeeded(run: models.ReplayRun, turns: Sequence[models.ReplayTurn]) -> None:
    """Mark a run succeeded with its totals over ``turns`` (all its turns, succeeded),
    counting the call just stored."""
    usage: dict[str, int] = {}
    for turn in turns:
        for key, value in (turn.usage or {}).items():
            if isinstance(value, int):
                usage[key] = usage.get(key, 0) + value
    pgsql.update(
        models.ReplayRun,
        {"id": run.pk},
        {
            "status": models.ReplayRun.Status.SUCCEEDED,
            "error": "",
            "usage": usage,
            "latency_ms": sum(turn.latency_ms or 0 for turn in turns),
            "provider_calls": pgsql.Add(1),
            "finished_at": timezone.now(),
            "lease_expires_at": None,
        },
    )


def _add_warnings(
    rows: Rows, run: models.ReplayRun, exchange: Exchange, message_id: uuid.UUID
) -> None:
    for position, warning in enumerate(exchange.warnings):
        row = warning_row(warning, rows.conversation, models.DriftWarning.Stage.REPLAY, position)
        row.replay_run = run
        row.message_id = message_id
        rows.warnings.append(row)


def _mark_succeeded(turn: models.ReplayTurn, exchange: Exchange, message_id: uuid.UUID) -> bool:
    """Flip the turn from pending to succeeded with what the call gave (a conditional
    UPDATE); False when it was no longer pending. ``turn`` gets the usage and latency."""
    response = exchange.response
    turn.status = models.ReplayTurn.Status.SUCCEEDED
    turn.usage = (
        response.usage.model_dump(mode="json", exclude_none=True) if response.usage else None
    )
    turn.latency_ms = round(exchange.latency_ms)
    updated = pgsql.update(
        models.ReplayTurn,
        {"id": turn.pk, "status": models.ReplayTurn.Status.PENDING},
        {
            "status": turn.status,
            "attempts": pgsql.Add(1),
            "message_id": message_id,
            "request": exchange.request,
            "request_headers": exchange.headers,
            "response": exchange.raw_response,
            "usage": turn.usage,
            "finish_reason": response.finish_reason or "",
            "latency_ms": turn.latency_ms,
            "error": "",
            "finished_at": timezone.now(),
        },
    )
    return updated == 1
