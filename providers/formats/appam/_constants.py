"""Names of the ``appam`` format (its serde tags and enums), in one place so tests and docs
can cite them."""

from __future__ import annotations

from typing import Final, Literal

from providers.formats._kit.extra import Namespace
from providers.formats._message_lists.shapes import ListDialect
from providers.umf import FinishReason

FORMAT_ID: Final = "appam"
NS: Final = Namespace(FORMAT_ID)
LABEL: Final = "Appam"
ROLES: Final = ("system", "user", "assistant")
MESSAGE_KEYS: Final = frozenset(
    {"role", "content", "id", "timestamp", "reasoning", "reasoning_details"}
)
BLOCK_TYPES: Final = ("text", "image", "document", "tool_use", "tool_result", "thinking")

SourceKind = Literal["base64", "url", "text", "file"]
# Appam source tag -> (UMF source type, the source's fields).
IMAGE_SOURCES: Final[dict[str, tuple[SourceKind, tuple[str, ...]]]] = {
    "base64": ("base64", ("media_type", "data")),
    "url": ("url", ("url",)),
}
DOCUMENT_SOURCES: Final[dict[str, tuple[SourceKind, tuple[str, ...]]]] = {
    "base64_pdf": ("base64", ("media_type", "data")),
    "url_pdf": ("url", ("url",)),
    "text": ("text", ("media_type", "data")),
}
# UMF source type -> Appam's document source tag, and the media types filled in.
DOCUMENT_TAGS: Final = {"base64": "base64_pdf", "url": "url_pdf", "text": "text"}
DEFAULT_MEDIA_TYPES: Final = {"base64_pdf": "application/pdf", "text": "text/plain"}
DEFAULT_IMAGE_MEDIA_TYPE: Final = "image/png"

# Appam's StopReason (snake_case) -> UMF finish reason.
STOP_REASONS: Final[dict[str, FinishReason]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}
USAGE_COUNTS: Final = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "reasoning_tokens",
)

DIALECT: Final = ListDialect(
    NS,
    LABEL,
    "not an Appam payload: expected an array of UnifiedMessage, one UnifiedMessage, "
    "or a request and a response",
    not_an_answer="a response message has role assistant",
)
