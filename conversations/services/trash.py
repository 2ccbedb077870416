"""The trash: deleting a conversation moves it there (it keeps its rows, out of sight),
whence it is restored, or purged for real: by its owner (emptying the trash) or, past
``TRASH_DAYS``, by the beat task ``trash_purge``.

One action trashes its conversations at one instant, their ``deleted_at``: undoing the
action restores the conversations of that instant, however many were selected."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from conversations import models, selectors

# Conversations purged in one transaction: a long one of 20,000 messages is ~70,000 rows.
PURGE_BATCH = 20


class NotFound(Exception):
    """Some of the ids given are not conversations of the owner's where the action wants
    them (out of the trash to trash them, in it to restore or purge them)."""

    def __init__(self, missing: Sequence[Any], where: str) -> None:
        shown = ", ".join(str(pk) for pk in list(missing)[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        super().__init__(f"not among your conversations {where}: {shown}{more}")
        self.message = str(self)
        self.missing = list(missing)


@dataclass(frozen=True)
class Trashed:
    """What one action moved to the trash: how many, and its instant (the undo's key)."""

    count: int
    deleted_at: datetime


def conversations_trash(
    *, owner: User, ids: Sequence[Any] | None = None, filters: dict[str, Any] | None = None
) -> Trashed:
    """Move the owner's conversations to the trash: those of ``ids`` (all or none:
    :class:`NotFound` when one is not the owner's, or already in the trash), or all that
    the list's ``filters`` match."""
    now = timezone.now()
    with transaction.atomic():
        selection = selectors.conversation_selection(owner=owner, ids=ids, filters=filters)
        if ids is not None:
            _check_all(selection, ids, "out of the trash")
        count = selection.update(deleted_at=now)
    return Trashed(count, now)


def conversations_restore(
    *, owner: User, ids: Sequence[Any] | None = None, deleted_at: datetime | None = None
) -> int:
    """Take the owner's conversations out of the trash: those of ``ids`` (all or none:
    :class:`NotFound` when one is not in the owner's trash), those one action trashed
    (``deleted_at``: its undo), or the whole trash. Returns how many."""
    with transaction.atomic():
        selection = selectors.trash_selection(owner=owner, ids=ids, deleted_at=deleted_at)
        if ids is not None:
            _check_all(selection, ids, "in the trash")
        return selection.update(deleted_at=None)


def conversations_out_of_trash(*, conversations: Sequence[models.Conversation]) -> None:
    """Take the conversations an import found already stored out of the trash: importing
    a deleted conversation again brings it back (one query, only when one is trashed)."""
    trashed = [c for c in conversations if c.deleted_at is not None]
    if trashed:
        models.Conversation.objects.filter(pk__in=[c.pk for c in trashed]).update(deleted_at=None)
        for conversation in trashed:
            conversation.deleted_at = None


def trash_empty(*, owner: User, ids: Sequence[Any] | None = None) -> int:
    """Purge the owner's trash (only ``ids``, when given: :class:`NotFound` when one is
    not in it). Returns how many conversations were deleted."""
    selection = selectors.trash_selection(owner=owner, ids=ids)
    if ids is not None:
        _check_all(selection, ids, "in the trash")
    return _purge(selection)


def trash_purge_expired(*, now: datetime | None = None) -> int:
    """Purge every conversation trashed more than ``TRASH_DAYS`` days before ``now``.
    Returns how many were deleted."""
    before = (now or timezone.now()) - timedelta(days=settings.TRASH_DAYS)
    return _purge(selectors.trash_expired(before=before))


def _check_all(selection: QuerySet[models.Conversation], ids: Sequence[Any], where: str) -> None:
    found = {str(pk) for pk in selection.values_list("pk", flat=True)}
    missing = [pk for pk in dict.fromkeys(str(pk) for pk in ids) if pk not in found]
    if missing:
        raise NotFound(missing, where)


def _purge(selection: QuerySet[models.Conversation]) -> int:
    """Delete the conversations of ``selection`` (trashed ones only) and everything under
    them, a few at a time. Attachments are shared by hash: those no other conversation
    uses go with them, the others stay."""
    purged = 0
    while batch := list(selection.values_list("pk", flat=True)[:PURGE_BATCH]):
        with transaction.atomic():
            attachments = set(
                models.ContentBlock.objects.filter(
                    message__conversation_id__in=batch, attachment__isnull=False
                ).values_list("attachment_id", flat=True)
            )
            _, deleted = models.Conversation.objects.filter(
                pk__in=batch, deleted_at__isnull=False
            ).delete()
            _delete_unused_attachments(attachments)
        purged += deleted.get(models.Conversation._meta.label, 0)
    return purged


def _delete_unused_attachments(candidates: set[str]) -> None:
    if not candidates:
        return
    used = models.ContentBlock.objects.filter(attachment_id=OuterRef("pk"))
    models.Attachment.objects.filter(sha256__in=candidates).exclude(Exists(used)).delete()
