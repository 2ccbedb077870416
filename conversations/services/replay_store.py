"""Writing a replay turn's answer as a new branch beside the original thread."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from conversations import models, pgsql
from conversations.records import Rows, add_messages, warning_row
from conversations.replay_requests import request_delta
from conversations.services.bulk import insert_statements
from conversations.services.storage import insert_rows, row_tables
from providers.clients.base import Exchange
from providers.umf import DriftWarning, Response
from providers.validation import replace_nul


@dataclass
class SentBefore:
    """The request the run's latest stored turn sent, whole, and that turn's id: the base
    the next turn's request is stored against (as a delta). Empty before the first."""

    turn_id: int | None = None
    request: Any = None


@dataclass
class TurnAnswer:
    run: models.ReplayRun
    turn: models.ReplayTurn
    exchange: Exchange
    parent_id: uuid.UUID | None
    # The position of the turn it regenerates: replay answers are its siblings.
    position: int
    sent_before: SentBefore = field(default_factory=SentBefore)


def replay_turn_store(
    answer: TurnAnswer, *, finish_run: bool, succeeded_before: Sequence[models.ReplayTurn] = ()
) -> bool:
    """Store the answer and mark the turn succeeded (and the run, when this was its last
    turn, with totals over ``succeeded_before`` and this turn), in one transaction: one
    commit per provider call, the cost that matters.

    Returns False (and writes nothing) when the turn is no longer pending: another
    delivery of the same task already stored it, so there is never a duplicate branch.
    The request is stored as its delta from ``answer.sent_before``'s, when there is one;
    on success ``sent_before`` becomes this turn's.
    """
    run, exchange = answer.run, storable(answer.exchange)
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
    turns = [*succeeded_before, answer.turn]
    # Each write as (model, where, values), for the ORM or the hand-written statements.
    mark = _mark_succeeded(answer.turn, exchange, message_id, answer.sent_before)
    close = _run_finished(run, turns, calls=1) if finish_run else _call_counted(run)
    try:
        with transaction.atomic():
            _write_answer(mark, rows, close)
    except _StoredBefore:
        return False
    answer.sent_before.turn_id, answer.sent_before.request = answer.turn.pk, exchange.request
    return True


Update = tuple[type[Model], dict[str, Any], dict[str, Any]]


class _StoredBefore(Exception):
    """The turn was no longer pending: another delivery stored it (rolls back)."""


def _write_together(mark: Update, rows: Rows, close: Update) -> None:
    """:func:`_write_answer` sent together (one round trip); when the turn turns out to be
    no longer pending, the transaction is rolled back instead. An answer with attachments
    or tools (rare: they need an upsert, or model rows) goes one by one."""
    if rows.attachments or rows.tools:
        _write_one_by_one(mark, rows, close)
        return
    mark_sql, mark_params = pgsql.update_statement(*mark)
    close_sql, close_params = pgsql.update_statement(*close)
    statements = [
        (mark_sql, [mark_params]),
        *insert_statements(row_tables(rows)),
        (close_sql, [close_params]),
    ]
    if pgsql.execute_many(statements)[0] != 1:
        raise _StoredBefore


@pgsql.sql_twin(_write_together)
def _write_answer(mark: Update, rows: Rows, close: Update) -> None:
    """Flip the turn (``mark``), insert the answer's rows, count the call or close the
    run (``close``); :class:`_StoredBefore` when the turn was no longer pending."""
    _write_one_by_one(mark, rows, close)


def _write_one_by_one(mark: Update, rows: Rows, close: Update) -> None:
    # The turn first, so that nothing is written when another delivery stored it; the row
    # lock it takes holds a concurrent delivery until this commits (which then finds the
    # turn succeeded). The message it points to is inserted next: foreign keys are checked
    # at commit.
    if pgsql.update(*mark) != 1:
        raise _StoredBefore
    insert_rows(rows, new_conversation=False)
    pgsql.update(*close)


def replay_run_finish(run: models.ReplayRun, turns: Sequence[models.ReplayTurn]) -> None:
    """Mark a run succeeded with its totals over ``turns`` (all its turns, succeeded):
    for a redelivered task that finds every turn stored, and calls nothing."""
    pgsql.update(*_run_finished(run, turns, calls=0))


