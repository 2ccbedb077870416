"""A stored conversation as a whole: deleting it."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.db import transaction

from conversations import selectors


def conversation_delete(*, owner: User, conversation_id: uuid.UUID) -> None:
    """Delete the owner's conversation and everything under it (attachments stay: they
    are shared); ``DoesNotExist`` when the owner has none with that id."""
    with transaction.atomic():
        conversation = selectors.conversation_get(owner=owner, conversation_id=conversation_id)
        conversation.delete()
