"""Helpers the ``cohere`` conversion tests share: rendering a conversation (validated against
the cohere SDK's types and rules), importing another format's fixture, one user message.
"""

from __future__ import annotations

from typing import Any

from providers import formats
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
from tests.providers.sdk.cohere import check_cohere_rules, validate_cohere_request

COHERE = formats.get("cohere")


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that Cohere would take it, and give back payload and warnings."""
    rendered = COHERE.render(conversation)
    validate_cohere_request(rendered.payload)
    check_cohere_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def imported(format_id: str, name: str) -> Conversation:
    """A fixture of another format as storage gives it back after importing it."""
    [item] = formats.get(format_id).parse(load(FIXTURES / format_id / f"{name}.json"))
    return stored(item.conversation)


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[Message(role="user", content=list(blocks))],
    )
