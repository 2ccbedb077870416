"""Hidden context stays out of formats that cannot mark it hidden.

A source may keep context out of the person's sight (ChatGPT's profile, custom
instructions and saved memories: :attr:`providers.umf.Message.hidden`). A format that can
say so (``Capabilities.hidden_context``) writes it back as hidden; every other format is
rendered without it, so that an export or a replay never sends the person's profile to
another provider, and one info note names what was left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from providers.formats.base import Drift, Format, Rendered
from providers.umf import Conversation, DriftWarning, without_hidden


def visible_only(fmt: Format) -> Format:
    """``fmt`` rendering conversations without their hidden messages (with a note), unless
    it can hold hidden context."""
    if fmt.capabilities.hidden_context:
        return fmt
    render_one, render_many = fmt.render, fmt.render_many

    def render(conversation: Conversation) -> Rendered:
        return _rendered(fmt, [conversation], lambda visible: render_one(visible[0]))

    def render_all(conversations: Sequence[Conversation]) -> Rendered:
        assert render_many is not None
        return _rendered(fmt, conversations, render_many)

    return replace(fmt, render=render, render_many=render_all if render_many else None)


def _rendered(
    fmt: Format,
    conversations: Sequence[Conversation],
    render: Callable[[Sequence[Conversation]], Rendered],
) -> Rendered:
    drift = Drift(fmt.id)
    visible = []
    for conversation in conversations:
        kept, hidden = without_hidden(conversation)
        visible.append(kept)
        for index, message in enumerate(conversation.messages if hidden else ()):
            if message.hidden:
                drift.add(
                    "content-dropped",
                    "hidden context (the person's profile, instructions or memories) is left "
                    f"out: {fmt.label} cannot mark it hidden",
                    field=f"messages[{index}]",
                    severity="info",
                )
    result = render(visible)
    warnings = result.warnings
    if len(conversations) == 1 and len(visible[0].messages) < len(conversations[0].messages):
        warnings = _stored_positions(conversations[0], warnings)
    return Rendered(result.payload, drift.warnings + warnings)


_MESSAGE_FIELD = re.compile(r"^messages\[(\d+)\]")


def _stored_positions(
    conversation: Conversation, warnings: list[DriftWarning]
) -> list[DriftWarning]:
    """``warnings`` naming messages by their place in ``conversation`` rather than in the
    conversation without its hidden messages that was rendered."""
    places = [index for index, message in enumerate(conversation.messages) if not message.hidden]

    def place(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return f"messages[{places[index] if index < len(places) else index}]"

    return [
        warning.model_copy(update={"field": _MESSAGE_FIELD.sub(place, warning.field)})
        if warning.field and _MESSAGE_FIELD.match(warning.field)
        else warning
        for warning in warnings
    ]
