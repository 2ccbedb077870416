"""Whether a payload is Appam's: 2 for Appam's own marks (a thinking block with its
``redacted`` flag, a ``base64_pdf`` / ``url_pdf`` document, a structured tool result,
``reasoning`` or ``reasoning_details`` on a message), 1 for lists of typed blocks that
fit, else 0."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.detect import score_content
from providers.formats._message_lists.shapes import score_payload
from providers.formats.appam._constants import BLOCK_TYPES, MESSAGE_KEYS, ROLES
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for Appam's marks, 1 for messages that fit, else 0."""
    return score_payload(payload, _score_message)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    content = message.get("content")
    if set(message) - MESSAGE_KEYS or not isinstance(content, list):
        return 0
    score = score_content(content, _score_block)
    marked = {"reasoning", "reasoning_details"} & message.keys()
    return 2 if score and marked else score


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
