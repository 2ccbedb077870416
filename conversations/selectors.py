"""Reads. Each function decides its related-row fetching once, here, and runs a bounded
number of queries whatever the size of the conversation (tests pin the counts)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from conversations import models
from conversations.records import MESSAGE_COLUMNS, block_data, message_data, warning_from_row
from providers.umf import Conversation, DriftWarning


def conversation_list(
    *,
    owner: User,
    source_format: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    tool: str | None = None,
    has_warnings: bool | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    query: str | None = None,
) -> QuerySet[models.Conversation]:
    """The owner's conversations, newest first, narrowed by the given filters.

    ``model`` matches the conversation's model or any message's; ``tool`` a tool offered
    or called; ``query`` is full-text search over text, reasoning, tool arguments and
    results (PostgreSQL text search; a plain substring match on other databases).
    """
    conversations = models.Conversation.objects.filter(owner=owner)
    if source_format:
        conversations = conversations.filter(source_format=source_format)
    if provider:
        conversations = conversations.filter(provider=provider)
    if model:
        in_messages = models.Message.objects.filter(conversation=OuterRef("pk"), model=model)
        conversations = conversations.filter(Q(model=model) | Exists(in_messages))
    if tool:
        offered = models.ToolDefinition.objects.filter(conversation=OuterRef("pk"), name=tool)
        called = models.ToolCall.objects.filter(conversation=OuterRef("pk"), name=tool)
        conversations = conversations.filter(Exists(offered) | Exists(called))
    if has_warnings is not None:
        conversations = (
            conversations.filter(warning_count__gt=0)
            if has_warnings
            else conversations.filter(warning_count=0)
        )
    if created_after:
        conversations = conversations.filter(created_at__gte=created_after)
    if created_before:
        conversations = conversations.filter(created_at__lt=created_before)
    if query:
        conversations = conversations.filter(Exists(_matching_messages(query)))
    return conversations.order_by("-created_at", "-id")


def _matching_messages(query: str) -> QuerySet[models.Message]:
    messages = models.Message.objects.filter(conversation=OuterRef("pk"))
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import SearchQuery, SearchVector

        # Must match the expression of the GIN index in migration 0002 to use it.
        vector = SearchVector("search_text", config="english")
        return messages.annotate(search=vector).filter(
            search=SearchQuery(query, config="english", search_type="websearch")
        )
    return messages.filter(search_text__icontains=query)


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
        .order_by("message__position", "index")
        .values_list("message_id", "type", "text", "payload", "attachment_id")
    )
    attachments = _attachment_bytes({row[4] for row in blocks if row[4]})
    tools = list(
        models.ToolDefinition.objects.filter(conversation=conversation).values(
            "name", "description", "parameters", "extra"
        )
    )
    warnings = list(
        models.DriftWarning.objects.filter(conversation=conversation, replay_run__isnull=True)
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
