"""Which stored conversations an import is about to read again: found by their source key
(the export's own id) or by the hash of their source document, before anything is parsed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from conversations import models

# What an import needs of a stored conversation (the rest loads if a merge needs it).
_IDENTITY_FIELDS = (
    "id",
    "owner",
    "source_format",
    "source_key",
    "content_hash",
    "title",
    "warning_count",
    "deleted_at",  # an import takes a conversation it finds in the trash out of it
)


@dataclass
class StoredIdentities:
    """Stored conversations of one owner and format, by source key and by content hash."""

    by_key: dict[str, models.Conversation] = field(default_factory=dict)
    by_digest: dict[str, models.Conversation] = field(default_factory=dict)

    def find(self, key: str | None, digest: str) -> models.Conversation | None:
        """The conversation an entry is: the one with its source key, else its content."""
        if key is not None and key in self.by_key:
            return self.by_key[key]
        return self.by_digest.get(digest)


def conversation_identities(
    *, owner: User, format_id: str, keys: Sequence[str], digests: Sequence[str]
) -> StoredIdentities:
    """The owner's conversations that have one of these source keys (in ``format_id``) or
    content hashes: two queries, each on its unique index (one with OR between them makes
    PostgreSQL read the whole table)."""
    found = StoredIdentities()
    mine = models.Conversation.objects.filter(owner=owner).order_by()
    mine = mine.only(*_IDENTITY_FIELDS)
    if keys:
        for stored in mine.filter(source_format=format_id, source_key__in=keys):
            found.by_key[str(stored.source_key)] = stored
            found.by_digest[stored.content_hash] = stored
    for stored in mine.filter(content_hash__in=digests):
        stored = found.by_digest.setdefault(stored.content_hash, stored)
        if stored.source_format == format_id and stored.source_key is not None:
            found.by_key.setdefault(stored.source_key, stored)
    return found


def conversations_unchanged(
    *, owner: User, format_id: str, identities: Sequence[tuple[str | None, str]]
) -> list[models.Conversation | None]:
    """For each (source key, content hash) of entries not read yet, the stored
    conversation it is, unchanged, if the owner has it (saving it again would do
    nothing), else None."""
    keys = [key for key, _ in identities if key is not None]
    known = conversation_identities(
        owner=owner, format_id=format_id, keys=keys, digests=[digest for _, digest in identities]
    )
    found = [known.find(key, digest) for key, digest in identities]
    return [
        stored if stored is not None and stored.content_hash == digest else None
        for stored, (_, digest) in zip(found, identities, strict=True)
    ]
