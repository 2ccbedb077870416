"""``appam``: Appam's ``UnifiedMessage`` (seed 003), as serde writes it.

A message is ``{"role": "system" | "user" | "assistant", "content": [blocks], "id"?,
"timestamp"? (RFC 3339), "reasoning"?, "reasoning_details"?}``; blocks are tagged by
``type`` in snake_case (``text``, ``image``, ``document``, ``tool_use``, ``tool_result``,
``thinking``). It maps onto UMF nearly one to one: UMF's ``reasoning`` and
``reasoning_details`` exist for it. Payload shapes are described in ``_parse``.

Thinking signatures: Appam does not say which provider signed them, so a thinking block
read here names ``appam`` as its provider: its signature goes back into Appam documents
and nowhere else.

What does not travel into Appam, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
tool messages                                   a user message of ToolResult blocks (Appam's
                                                own rule; no warning), or a user message
                                                with ``content-type-unsupported`` when it
                                                answers no call
refusals                                        text, ``content-type-unsupported``
audio, images/documents by file id              ``content-dropped``
citations; a message ``name``; a document's     ``content-dropped`` (the last two as info)
file name beside its title
a missing media type                            a default, ``parameter-defaulted`` (info)
tool arguments that were not valid JSON         ``content-dropped`` (the raw string)
thinking signed by another provider             text kept, ``signature-stripped``
reasoning with no text (redacted, encrypted)    ``reasoning-dropped``
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message models, finish reasons, usage and       ``content-dropped`` (info), one for all
metadata (an exchange keeps its answer's)       messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from providers.formats import register
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._blocks import BLOCK_TYPES
from ._parse import parse_payload
from ._render import render_conversation
from ._shared import FORMAT_ID, ROLES

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]

_MESSAGE_KEYS = {"role", "content", "id", "timestamp", "reasoning", "reasoning_details"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an array of UnifiedMessage, one UnifiedMessage or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    try:
        conversation, shape = parse_payload(payload)
    except ValidationError as error:  # a value the readers let through that UMF refuses
        first = error.errors()[0]
        raise FormatError(first["msg"], field=".".join(str(p) for p in first["loc"])) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation)]


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as Appam JSON (see the module docstring)."""
    return render_conversation(conversation)


def detect(payload: JSON) -> int:
    """2 for Appam's own marks (a thinking block with its ``redacted`` flag, a
    ``base64_pdf`` / ``url_pdf`` document, a structured tool result, ``reasoning`` or
    ``reasoning_details`` on a message), 1 for lists of typed blocks that fit, else 0."""
    if isinstance(payload, list):
        return _score_messages(payload)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload or "response" in payload:
        request, response = payload.get("request"), payload.get("response")
        scores = (_score_messages(request), _score_message(response))
        return 0 if min(scores) == 0 else max(scores)
    return _score_message(payload)


def _score_messages(messages: JSON) -> int:
    if not isinstance(messages, list) or not messages:
        return 0
    scores = [_score_message(message) for message in messages]
    return 0 if min(scores) == 0 else max(scores)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    content = message.get("content")
    if set(message) - _MESSAGE_KEYS or not isinstance(content, list):
        return 0
    scores = [_score_block(block) for block in content]
    if scores and min(scores) == 0:
        return 0
    marked = {"reasoning", "reasoning_details"} & message.keys()
    return 2 if marked or 2 in scores else 1


def _score_block(block: JSON) -> int:
    if not isinstance(block, dict) or block.get("type") not in BLOCK_TYPES:
        return 0
    kind = block["type"]
    if kind == "thinking":
        if not isinstance(block.get("thinking"), str):
            return 0
        return 2 if "redacted" in block else 1
    if kind == "document":
        source: Any = block.get("source")
        pdf = isinstance(source, dict) and source.get("type") in ("base64_pdf", "url_pdf")
        return 2 if pdf else 1
    if kind == "tool_result":
        return 1 if isinstance(block.get("content"), str | list) else 2
    return 1


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="Appam UnifiedMessage",
        capabilities=Capabilities(
            roles=frozenset(ROLES),
            blocks=frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"}),
            tools=False,
            tool_choice=False,
            parameters=frozenset(),
            reasoning_signatures=True,
            usage=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
    )
)
