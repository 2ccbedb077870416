"""Importing conversations: parse a payload, check it, and store it in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from conversations import models
from conversations.records import Rows, add_messages, content_hash, warning_row
from conversations.services.merge import merge_new_messages
from conversations.services.storage import insert_rows
from providers import formats, umf
from providers.validation import check_conversation

TITLE_LENGTH = 80


@dataclass
class ImportedConversation:
    """One stored conversation and what importing it did: ``created`` (a new row),
    ``added_messages`` (messages added to an existing row by a newer version of it)."""

    conversation: models.Conversation
    created: bool
    warnings: list[umf.DriftWarning]
    added_messages: int = 0

    @property
    def status(self) -> str:
        if self.created:
            return "created"
        return "updated" if self.added_messages else "unchanged"


def conversation_import(
    *, owner: User, format_id: str, payload: umf.JSON, title: str | None = None
) -> tuple[str, list[ImportedConversation]]:
    """Parse ``payload`` (format id or ``"auto"``) and store each conversation it holds.

    Returns the format that read it and one result per conversation. All of them are
    written in one transaction, or none (a :class:`providers.formats.FormatError` leaves
    nothing behind). A conversation this owner already has (same format, same content)
    is not stored again: its existing row comes back with ``created=False``; a newer
    version of one (same source key) adds only its new messages.
    """
    parsed = formats.parse(format_id, payload)
    for item in parsed.items:
        check_conversation(item.conversation)
    single = len(parsed.items) == 1
    with transaction.atomic():
        return parsed.format.id, [
            conversation_save(
                owner=owner,
                item=item,
                fmt=parsed.format,
                title=title if single else None,
                digest=content_hash(parsed.format.id, payload if single else _identity(item)),
            )
            for item in parsed.items
        ]


def _identity(item: formats.ParseResult) -> umf.JSON:
    """What identifies one conversation of a file of many: its content."""
    return item.conversation.model_dump(mode="json")


def conversation_save(
    *,
    owner: User,
    item: formats.ParseResult,
    fmt: formats.Format,
    digest: str,
    title: str | None = None,
) -> ImportedConversation:
    """Store one parsed conversation with bulk inserts. Unless the owner has it already:
    the same content (``digest``) is a no-op; the same source key with new content adds
    the new messages to the stored conversation."""
    existing = _existing(owner, fmt.id, item.key, digest)
    if existing is not None:
        if existing.content_hash == digest:
            return ImportedConversation(existing, False, item.warnings)
        added = merge_new_messages(existing, item.conversation, digest)
        return ImportedConversation(existing, False, item.warnings, added)
    rows = conversation_rows(owner, item, fmt, digest, title)
    try:
        with transaction.atomic():
            insert_rows(rows, new_conversation=True)
    except IntegrityError:
        # Someone imported the same conversation at the same moment: theirs stands.
        existing = _existing(owner, fmt.id, item.key, digest)
        if existing is None:
            raise
        return ImportedConversation(existing, False, item.warnings)
    return ImportedConversation(rows.conversation, True, item.warnings)


def _existing(
    owner: User, format_id: str, key: str | None, digest: str
) -> models.Conversation | None:
    mine = models.Conversation.objects.filter(owner=owner)
    if key is not None:
        keyed = mine.filter(source_format=format_id, source_key=key).first()
        if keyed is not None:
            return keyed
    return mine.filter(content_hash=digest).first()


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


def conversation_rows(
    owner: User, item: formats.ParseResult, fmt: formats.Format, digest: str, title: str | None
) -> Rows:
    """Unsaved rows for a new conversation (see :func:`insert_rows`)."""
    conversation, warnings, format_id = item.conversation, item.warnings, fmt.id
    metadata = conversation.metadata.model_dump(mode="json", exclude_defaults=True)
    metadata.pop("warnings", None)
    row = models.Conversation(
        owner=owner,
        title=_title(conversation, title),
        source_format=format_id,
        source_key=item.key,
        provider=fmt.provider or "",
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
    add_messages(rows, conversation.messages)
    rows.provenance.append(
        models.Provenance(
            conversation=row, frontend=format_id, backend=row.provider, model=row.model
        )
    )
    _tool_rows(conversation, rows)
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.RECORD, i)
        for i, w in enumerate(conversation.metadata.warnings)
    )
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.IMPORT, i) for i, w in enumerate(warnings)
    )
    return rows


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
