"""Helpers the ``cohere`` conversion tests share: rendering a conversation with the cohere
SDK's types and rules asserted, and one user message."""

from __future__ import annotations

from typing import Any

from providers import formats
from providers.umf import Block, Conversation, DriftWarning, Message, Parameters
from tests.providers.formats.chat_completions import _helpers as family

COHERE = formats.get("cohere")
imported = family.imported


def assert_renders(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, assert that Cohere would take it, and give back payload and warnings."""
    return family.assert_renders("cohere", conversation)


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[Message(role="user", content=list(blocks))],
    )
