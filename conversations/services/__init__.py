"""Writes. Every function is keyword-only, typed, and does its work in one transaction."""

from conversations.services.imports import (
    ImportedConversation,
    conversation_import,
    conversation_save,
)
from conversations.services.trash import (
    conversations_restore,
    conversations_trash,
    trash_empty,
    trash_purge_expired,
)

__all__ = [
    "ImportedConversation",
    "conversation_import",
    "conversation_save",
    "conversations_restore",
    "conversations_trash",
    "trash_empty",
    "trash_purge_expired",
]
