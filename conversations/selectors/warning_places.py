"""Where the conversation page shows each drift warning: on the message its field names,
when that message is on the path (best effort: fields count in the source document)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conversations import models
from providers import formats

# Formats whose system prompt sits outside the message list: their ``messages[N]`` counts
# from the first non-system message of the stored thread.
_SYSTEM_APART = {"anthropic", "gemini", "bedrock-converse"}
_MESSAGE_INDEX = re.compile(
    r"^(?:\w+\.)?(?:messages|contents|conversations|chat_messages|request|input)?\[(\d+)\]"
)
# In a file of many conversations (an export), a field starts with the entry's place.
_ENTRY = re.compile(r"^\[\d+\]\.")
# ChatGPT exports name a message by its node in the mapping.
_NODE = re.compile(r"^mapping\.([^.\[]+)")


def warning_message_index(field: str | None, source_format: str, leading_system: int) -> int | None:
    """Best effort: which message of the imported thread a warning's ``field`` names
    (``messages[3].content[1]`` -> 3), or None when it names none. Import warnings
    count in the source document, which for some formats keeps the system prompt apart;
    a warning about a response (``candidates[0]``, ``response``) is about the last one."""
    if not field:
        return None
    if _holds_many(source_format):
        field = _ENTRY.sub("", field)
    if field.startswith(("response", "candidates", "output", "choices")):
        return -1
    found = _MESSAGE_INDEX.match(field)
    if found is None:
        return None
    index = int(found.group(1))
    return index + leading_system if source_format in _SYSTEM_APART else index


def _holds_many(source_format: str) -> bool:
    try:
        return formats.get(source_format).capabilities.multi_conversation
    except formats.FormatError:
        return False


def place_warnings(
    warnings: list[models.DriftWarning],
    shown: dict[Any, dict[str, Any]],
    imported: Callable[[], list[dict[str, Any]]],
    source_format: str,
) -> None:
    """Put each warning on the message it concerns when that message is ``shown`` (rows
    by id), and name that message in ``anchor`` wherever it is. ``imported`` reads the
    imported thread's rows (id, role, source id) in order, only when a warning names its
    message by its place in the source rather than by its id."""
    rows: list[dict[str, Any]] | None = None
    for warning in warnings:
        target = warning.message_id
        if target is None:
            rows = imported() if rows is None else rows
            target = _target_in_source(warning, rows, source_format)
        warning.anchor = target  # type: ignore[attr-defined]
        if target in shown:
            shown[target]["warnings"].append(warning)


def _target_in_source(
    warning: models.DriftWarning, imported: list[dict[str, Any]], source_format: str
) -> Any:
    """The id of the imported message a warning's field names (a ChatGPT node, or a
    place in the source's message list), or None."""
    node = _NODE.match(_ENTRY.sub("", warning.field or ""))
    if node is not None:
        for row in imported:
            if row["source_id"] == node.group(1):
                return row["id"]
    if warning.stage == models.DriftWarning.Stage.REPLAY:
        return None
    leading_system = 0
    while leading_system < len(imported) and imported[leading_system]["role"] == "system":
        leading_system += 1
    index = warning_message_index(warning.field, source_format, leading_system)
    if index is not None and -len(imported) <= index < len(imported):
        return imported[index]["id"]
    return None