def _run_finished(
    run: models.ReplayRun, turns: Sequence[models.ReplayTurn], *, calls: int
) -> Update:
    """The UPDATE that marks a run succeeded with its totals, adding ``calls`` provider
    calls (the one whose answer is stored with it, if any)."""
    usage: dict[str, int] = {}
    for turn in turns:
        for key, value in (turn.usage or {}).items():
            if isinstance(value, int):
                usage[key] = usage.get(key, 0) + value
    values = {
        "status": models.ReplayRun.Status.SUCCEEDED,
        "error": "",
        "usage": usage,
        "latency_ms": sum(turn.latency_ms or 0 for turn in turns),
        "finished_at": timezone.now(),
        "lease_expires_at": None,
    }
    if calls:
        values["provider_calls"] = pgsql.Add(calls)
    return models.ReplayRun, {"id": run.pk}, values


def _call_counted(run: models.ReplayRun) -> Update:
    return models.ReplayRun, {"id": run.pk}, {"provider_calls": pgsql.Add(1)}


def storable(exchange: Exchange) -> Exchange:
    """The exchange as the archive can store it: every NUL character of the answer (the
    message, and the provider's raw answer kept beside it) replaced by U+FFFD, with a
    warning naming where, since PostgreSQL text and jsonb cannot hold one; the exchange
    itself when it has none. Refusing the answer instead would fail the turn after a
    call that cost money, and a retry would most likely get the same."""
    if "\\u0000" in exchange.response.model_dump_json():
        dumped, in_message = replace_nul(exchange.response.model_dump(mode="json"))
    else:
        dumped, in_message = None, []
    raw, in_raw = replace_nul(exchange.raw_response)
    if not in_message and not in_raw:
        return exchange
    warning = DriftWarning(
        category="content-dropped",
        message=(
            "the answer held NUL characters, which the archive cannot store; "
            "each was replaced with U+FFFD"
        ),
        field=f"response.{in_message[0]}" if in_message else _join("raw_response", in_raw[0]),
        original_value="\\u0000",
        transformed_value="\ufffd",
        source="archive",
        details={"response": in_message[:100], "raw_response": in_raw[:100]},
    )
    return replace(
        exchange,
        response=Response.model_validate(dumped) if in_message else exchange.response,
        raw_response=raw,
        warnings=[*exchange.warnings, warning],
    )


def _join(path: str, inner: str) -> str:
    return f"{path}{inner}" if inner.startswith("[") else f"{path}.{inner}"


def _add_warnings(
    rows: Rows, run: models.ReplayRun, exchange: Exchange, message_id: uuid.UUID
) -> None:
    for position, warning in enumerate(exchange.warnings):
        row = warning_row(warning, rows.conversation, models.DriftWarning.Stage.REPLAY, position)
        row.replay_run = run
        row.message_id = message_id
        rows.warnings.append(row)


def _mark_succeeded(
    turn: models.ReplayTurn, exchange: Exchange, message_id: uuid.UUID, before: SentBefore
) -> Update:
    """The conditional UPDATE that flips the turn from pending to succeeded with what the
    call gave (it touches no row when the turn was no longer pending). ``turn`` gets the
    usage and latency."""
    response = exchange.response
    turn.status = models.ReplayTurn.Status.SUCCEEDED
    turn.usage = (
        response.usage.model_dump(mode="json", exclude_none=True) if response.usage else None
    )
    turn.latency_ms = round(exchange.latency_ms)
    values = {
        "status": turn.status,
        "attempts": pgsql.Add(1),
        "message_id": message_id,
        **_request_values(exchange.request, before),
        "request_headers": exchange.headers,
        "response": exchange.raw_response,
        "usage": turn.usage,
        "finish_reason": response.finish_reason or "",
        "latency_ms": turn.latency_ms,
        "error": "",
        "finished_at": timezone.now(),
    }
    return models.ReplayTurn, {"id": turn.pk, "status": models.ReplayTurn.Status.PENDING}, values


def _request_values(request: Any, before: SentBefore) -> dict[str, Any]:
    """The request's columns: whole for the first turn stored, else a reference to the
    turn before and the delta from its request (not a copy of the whole prefix)."""
    if before.turn_id is None:
        return {"request": request, "request_base_id": None, "request_delta": None}
    return {
        "request": None,
        "request_base_id": before.turn_id,
        "request_delta": request_delta(before.request, request),
    }
