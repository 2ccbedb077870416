"""Importing conversations: parse a payload, check it, and store it in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from conversations import models
from conversations.records import Rows, content_hash, conversation_rows
from conversations.selectors.identities import StoredIdentities, conversation_identities
from conversations.services.merge import merge_new_messages
from conversations.services.storage import insert_many, insert_rows
from conversations.services.trash import conversations_out_of_trash
from providers import formats, umf
from providers.validation import check_conversation


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


def conversation_caps() -> dict[str, int]:
    """What one stored conversation may hold (settings ``UMF_MAX_MESSAGES``/``_BLOCKS``),
    as :func:`providers.validation.check_conversation` takes it."""
    return {"max_messages": settings.UMF_MAX_MESSAGES, "max_blocks": settings.UMF_MAX_BLOCKS}


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
        check_conversation(item.conversation, validated=item.validated, **conversation_caps())
    single = len(parsed.items) == 1
    digests = _digests(parsed, payload)
    with transaction.atomic():
        return parsed.format.id, [
            conversation_save(
                owner=owner,
                item=item,
                fmt=parsed.format,
                title=title if single else None,
                digest=digest,
            )
            for item, digest in zip(parsed.items, digests, strict=True)
        ]


def _digests(parsed: formats.Parsed, payload: umf.JSON) -> list[str]:
    """What identifies each conversation: the document, for a payload of one; the entry,
    for a list of entries of a format of many (as a bulk import of the same entries hashes
    them); else the conversation as read."""
    fmt, items = parsed.format, parsed.items
    if len(items) == 1:
        return [content_hash(fmt.id, payload)]
    if fmt.iter_entries is not None and isinstance(payload, list) and len(payload) == len(items):
        return [content_hash(fmt.id, entry) for entry in payload]
    return [content_hash(fmt.id, item.conversation.model_dump(mode="json")) for item in items]


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
        conversations_out_of_trash(conversations=[existing])
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


@dataclass
class _Batch:
    """What one batch of a bulk import knows: the stored conversations its items may be
    (``known``), and the new ones waiting to be inserted together."""

    owner: User
    format_id: str
    known: StoredIdentities = field(default_factory=StoredIdentities)
    pending: list[tuple[int, formats.ParseResult, str, Rows]] = field(default_factory=list)

    def hold(self, index: int, item: formats.ParseResult, rows: Rows) -> None:
        conversation = rows.conversation
        self.pending.append((index, item, conversation.content_hash, rows))
        if conversation.source_key is not None:
            self.known.by_key.setdefault(conversation.source_key, conversation)
        self.known.by_digest.setdefault(conversation.content_hash, conversation)

    def is_pending(self, conversation: models.Conversation) -> bool:
        return any(rows.conversation is conversation for *_, rows in self.pending)


def conversation_save_many(
    *,
    owner: User,
    fmt: formats.Format,
    items: Sequence[tuple[formats.ParseResult, str]],
) -> list[ImportedConversation | formats.FormatError]:
    """:func:`conversation_save` for many parsed conversations (with their digests) at
    once, as a bulk import stores a batch: one query finds the ones already stored, and
    the new ones are inserted together (one COPY per table). Each result is what
    :func:`conversation_save` would give, or the :class:`FormatError` of an item that
    could not be stored; the others are stored all the same.

    Call inside a transaction. Should the inserts collide with a concurrent import of the
    same conversations, each of them is saved on its own instead.
    """
    keys = [item.key for item, _ in items if item.key is not None]
    known = conversation_identities(
        owner=owner, format_id=fmt.id, keys=keys, digests=[digest for _, digest in items]
    )
    batch = _Batch(owner, fmt.id, known)
    results: list[ImportedConversation | formats.FormatError | None] = [None] * len(items)
    for index, (item, digest) in enumerate(items):
        found = batch.known.find(item.key, digest)
        if found is not None and batch.is_pending(found) and found.content_hash != digest:
            # A newer version of a conversation this batch adds: store that one first.
            _flush(batch, results)
        if found is None:
            batch.hold(index, item, conversation_rows(owner, item, fmt, digest, None))
            continue
        conversations_out_of_trash(conversations=[found])
        if found.content_hash == digest:
            results[index] = ImportedConversation(found, False, item.warnings)
            continue
        try:
            with transaction.atomic():
                added = merge_new_messages(found, item.conversation, digest)
        except formats.FormatError as error:
            results[index] = error
            continue
        batch.known.by_digest[digest] = found
        results[index] = ImportedConversation(found, False, item.warnings, added)
    _flush(batch, results)
    return [result for result in results if result is not None]


def _flush(batch: _Batch, results: list[ImportedConversation | formats.FormatError | None]) -> None:
    """Insert the batch's new conversations together (each alone if that collides)."""
    pending, batch.pending = batch.pending, []
    if not pending:
        return
    try:
        with transaction.atomic():
            insert_many([rows for *_, rows in pending])
    except IntegrityError:
        _save_each(batch, pending, results)
        return
    for index, item, _, rows in pending:
        results[index] = ImportedConversation(rows.conversation, True, item.warnings)


def _save_each(
    batch: _Batch,
    pending: list[tuple[int, formats.ParseResult, str, Rows]],
    results: list[ImportedConversation | formats.FormatError | None],
) -> None:
    """Save held conversations one at a time (someone else stored some of them first),
    and point the results that named a held row at the row that now stands for it."""
    fmt = formats.get(batch.format_id)
    stands: dict[int, models.Conversation] = {}
    for index, item, digest, rows in pending:
        try:
            with transaction.atomic():
                saved = conversation_save(owner=batch.owner, item=item, fmt=fmt, digest=digest)
        except formats.FormatError as error:
            results[index] = error
            continue
        results[index] = saved
        stands[id(rows.conversation)] = saved.conversation
        batch.known.by_digest[digest] = saved.conversation
        if item.key is not None:
            batch.known.by_key[item.key] = saved.conversation
    for result in results:
        if isinstance(result, ImportedConversation) and id(result.conversation) in stands:
            result.conversation = stands[id(result.conversation)]
