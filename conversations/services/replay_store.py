"""Writing a replay turn's answer as a new branch beside the original thread."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from conversations import models
from conversations.records import Rows, add_messages, warning_row
from conversations.services.storage import insert_rows
from providers.clients.base import Exchange


@dataclass
class TurnAnswer:
    run: models.ReplayRun
    turn: models.ReplayTurn
    exchange: Exchange
    parent_id: uuid.UUID | None


def store_turn_answer(answer: TurnAnswer) -> bool:
    """Store the answer and mark the turn succeeded, in one transaction.

    Returns False (and writes nothing) when the turn is no longer pending: another
    delivery of the same task already stored it, so there is never a duplicate branch.
    """
    run, exchange = answer.run, answer.exchange
    with transaction.atomic():
        turn = models.ReplayTurn.objects.select_for_update().get(pk=answer.turn.pk)
        if turn.status != models.ReplayTurn.Status.PENDING:
            return False
        conversation = models.Conversation.objects.select_for_update().get(pk=run.conversation_id)
        message = exchange.response.message
        if message.model is None:
            message = message.model_copy(update={"model": run.model})
        rows = Rows(conversation=conversation, replay_run_id=run.pk)
        last = conversation.messages.aggregate(last=Max("position"))["last"]
        add_messages(rows, [message], start_position=(last or 0) + 1, parent_id=answer.parent_id)
        message_id = rows.messages[0]["id"]
        _add_warnings(rows, run, exchange, message_id)
        rows.provenance.append(
            models.Provenance(
                conversation=conversation,
                message_id=message_id,
                frontend=conversation.source_format,
                backend=run.provider,
                model=message.model or run.model,
            )
        )
        insert_rows(rows, new_conversation=False)
        _mark_succeeded(turn, exchange, message_id)
    return True


def _add_warnings(
    rows: Rows, run: models.ReplayRun, exchange: Exchange, message_id: uuid.UUID
) -> None:
    for position, warning in enumerate(exchange.warnings):
        row = warning_row(warning, rows.conversation, models.DriftWarning.Stage.REPLAY, position)
        row.replay_run = run
        row.message_id = message_id
        rows.warnings.append(row)


def _mark_succeeded(turn: models.ReplayTurn, exchange: Exchange, message_id: uuid.UUID) -> None:
    response = exchange.response
    turn.status = models.ReplayTurn.Status.SUCCEEDED
    turn.message_id = message_id
    turn.request = exchange.request
    turn.request_headers = exchange.headers
    turn.response = exchange.raw_response
    turn.usage = (
        response.usage.model_dump(mode="json", exclude_none=True) if response.usage else None
    )
    turn.finish_reason = response.finish_reason or ""
    turn.latency_ms = round(exchange.latency_ms)
    turn.error = ""
    turn.finished_at = timezone.now()
    turn.save()
