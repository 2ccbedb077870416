"""Names, defaults and tables of the ``openai-responses`` format, in one place for docs and
tests."""

from __future__ import annotations

from typing import Any, Final

from providers.formats._kit.extra import Namespace
from providers.umf import Extra

FORMAT_ID: Final = "openai-responses"
LABEL: Final = "OpenAI Responses"

# Filled in (``parameter-defaulted``) when a conversation from another format names no model.
DEFAULT_MODEL: Final = "gpt-5-mini"

# Items this format cannot name (hosted-tool calls, item references, unknown item types)
# and hosted tools are kept verbatim, with their position, in these extra fields:
# ``[{"at": index, "item": {...}}]`` / ``[{"at": index, "tool": {...}}]``. Fields, not ``$``
# hints, so that other formats list them among the fields they cannot carry.
UNMAPPED_ITEMS: Final = "unmapped_items"
UNMAPPED_TOOLS: Final = "unmapped_tools"
NS: Final = Namespace(FORMAT_ID, kept=(UNMAPPED_ITEMS, UNMAPPED_TOOLS))

MESSAGE_ROLES: Final = ("user", "system", "developer", "assistant")
PART_TYPES: Final = ("input_text", "output_text", "refusal", "input_image", "input_file")
IMAGE_DETAILS: Final = ("low", "high", "auto", "original")


def unmapped(extra: Extra, key: str = UNMAPPED_ITEMS) -> list[dict[str, Any]]:
    """The verbatim entries kept under ``key`` (see :data:`UNMAPPED_ITEMS`), well formed only."""
    entries = extra.get(FORMAT_ID, {}).get(key)
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("at"), int)]
