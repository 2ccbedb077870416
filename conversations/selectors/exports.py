"""Stored conversations written out in a format: the one way the API, the download and
the export command render what the archive holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from conversations import models
from conversations.selectors.stored import conversation_umf
from conversations.selectors.thread import thread_message_ids
from providers import formats, umf


def conversation_export(
    *, conversation: models.Conversation, target: formats.Format, leaf: Any = None
) -> formats.Rendered:
    """The conversation as ``target`` holds one (a file of one, for formats of many), with
    a warning for each thing the target could not hold. With ``leaf`` (a message id), only
    the branch through it, as the page shows it; without, the whole tree, which formats
    that hold one thread write as its imported thread (with a warning for the rest)."""
    stored = conversation_umf(conversation=conversation)
    document = stored.umf
    if leaf is not None:
        on_path = thread_message_ids(conversation=conversation, leaf=leaf)
        kept = [
            message
            for message, row_id in zip(document.messages, stored.message_ids, strict=True)
            if row_id in on_path
        ]
        document = document.model_copy(update={"messages": kept})
    return target.render_all([document])


def conversations_to_export(
    *,
    owner: User | None = None,
    chunk_size: int = 200,
    selection: QuerySet[models.Conversation] | None = None,
) -> Iterator[models.Conversation]:
    """Every conversation out of the trash (only the owner's, when given; only those of
    ``selection``, when given), oldest first, fetched ``chunk_size`` at a time so that an
    archive of any size fits in memory."""
    conversations = models.Conversation.objects.all() if selection is None else selection
    conversations = conversations.filter(models.LIVE).order_by("created_at", "id")
    if owner is not None:
        conversations = conversations.filter(owner=owner)
    return conversations.iterator(chunk_size=chunk_size)


def conversations_umf(
    *,
    owner: User | None = None,
    chunk_size: int = 200,
    selection: QuerySet[models.Conversation] | None = None,
) -> Iterator[umf.Conversation]:
    """:func:`conversations_to_export`, each read back as UMF."""
    for conversation in conversations_to_export(
        owner=owner, chunk_size=chunk_size, selection=selection
    ):
        yield conversation_umf(conversation=conversation).umf
