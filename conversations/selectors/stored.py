"""One stored conversation read back: as UMF (exact, with its row ids), its warnings, and
the attachments its owner may read."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from conversations import models
from conversations.records import MESSAGE_COLUMNS, block_data, message_data, warning_from_row
from providers.umf import Conversation, DriftWarning


def conversation_get(*, owner: User, conversation_id: Any) -> models.Conversation:
    """The owner's conversation with this id (``DoesNotExist`` for anyone else's)."""
    return models.Conversation.objects.get(owner=owner, pk=conversation_id)


@dataclass
class StoredConversation:
    """A stored conversation as UMF, with the warnings recorded when it was imported."""

    row: models.Conversation
    umf: Conversation
    import_warnings: list[DriftWarning]
    # The primary key of each row behind ``umf.messages``, in the same order.
    message_ids: list[Any]


def conversation_umf(*, conversation: models.Conversation) -> StoredConversation:
    """Load a stored conversation back into UMF, in five queries whatever its length.

    This is the thread as it was imported; the branches replays added are not part of it.
    Rows are fetched as plain values and validated into UMF in one pydantic call: building
    a model instance per row would cost more than the queries.
    """
    columns = [column for column, _ in MESSAGE_COLUMNS]
    messages = list(
        models.Message.objects.filter(conversation=conversation, replay_run__isnull=True)
        .order_by("position")
        .values_list("id", *columns)
    )
    blocks = list(
        models.ContentBlock.objects.filter(
            message__conversation=conversation, message__replay_run__isnull=True
        )
        # Grouped by message below: only the order within a message matters.
        .order_by("index")
        .values_list("message_id", "type", "text", "payload", "attachment_id")
    )
    attachments = _attachment_bytes({row[4] for row in blocks if row[4]})
    # Explicit orders: the models' default ones start with the conversation, a foreign key,
    # which orders by the conversation's own ordering through a join.
    tools = list(
        models.ToolDefinition.objects.filter(conversation=conversation)
        .order_by("position")
        .values("name", "description", "parameters", "extra")
    )
    warnings = list(
        models.DriftWarning.objects.filter(
            conversation=conversation, replay_run__isnull=True
        ).order_by("stage", "position")
    )
    blocks_by_message: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for message_id, block_type, text, payload, attachment_id in blocks:
        data = attachments.get(attachment_id) if attachment_id else None
        blocks_by_message[message_id].append(block_data(block_type, text, payload, data))
    recorded = [w for w in warnings if w.stage == models.DriftWarning.Stage.RECORD]
    document = {
        "messages": [message_data(row[1:], blocks_by_message[row[0]]) for row in messages],
        "tools": tools,
        "tool_choice": conversation.tool_choice,
        "parameters": conversation.parameters,
        "metadata": {
            **conversation.metadata,
            "warnings": [warning_from_row(w).model_dump(mode="json") for w in recorded],
        },
        "extra": conversation.extra,
    }
    import_warnings = [
        warning_from_row(w) for w in warnings if w.stage == models.DriftWarning.Stage.IMPORT
    ]
    return StoredConversation(
        conversation,
        Conversation.model_validate(document),
        import_warnings,
        [row[0] for row in messages],
    )


def _attachment_bytes(keys: set[str]) -> dict[str, bytes]:
    if not keys:
        return {}
    rows = models.Attachment.objects.filter(sha256__in=keys).values_list("sha256", "data")
    return {key: bytes(data) for key, data in rows}


def warnings_for(*, conversation: models.Conversation) -> list[models.DriftWarning]:
    """The warnings recorded for a conversation, in order."""
    return list(models.DriftWarning.objects.filter(conversation=conversation))


def attachment_for(*, owner: User, sha256: str) -> models.Attachment | None:
    """The attachment, if one of the owner's conversations refers to it (else None:
    attachments are shared by hash, so who may read one follows from the blocks)."""
    referenced = models.ContentBlock.objects.filter(
        attachment_id=OuterRef("pk"), message__conversation__owner=owner
    )
    return models.Attachment.objects.filter(Exists(referenced), sha256=sha256).first()
