"""Writing the rows of a conversation (or of messages added to one) in one go."""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from conversations import models
from conversations.records import Rows
from conversations.services.bulk import bulk_insert, insert_tables, rows_of


def insert_rows(rows: Rows, *, new_conversation: bool) -> None:
    """Insert everything in ``rows``; the conversation row too when it is new.

    Call inside a transaction: the inserts are not atomic on their own.
    """
    if new_conversation:
        rows.conversation.save(force_insert=True)
    if rows.attachments:
        models.Attachment.objects.bulk_create(
            rows.attachments.values(), ignore_conflicts=True, batch_size=500
        )
    models.ToolDefinition.objects.bulk_create(rows.tools, batch_size=500)
    insert_tables(row_tables(rows))


def row_tables(rows: Rows) -> list[tuple[type[Model], list[dict[str, Any]]]]:
    """The rows of ``rows`` by table, in insert order (not the conversation, attachments
    or tools). The few (warnings, provenance) as rows too: a replay's answer writes one of
    each, and they go with the others."""
    return [
        (models.Message, rows.messages),
        (models.ContentBlock, rows.blocks),
        (models.ToolCall, rows.tool_calls),
        (models.DriftWarning, rows_of(rows.warnings)),
        (models.Provenance, rows_of(rows.provenance)),
    ]


def insert_many(many: list[Rows]) -> None:
    """Insert the rows of several new conversations together: one statement per table.

    Call inside a transaction, as :func:`insert_rows`.
    """
    models.Conversation.objects.bulk_create([rows.conversation for rows in many])
    attachments = {key: a for rows in many for key, a in rows.attachments.items()}
    if attachments:
        models.Attachment.objects.bulk_create(
            attachments.values(), ignore_conflicts=True, batch_size=500
        )
    bulk_insert(models.Message, [row for rows in many for row in rows.messages])
    bulk_insert(models.ContentBlock, [row for rows in many for row in rows.blocks])
    models.ToolDefinition.objects.bulk_create(
        [tool for rows in many for tool in rows.tools], batch_size=500
    )
    bulk_insert(models.ToolCall, [row for rows in many for row in rows.tool_calls])
    models.DriftWarning.objects.bulk_create(
        [warning for rows in many for warning in rows.warnings], batch_size=2000
    )
    models.Provenance.objects.bulk_create(
        [provenance for rows in many for provenance in rows.provenance], batch_size=500
    )
