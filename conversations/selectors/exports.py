"""Stored conversations written out in a format: the one way the API, the download and
the export command render what the archive holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import QuerySet

from conversations import models
from conversations.selectors.stored import conversation_messages, conversation_umf
from conversations.selectors.thread_path import thread_message_ids
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


def conversation_export_stream(
    *, conversation: models.Conversation, target: formats.Format, leaf: Any = None
) -> Iterator[bytes] | None:
    """:func:`conversation_export`'s payload as JSON bytes written a message at a time, in
    the memory of a chunk of messages whatever the conversation's length, when ``target``
    can write one so (``render_stream``, which loses nothing: there are no warnings) and
    the conversation is long (more messages than ``UMF_DETAIL_MAX_INLINE_MESSAGES``);
    None when it is to be rendered whole."""
    if target.render_stream is None or not conversation_is_long(conversation=conversation):
        return None
    head = conversation_umf(conversation=conversation, first=0).umf
    messages = conversation_messages(conversation=conversation)
    if leaf is not None:
        on_path = thread_message_ids(conversation=conversation, leaf=leaf)
        messages = (pair for pair in messages if pair[0] in on_path)
    return _buffered(target.render_stream(head, (message for _, message in messages)))


STREAM_CHUNK_BYTES = 64 * 1024


def _buffered(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The bytes in pieces of about ``STREAM_CHUNK_BYTES``: a piece per message would be a
    write to the socket per message."""
    pending: list[bytes] = []
    size = 0
    for chunk in chunks:
        pending.append(chunk)
        size += len(chunk)
        if size >= STREAM_CHUNK_BYTES:
            yield b"".join(pending)
            pending, size = [], 0
    if pending:
        yield b"".join(pending)


def conversation_export_or_stream(
    *, conversation: models.Conversation, target: formats.Format, leaf: Any = None
) -> Iterator[bytes] | formats.Rendered:
    """:func:`conversation_export_stream` when the export streams, else
    :func:`conversation_export`: the one rule the API and the download follow."""
    stream = conversation_export_stream(conversation=conversation, target=target, leaf=leaf)
    if stream is not None:
        return stream
    return conversation_export(conversation=conversation, target=target, leaf=leaf)


def conversation_is_long(*, conversation: models.Conversation) -> bool:
    """True when the conversation holds more messages than a reader takes whole
    (``UMF_DETAIL_MAX_INLINE_MESSAGES``): the API's detail holds only the first ones and
    links to the paginated messages, and an export that can stream streams."""
    return conversation.message_count > settings.UMF_DETAIL_MAX_INLINE_MESSAGES


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
