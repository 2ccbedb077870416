"""Telling ShareGPT entries from other payloads."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.wiring import fits_every_entry
from providers.umf import JSON

from ._constants import ROLE_OF


def detect(payload: JSON) -> int:
    """2 when the payload is ShareGPT entries (``conversations`` of ``from``/``value``
    turns with known roles), else 0."""
    return fits_every_entry(payload, _is_entry)


def _is_entry(entry: Any) -> bool:
    turns = entry.get("conversations") if isinstance(entry, dict) else None
    return isinstance(turns, list) and all(
        isinstance(turn, dict)
        and turn.get("from") in ROLE_OF
        and isinstance(turn.get("value"), str)
        for turn in turns[:50]
    )
