"""Writes. Every function is keyword-only, typed, and does its work in one transaction."""

from conversations.services.conversations import conversation_delete
from conversations.services.imports import (
    ImportedConversation,
    conversation_import,
    conversation_save,
)

__all__ = [
    "ImportedConversation",
    "conversation_delete",
    "conversation_import",
    "conversation_save",
]
