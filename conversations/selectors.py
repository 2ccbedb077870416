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
from conversations.records import block_from_row, message_from_row, warning_from_row
from providers import umf
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


def conversation_umf(*, conversation: models.Conversation) -> StoredConversation:
    """Load a stored conversation back into UMF, in five queries whatever its length."""
    messages = list(models.Message.objects.filter(conversation=conversation).order_by("position"))
    blocks = list(
        models.ContentBlock.objects.filter(message__conversation=conversation)
        .order_by("message__position", "index")
        .values_list("message_id", "index", "type", "text", "payload", "attachment_id")
    )
    attachment_ids = {row[5] for row in blocks if row[5]}
    attachments = dict(
        models.Attachment.objects.filter(sha256__in=attachment_ids).values_list("sha256", "data")
        if attachment_ids
        else []
    )
    tools = list(models.ToolDefinition.objects.filter(conversation=conversation))
    warnings = list(models.DriftWarning.objects.filter(conversation=conversation))
    blocks_by_message: dict[Any, list[umf.Block]] = defaultdict(list)
    for message_id, index, block_type, text, payload, attachment_id in blocks:
        row = models.ContentBlock(index=index, type=block_type, text=text, payload=payload)
        data = attachments.get(attachment_id) if attachment_id else None
        blocks_by_message[message_id].append(
            block_from_row(row, bytes(data) if data is not None else None)
        )
    metadata = dict(conversation.metadata)
    metadata["warnings"] = [
        warning_from_row(w).model_dump(mode="json")
        for w in warnings
        if w.stage == models.DriftWarning.Stage.RECORD
    ]
    result = umf.Conversation(
        messages=[message_from_row(m, blocks_by_message.get(m.id, [])) for m in messages],
        tools=[
            umf.Tool(name=t.name, description=t.description, parameters=t.parameters, extra=t.extra)
            for t in tools
        ],
        tool_choice=umf.ToolChoice.model_validate(conversation.tool_choice)
        if conversation.tool_choice
        else None,
        parameters=umf.Parameters.model_validate(conversation.parameters),
        metadata=umf.Metadata.model_validate(metadata),
        extra=conversation.extra,
    )
    import_warnings = [
        warning_from_row(w) for w in warnings if w.stage == models.DriftWarning.Stage.IMPORT
    ]
    return StoredConversation(conversation, result, import_warnings)


def warnings_for(*, conversation: models.Conversation) -> list[models.DriftWarning]:
    """The warnings recorded for a conversation, in order."""
    return list(models.DriftWarning.objects.filter(conversation=conversation))
