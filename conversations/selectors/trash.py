"""The trash, and the conversations an action of many is about: those picked by id, or
all that the list's filters match ("select all N that match")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from conversations import models
from conversations.selectors.listing import conversation_list


def trash_list(*, owner: User) -> QuerySet[models.Conversation]:
    """The owner's conversations in the trash, last trashed first (the index
    conversation_owner_trash)."""
    return models.Conversation.objects.filter(owner=owner, deleted_at__isnull=False).order_by(
        "-deleted_at", "-id"
    )


def trash_count(*, owner: User) -> int:
    """How many conversations the owner's trash holds."""
    return trash_list(owner=owner).count()


def trash_selection(
    *, owner: User, ids: Sequence[Any] | None = None, deleted_at: datetime | None = None
) -> QuerySet[models.Conversation]:
    """The owner's trashed conversations among ``ids``, or those trashed by one action
    (``deleted_at``: what an undo restores), or (neither given) the whole trash."""
    trashed = trash_list(owner=owner)
    if ids is not None:
        trashed = trashed.filter(pk__in=ids)
    if deleted_at is not None:
        trashed = trashed.filter(deleted_at=deleted_at)
    return trashed


def trash_expired(*, before: datetime) -> QuerySet[models.Conversation]:
    """Everyone's conversations trashed before ``before``: the purge's."""
    return models.Conversation.objects.filter(deleted_at__lt=before).order_by("deleted_at")


def conversation_selection(
    *, owner: User, ids: Sequence[Any] | None = None, filters: dict[str, Any] | None = None
) -> QuerySet[models.Conversation]:
    """The owner's conversations out of the trash among ``ids``, or (without ids) all
    those the list's ``filters`` match (:func:`conversation_list`'s arguments)."""
    if ids is not None:
        return models.Conversation.objects.filter(models.LIVE, owner=owner, pk__in=ids)
    return conversation_list(owner=owner, **(filters or {}))
