"""One stored conversation read back: as UMF (exact, with its row ids), its warnings, and
the attachments its owner may read."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from conversations import models, pgsql
from conversations.records import MESSAGE_COLUMNS, conversation_from_rows, messages_data
from providers.umf import Conversation, DriftWarning, Message


def conversation_get(*, owner: User, conversation_id: Any) -> models.Conversation:
    """The owner's conversation with this id (``DoesNotExist`` for anyone else's, and for
    one in the trash: it shows only there, see ``selectors.trash``)."""
    return models.Conversation.objects.get(models.LIVE, owner=owner, pk=conversation_id)


@dataclass
class StoredConversation:
    """A stored conversation as UMF, with the warnings recorded when it was imported."""

    row: models.Conversation
    umf: Conversation
    import_warnings: list[DriftWarning]
    # The primary key of each row behind ``umf.messages``, in the same order.
    message_ids: list[Any]


def conversation_umf(
    *, conversation: models.Conversation, first: int | None = None
) -> StoredConversation:
    """Load a stored conversation back into UMF, in five queries whatever its length (on
    PostgreSQL four of them go in one round trip; the fifth, for media bytes, only when
    there are attachments). With ``first``, only its first ``first`` messages (one query
    more, to find where they end): what a caller that cannot hold them all reads whole.

    This is the thread as it was imported; the branches replays added are not part of it.
    Rows are fetched as plain values and mapped back by
    :func:`~conversations.records.conversation_from_rows`.
    """
    messages, blocks, tools, warnings = _stored_rows(
        conversation, _position_bound(conversation, first)
    )
    attachments = _attachment_bytes({row[4] for row in blocks if row[4]})
    read, import_warnings = conversation_from_rows(
        conversation, messages, blocks, tools, warnings, attachments
    )
    return StoredConversation(conversation, read, import_warnings, [row[0] for row in messages])


Rows = tuple[list[Any], list[Any], list[dict[str, Any]], list[models.DriftWarning]]
NO_BOUND = 2**31 - 1  # past every position (a PositiveIntegerField)


def _position_bound(conversation: models.Conversation, first: int | None) -> int:
    """The position before which the first ``first`` imported messages lie."""
    if first is None:
        return NO_BOUND
    found = list(_imported(conversation).values_list("position", flat=True)[first : first + 1])
    return found[0] if found else NO_BOUND


def _imported(conversation: models.Conversation) -> Any:
    """The imported thread's messages, in order (replays add branches outside it)."""
    return models.Message.objects.filter(
        conversation=conversation, replay_run__isnull=True
    ).order_by("position")


_BLOCK_COLUMNS = ("message_id", "type", "text", "payload", "attachment_id")
_TOOL_COLUMNS = ("name", "description", "parameters", "extra")


@cache
def _rows_statements() -> tuple[tuple[str, ...], Any, Any, Any, Any]:
    message_fields = [models.Message._meta.get_field("id")] + [
        models.Message._meta.get_field(column) for column, _ in MESSAGE_COLUMNS
    ]
    block_fields = [models.ContentBlock._meta.get_field(name) for name in _BLOCK_COLUMNS]
    tool_fields = [models.ToolDefinition._meta.get_field(name) for name in _TOOL_COLUMNS]
    warning_fields = pgsql.fields_of(models.DriftWarning)
    message, block = pgsql.table(models.Message), pgsql.table(models.ContentBlock)
    tool, warning = pgsql.table(models.ToolDefinition), pgsql.table(models.DriftWarning)
    position, index = pgsql.quote("position"), pgsql.quote("index")
    statements = (
        f"""SELECT {pgsql.select_list(message_fields, "m")} FROM {message} m
        WHERE m.conversation_id = %s AND m.replay_run_id IS NULL AND m.{position} < %s
        ORDER BY m.{position}""",
        f"""SELECT {pgsql.select_list(block_fields, "b")} FROM {block} b
        JOIN {message} m ON m.id = b.message_id
        WHERE m.conversation_id = %s AND m.replay_run_id IS NULL AND m.{position} < %s
        ORDER BY b.{index}""",
        f"""SELECT {pgsql.select_list(tool_fields, "t")} FROM {tool} t
        WHERE t.conversation_id = %s ORDER BY t.{position}""",
        f"""SELECT {pgsql.select_list(warning_fields, "w")} FROM {warning} w
        WHERE w.conversation_id = %s AND w.replay_run_id IS NULL
        ORDER BY w.stage, w.{position}""",
    )
    return statements, message_fields, block_fields, tool_fields, warning_fields


