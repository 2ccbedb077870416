"""Telling a ChatGPT export from other payloads."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.wiring import fits_every_entry
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for ChatGPT export conversations (a ``mapping`` of nodes with ``children``
    beside ``current_node`` or ``title``), else 0."""
    return fits_every_entry(payload, _is_conversation)


def _is_conversation(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("mapping"), dict):
        return False
    if not {"current_node", "title"} & entry.keys():
        return False
    nodes = list(entry["mapping"].values())[:20]
    return all(isinstance(node, dict) and "children" in node for node in nodes)
