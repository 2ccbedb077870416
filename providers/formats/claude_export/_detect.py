"""Telling a Claude.ai export from other payloads."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.wiring import fits_every_entry
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for Claude.ai export conversations (``uuid`` and ``chat_messages`` of
    ``sender``/``uuid`` messages), else 0."""
    return fits_every_entry(payload, _is_conversation)


def _is_conversation(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("chat_messages"), list):
        return False
    return all(
        isinstance(message, dict) and {"uuid", "sender"} <= message.keys()
        for message in entry["chat_messages"][:20]
    )
