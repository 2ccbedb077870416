"""Helpers the ``mistral`` conversion tests share: rendering a conversation (validated against
mistralai's request types and rules), importing another format's fixture, tool call ids and
calls as Mistral writes them, one user message.
"""

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
from tests.providers.formats.test_cohere_mistral import (
    FIXTURES,
    assert_nothing_silently_dropped,
    load,
    stored,
)
from tests.providers.sdk.mistral import check_mistral_rules, validate_mistral_request

MISTRAL = formats.get("mistral")
BRIDGE = {"role": "assistant", "content": BRIDGE_TEXT}


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that Mistral would take it, and give back payload and warnings."""
    rendered = MISTRAL.render(conversation)
    validate_mistral_request(rendered.payload)
    check_mistral_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def imported(format_id: str, name: str) -> Conversation:
    """A fixture of another format as storage gives it back after importing it."""
    [item] = formats.get(format_id).parse(load(FIXTURES / format_id / f"{name}.json"))
    return stored(item.conversation)


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
