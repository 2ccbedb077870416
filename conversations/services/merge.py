"""Adding the new messages of a newer version of a stored conversation (a newer data
export of the same account), never the ones already stored."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction
from django.db.models import F, Max

from conversations import models, selectors
from conversations.records import Rows, add_messages, conversation_fields
from conversations.services.storage import insert_rows
from providers import formats, umf


def merge_new_messages(
    conversation: models.Conversation, newer: umf.Conversation, digest: str
) -> int:
    """Store the messages of ``newer`` that ``conversation`` lacks, and take what it says
    of the whole conversation (its current branch, title, model); returns how many.

    Messages are matched by their source ids when they all have one (exports), else the
    stored thread must be the start of the newer one. Anything else (a message edited in
    place) is a :class:`FormatError`: merging it would silently rewrite history.
    """
    with transaction.atomic():
        locked = models.Conversation.objects.select_for_update().get(pk=conversation.pk)
        stored = selectors.conversation_umf(conversation=locked)
        new_messages, parent_id, known = _new_part(stored, newer)
        if new_messages:
            rows = Rows(conversation=locked)
            last = locked.messages.filter(replay_run__isnull=True).aggregate(last=Max("position"))[
                "last"
            ]
            add_messages(
                rows,
                new_messages,
                start_position=(last if last is not None else -1) + 1,
                parent_id=parent_id,
                known_parents=known,
            )
            insert_rows(rows, new_conversation=False)
        models.Conversation.objects.filter(pk=locked.pk).update(
            content_hash=digest,
            message_count=F("message_count") + len(new_messages),
            **_newer_fields(locked, newer),
        )
    conversation.refresh_from_db()
    return len(new_messages)


def _newer_fields(stored: models.Conversation, newer: umf.Conversation) -> dict[str, Any]:
    """What the newer version says of the whole conversation: its current branch (kept in
    ``extra``: ChatGPT's ``current_node``), its dates, model and title. A title the
    person gave at import stays."""
    fields = conversation_fields(newer, None, stored.source_format)
    if stored.title != stored.metadata.get("title", stored.title):
        del fields["title"]
    return fields


def _new_part(
    stored: selectors.StoredConversation, newer: umf.Conversation
) -> tuple[list[umf.Message], uuid.UUID | None, dict[str, uuid.UUID]]:
    old = stored.umf.messages
    known = {m.id: row for m, row in zip(old, stored.message_ids, strict=True) if m.id}
    if newer.messages and all(m.id for m in newer.messages) and len(known) == len(old):
        fresh = [m for m in newer.messages if m.id not in known]
        first = newer.messages.index(fresh[0]) if fresh else 0
        previous = newer.messages[first - 1] if first > 0 else None
        parent = known.get(previous.id) if previous is not None and previous.id else None
        return fresh, parent, known
    if _meaning(newer.messages[: len(old)]) != _meaning(old):
        raise formats.FormatError(
            "this conversation was already imported and its earlier messages have changed "
            "since; delete the stored copy to import the new version",
            field="messages",
        )
    parent = stored.message_ids[-1] if stored.message_ids else None
    return list(newer.messages[len(old) :]), parent, known


def _meaning(messages: list[umf.Message]) -> list[umf.JSON]:
    return [m.model_dump(mode="json", exclude={"extra"}) for m in messages]