def _rows_sql(conversation: models.Conversation, bound: int) -> Rows:
    """:func:`_stored_rows` as four prepared statements sent together, in one round trip."""
    statements, message_fields, block_fields, tool_fields, warning_fields = _rows_statements()
    key = conversation.pk
    parameters = ([key, bound], [key, bound], [key], [key])
    results = pgsql.fetch_many(list(zip(statements, parameters, strict=True)))

    def decoded(fields: Any, row: Any) -> list[Any]:
        return [pgsql.decode(field, value) for field, value in zip(fields, row, strict=True)]

    return (
        [decoded(message_fields, row) for row in results[0]],
        [decoded(block_fields, row) for row in results[1]],
        [dict(zip(_TOOL_COLUMNS, decoded(tool_fields, row), strict=True)) for row in results[2]],
        [pgsql.instance(models.DriftWarning, warning_fields, row) for row in results[3]],
    )


@pgsql.sql_twin(_rows_sql)
def _stored_rows(conversation: models.Conversation, bound: int) -> Rows:
    """The rows :func:`conversation_umf` reads, in four queries (on PostgreSQL four
    prepared statements sent together, :func:`_rows_sql`): its messages before position
    ``bound`` (id, then ``MESSAGE_COLUMNS``), their blocks, its tools and its warnings."""
    columns = [column for column, _ in MESSAGE_COLUMNS]
    messages = list(_imported(conversation).filter(position__lt=bound).values_list("id", *columns))
    blocks = list(
        models.ContentBlock.objects.filter(
            message__conversation=conversation,
            message__replay_run__isnull=True,
            message__position__lt=bound,
        )
        # Grouped by message by the caller: only the order within a message matters.
        .order_by("index")
        .values_list(*_BLOCK_COLUMNS)
    )
    # Explicit orders: the models' default ones start with the conversation, a foreign key,
    # which orders by the conversation's own ordering through a join.
    tools = list(
        models.ToolDefinition.objects.filter(conversation=conversation)
        .order_by("position")
        .values(*_TOOL_COLUMNS)
    )
    warnings = list(
        models.DriftWarning.objects.filter(
            conversation=conversation, replay_run__isnull=True
        ).order_by("stage", "position")
    )
    return messages, blocks, tools, warnings


def messages_umf(*, message_ids: list[Any]) -> list[Message]:
    """The UMF messages of these rows, in the order given (a page of them: the ids go in
    one ``IN``), in three queries: messages, blocks, and media bytes when there are any."""
    columns = [column for column, _ in MESSAGE_COLUMNS]
    rows = models.Message.objects.filter(id__in=message_ids).values_list("id", *columns)
    by_id = {row[0]: row for row in rows}
    blocks = list(
        models.ContentBlock.objects.filter(message_id__in=message_ids)
        .order_by("message_id", "index")
        .values_list(*_BLOCK_COLUMNS)
    )
    attachments = _attachment_bytes({row[4] for row in blocks if row[4]})
    ordered = [by_id[message_id] for message_id in message_ids if message_id in by_id]
    return _validated_messages(messages_data(ordered, blocks, attachments))


def conversation_messages(
    *, conversation: models.Conversation, chunk_size: int = 1_000
) -> Iterator[tuple[Any, Message]]:
    """Every message of the imported thread, in order, with its row id, read through two
    cursors (messages, and their blocks in the same order) ``chunk_size`` at a time:
    what writes a conversation of any length in the memory of a chunk."""
    columns = [column for column, _ in MESSAGE_COLUMNS]
    messages = _imported(conversation).values_list("id", *columns).iterator(chunk_size)
    blocks = (
        models.ContentBlock.objects.filter(
            message__conversation=conversation, message__replay_run__isnull=True
        )
        .order_by("message__position", "index")
        .values_list(*_BLOCK_COLUMNS)
        .iterator(chunk_size)
    )
    pending = next(blocks, None)
    while chunk := list(islice(messages, chunk_size)):
        chunk_blocks = []
        for row in chunk:  # a message's blocks all come before the next message's
            while pending is not None and pending[0] == row[0]:
                chunk_blocks.append(pending)
                pending = next(blocks, None)
        attachments = _attachment_bytes({row[4] for row in chunk_blocks if row[4]})
        read = _validated_messages(messages_data(chunk, chunk_blocks, attachments))
        yield from zip((row[0] for row in chunk), read, strict=True)


def _validated_messages(data: list[dict[str, Any]]) -> list[Message]:
    return Conversation.model_validate({"messages": data}).messages


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
        attachment_id=OuterRef("pk"),
        message__conversation__owner=owner,
        message__conversation__deleted_at__isnull=True,
    )
    return models.Attachment.objects.filter(Exists(referenced), sha256=sha256).first()
