"""Names and defaults of the ``anthropic`` format, in one place so tests and docs can cite them."""

from __future__ import annotations

import re
from typing import Final

from providers.umf import FinishReason, Role

FORMAT_ID: Final = "anthropic"

# Filled in (with a ``parameter-defaulted`` warning) when a conversation from another format
# lacks them: the Messages API rejects a request without ``model`` and ``max_tokens``.
DEFAULT_MODEL: Final = "claude-sonnet-4-5"
DEFAULT_MAX_TOKENS: Final = 4096


TOOL_ID_PATTERN: Final = re.compile(r"^[a-zA-Z0-9_-]+$")
IMAGE_MEDIA_TYPES: Final = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
PDF_MEDIA_TYPE: Final = "application/pdf"

ROLES: Final[dict[str, Role]] = {"user": "user", "assistant": "assistant", "system": "system"}

# stop_reason -> UMF finish reason (section 4 of the reference); pause_turn has no UMF
# name and lives only in ``provider_finish_reason``.
FINISH_REASONS: Final[dict[str, FinishReason | None]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "content_filter",
    "pause_turn": None,
}
STOP_REASONS: Final[dict[str, str]] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}

# Sampling fields that API version 2026-10-21 refuses: kept only when an Anthropic payload
# round-trips (reference section 2.3).
SAMPLING_PARAMETERS: Final = ("temperature", "top_p", "top_k")

# The extra key (on a message or a tool result) holding the content blocks UMF has no type
# for, verbatim with their positions: ``[{"at": index, "block": {...}}]``. A field, not a
# ``$`` hint, so that other formats list it among the fields they cannot carry.
UNMAPPED_BLOCKS: Final = "unmapped_blocks"

# Usage members in the API's order, each with the UMF count it carries (input_tokens leaves
# out the cache reads and writes).
USAGE_NAMES: Final = (
    ("input_tokens", "prompt_tokens"),
    ("output_tokens", "completion_tokens"),
    ("cache_creation_input_tokens", "cache_write_tokens"),
    ("cache_read_input_tokens", "cached_tokens"),
)
