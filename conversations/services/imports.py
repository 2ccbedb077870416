"""Importing conversations: parse a payload, check it, and store it in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from conversations import models
from conversations.records import (
    Row,
    Rows,
    block_row,
    content_hash,
    message_row,
    warning_row,
)
from conversations.services.bulk import bulk_insert
from providers import formats, umf
from providers.validation import check_conversation

TITLE_LENGTH = 80


@dataclass
class ImportedConversation:
    """One stored conversation and what importing it reported."""

    conversation: models.Conversation
    created: bool
    warnings: list[umf.DriftWarning]


def conversation_import(
    *, owner: User, format_id: str, payload: umf.JSON, title: str | None = None
) -> tuple[str, list[ImportedConversation]]:
    """Parse ``payload`` (format id or ``"auto"``) and store each conversation it holds.

    Returns the format that read it and one result per conversation. All of them are
    written in one transaction, or none (a :class:`providers.formats.FormatError` leaves
    nothing behind). A conversation this owner already has (same format, same content)
    is not stored again: its existing row comes back with ``created=False``.
    """
    parsed = formats.parse(format_id, payload)
    for item in parsed.items:
        check_conversation(item.conversation)
    results = []
    single = len(parsed.items) == 1
    with transaction.atomic():
        for item in parsed.items:
            results.append(
                conversation_save(
                    owner=owner,
                    conversation=item.conversation,
                    format_id=parsed.format.id,
                    provider=parsed.format.provider,
                    warnings=item.warnings,
                    title=title if single else None,
                    digest=content_hash(parsed.format.id, payload if single else _identity(item)),
                )
            )
    return parsed.format.id, results


def _identity(item: formats.ParseResult) -> umf.JSON:
    """What identifies one conversation of a file of many: its content. (A changed
    conversation with the same source key is a new version; merging versions into one
    tree belongs to the bulk importer.)"""
    return item.conversation.model_dump(mode="json")


def conversation_save(
    *,
    owner: User,
    conversation: umf.Conversation,
    format_id: str,
    provider: str | None,
    warnings: list[umf.DriftWarning],
    digest: str,
    title: str | None = None,
) -> ImportedConversation:
    """Store one UMF conversation with bulk inserts, unless the owner already has one
    with the same ``digest`` (see :func:`conversations.records.content_hash`)."""
    existing = models.Conversation.objects.filter(owner=owner, content_hash=digest).first()
    if existing is not None:
        return ImportedConversation(existing, False, warnings)
    rows = _rows(owner, conversation, format_id, provider, warnings, title, digest)
    try:
        with transaction.atomic():
            _insert(rows)
    except IntegrityError:
        # Someone imported the same conversation at the same moment: theirs stands.
        existing = models.Conversation.objects.filter(owner=owner, content_hash=digest).first()
        if existing is None:
            raise
        return ImportedConversation(existing, False, warnings)
    return ImportedConversation(rows.conversation, True, warnings)


def conversation_delete(*, conversation: models.Conversation) -> None:
    """Delete a conversation and everything under it (attachments stay: they are shared)."""
    conversation.delete()


def _title(conversation: umf.Conversation, title: str | None) -> str:
    if title:
        return title[:300]
    if conversation.metadata.title:
        return conversation.metadata.title[:300]
    for message in conversation.messages:
        if message.role == "user":
            text = " ".join(umf.extract_text(message).split())
            if text:
                return text if len(text) <= TITLE_LENGTH else text[: TITLE_LENGTH - 1] + "…"
    return "Untitled conversation"


def _model_of(conversation: umf.Conversation) -> str:
    if conversation.parameters.model:
        return conversation.parameters.model
    for message in reversed(conversation.messages):
        if message.model:
            return message.model
    return ""


def _rows(
    owner: User,
    conversation: umf.Conversation,
    format_id: str,
    provider: str | None,
    warnings: list[umf.DriftWarning],
    title: str | None,
    digest: str,
) -> Rows:
    metadata = conversation.metadata.model_dump(mode="json", exclude_defaults=True)
    metadata.pop("warnings", None)
    row = models.Conversation(
        owner=owner,
        title=_title(conversation, title),
        source_format=format_id,
        provider=provider or "",
        model=_model_of(conversation)[:200],
        content_hash=digest,
        tool_choice=(
            conversation.tool_choice.model_dump(mode="json", exclude_defaults=True)
            if conversation.tool_choice
            else None
        ),
        parameters=conversation.parameters.model_dump(mode="json", exclude_defaults=True),
        metadata=metadata,
        extra=conversation.extra,
        message_count=len(conversation.messages),
        warning_count=len(warnings) + len(conversation.metadata.warnings),
    )
    rows = Rows(conversation=row)
    _message_rows(conversation, rows)
    _tool_rows(conversation, rows)
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.RECORD, i)
        for i, w in enumerate(conversation.metadata.warnings)
    )
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.IMPORT, i) for i, w in enumerate(warnings)
    )
    return rows


def _message_rows(conversation: umf.Conversation, rows: Rows) -> None:
    by_source_id: dict[str, Row] = {}
    previous: Row | None = None
    calls: dict[str, Row] = {}
    for position, message in enumerate(conversation.messages):
        row = message_row(message, rows.conversation.pk, position)
        parent = by_source_id[message.parent_id] if message.parent_id is not None else previous
        row["parent_id"] = parent["id"] if parent is not None else None
        if message.id is not None:
            by_source_id.setdefault(message.id, row)
        rows.messages.append(row)
        for index, block in enumerate(message.content):
            block_record = block_row(block, rows, row["id"], index)
            _link_tool_call(block, block_record, row, rows, calls)
        previous = row


def _link_tool_call(
    block: umf.Block, block_record: Row, message: Row, rows: Rows, calls: dict[str, Row]
) -> None:
    """A tool_use becomes a ToolCall row; a tool_result fills in the call it answers."""
    if isinstance(block, umf.ToolUseBlock):
        call = {
            "conversation_id": rows.conversation.pk,
            "message_id": message["id"],
            "block_id": block_record["id"],
            "call_id": block.id,
            "name": block.name,
            "arguments": block.input,
            "result_block_id": None,
            "is_error": None,
        }
        calls[block.id] = call
        rows.tool_calls.append(call)
    elif isinstance(block, umf.ToolResultBlock) and block.tool_use_id in calls:
        answered = calls[block.tool_use_id]
        answered["result_block_id"] = block_record["id"]
        answered["is_error"] = block.is_error


def _tool_rows(conversation: umf.Conversation, rows: Rows) -> None:
    rows.tools.extend(
        models.ToolDefinition(
            conversation=rows.conversation,
            position=position,
            name=tool.name,
            description=tool.description,
            parameters=tool.parameters,
            extra=tool.extra,
        )
        for position, tool in enumerate(conversation.tools)
    )


def _insert(rows: Rows) -> None:
    rows.conversation.save(force_insert=True)
    if rows.attachments:
        models.Attachment.objects.bulk_create(
            rows.attachments.values(), ignore_conflicts=True, batch_size=500
        )
    bulk_insert(models.Message, rows.messages)
    bulk_insert(models.ContentBlock, rows.blocks)
    models.ToolDefinition.objects.bulk_create(rows.tools, batch_size=500)
    bulk_insert(models.ToolCall, rows.tool_calls)
    models.DriftWarning.objects.bulk_create(rows.warnings, batch_size=2000)
    models.Provenance.objects.create(
        conversation=rows.conversation,
        frontend=rows.conversation.source_format,
        backend=rows.conversation.provider,
        model=rows.conversation.model,
    )
