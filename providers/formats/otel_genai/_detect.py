"""Telling GenAI span attributes (and GenAI message lists) from other payloads."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.wiring import fits_every_entry
from providers.umf import JSON

from ._constants import PART_TYPES
from ._parse import is_gen_ai


def detect(payload: JSON) -> int:
    """2 for GenAI attributes, spans holding them, lists of them, and message lists whose
    parts are all typed GenAI parts; else 0."""
    if is_message_list(payload):
        assert isinstance(payload, list)
        return 2 if all(_is_otel_message(message) for message in payload) else 0
    return fits_every_entry(payload, _is_span)


def is_message_list(payload: JSON) -> bool:
    """Whether a payload is a bare list of messages (``{role, parts}``), one conversation."""
    return bool(
        isinstance(payload, list)
        and payload
        and isinstance(payload[0], dict)
        and "parts" in payload[0]
        and "role" in payload[0]
    )


def _is_span(item: Any) -> bool:
    attributes = item.get("attributes") if isinstance(item, dict) else None
    return is_gen_ai(item) or is_gen_ai(attributes)


def _is_otel_message(message: JSON) -> bool:
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        return False
    parts = message.get("parts")
    return isinstance(parts, list) and all(
        isinstance(part, dict) and part.get("type") in PART_TYPES for part in parts
    )
