"""Helpers the ``mistral`` conversion tests share: rendering a conversation with mistralai's
request types and rules asserted, tool call ids and calls as Mistral writes them, one user
message."""

from __future__ import annotations

import hashlib
from typing import Any

from providers import formats
from providers.formats.mistral import BRIDGE_TEXT
from providers.formats.mistral._rules import make_tool_call_id
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    Message,
    Parameters,
)
from tests.providers.formats.chat_completions import _helpers as family

MISTRAL = formats.get("mistral")
BRIDGE = {"role": "assistant", "content": BRIDGE_TEXT}
imported = family.imported


def assert_renders(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, assert that Mistral would take it, and give back payload and warnings."""
    return family.assert_renders("mistral", conversation)


def mistral_id(original: str) -> str:
    """The id a foreign call id becomes (documented: base 62 of its sha256, 9 characters)."""
    return make_tool_call_id(hashlib.sha256(original.encode()).hexdigest())


def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="mistral-medium-latest"),
        messages=[Message(role="user", content=list(blocks))],
    )
