"""Names, defaults and tables of the ``cohere`` format, in one place for docs and tests."""

from __future__ import annotations

from typing import Final

from providers.formats._chat_completions.parameters import ParameterSpec
from providers.formats._kit.extra import Namespace
from providers.umf import FinishReason

FORMAT_ID: Final = "cohere"
LABEL: Final = "Cohere"
NS: Final = Namespace(FORMAT_ID)

# Filled in (``parameter-defaulted``) when a conversation from another format names no model.
DEFAULT_MODEL: Final = "command-a-03-2025"

ROLES: Final = ("system", "user", "assistant", "tool")
# The content part types each role takes (the SDK's ChatMessageV2 content unions, plus
# ``document`` parts in user messages, which the API documents).
PART_TYPES: Final[dict[str, tuple[str, ...]]] = {
    "system": ("text",),
    "user": ("text", "image_url", "document"),
    "assistant": ("text", "thinking"),
    "tool": ("text", "document"),
}
IMAGE_DETAILS: Final = ("auto", "low", "high")
# The media type of a document whose ``data`` was an object (kept as JSON text).
JSON_TEXT: Final = "application/json"

# The documented request parameters UMF has names for, with the API's ranges.
PARAMETERS: Final = (
    ParameterSpec("model", "model", "str"),
    ParameterSpec("temperature", "temperature", "float", low=0.0),
    ParameterSpec("max_tokens", "max_tokens", "int"),
    ParameterSpec("p", "top_p", "float", low=0.01, high=0.99),
    ParameterSpec("k", "top_k", "int", low=0, high=500),
    ParameterSpec("stop_sequences", "stop", "strings", limit=5),
    ParameterSpec("seed", "seed", "int"),
    ParameterSpec("frequency_penalty", "frequency_penalty", "float", low=0.0, high=1.0),
    ParameterSpec("presence_penalty", "presence_penalty", "float", low=0.0, high=1.0),
    ParameterSpec("stream", "stream", "bool"),
)

# finish_reason -> UMF (reference section 4); the raw value stays in provider_finish_reason.
FINISH_REASONS: Final[dict[str, FinishReason]] = {
    "COMPLETE": "stop",
    "STOP_SEQUENCE": "stop",
    "MAX_TOKENS": "length",
    "TOOL_CALL": "tool_calls",
    "ERROR": "error",
    "TIMEOUT": "error",
}
WIRE_FINISH_REASONS: Final[dict[str, str]] = {
    "stop": "COMPLETE",
    "length": "MAX_TOKENS",
    "tool_calls": "TOOL_CALL",
    "error": "ERROR",
}
