"""The structural rules of Converse, applied to drafts converted from another format.

In order: tool ids fit ``[a-zA-Z0-9_.:-]{1,64}`` (unique per call); no blank text blocks, no
empty messages; one message per turn (same-role runs merged: "A conversation must alternate
between user and assistant roles"); the first turn is the user's; every ``toolUse`` is
answered by a ``toolResult`` at the start of the very next user turn, and every result
answers a call of the turn before it (the content-block family's rules,
:mod:`providers.formats._content_blocks.rules`, in Bedrock's words); then Bedrock's own: a
user turn with a document also holds text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from providers.formats._content_blocks.drafts import Draft, Part
from providers.formats._content_blocks.rules import apply_rules as apply_family_rules
from providers.formats._kit.context import RenderContext
from providers.formats.base import Drift
from providers.formats.bedrock_converse._constants import DOCUMENT_PROMPT_TEXT
from providers.formats.bedrock_converse._render_blocks import DIALECT


def apply_rules(
    drafts: Iterable[Draft], ctx: RenderContext, calls: list[Part]
) -> list[dict[str, Any]]:
    """The messages of a conversation Converse accepts, each draft taken as it is made;
    every change is a warning (Bedrock's own after the family's). ``calls`` gets the tool
    calls, which only assistant turns hold (a user turn's became text), as an assistant
    turn's documents went to a user turn."""
    documents = Drift(ctx.drift.source)

    def sent(draft: Draft) -> dict[str, Any]:
        if draft.role == "user":
            _document_needs_text(draft, documents)
        else:
            for part in draft.parts:  # a loop: a comprehension is a function made per turn
                if part.kind == "toolUse":
                    calls.append(part)
        return DIALECT.payload(draft)

    messages = apply_family_rules(drafts, ctx, DIALECT, sent)
    ctx.drift.warnings += documents.warnings
    return messages


def _document_needs_text(draft: Draft, drift: Drift) -> None:
    """Bedrock refuses a document block in a message without a text block."""
    for part in draft.parts:  # the common turn has no document: looked for without a list
        if part.kind == "document":
            break
    else:
        return
    if any(part.kind == "text" for part in draft.parts):
        return
    drift.add(
        "message-reordered",
        "Bedrock needs a text block beside a document; one was added",
        field=next(part.path for part in draft.parts if part.kind == "document"),
        transformed={"text": DOCUMENT_PROMPT_TEXT},
    )
    draft.parts.append(DIALECT.text_part(DOCUMENT_PROMPT_TEXT, draft.path))
