"""Names, tables and defaults of the ``bedrock-converse`` format, in one place so that tests
and docs can cite them."""

from __future__ import annotations

import re
from typing import Final

from providers.umf import FinishReason

FORMAT_ID: Final = "bedrock-converse"

# Filled in (with a ``parameter-defaulted`` warning) when a conversation from another format
# has no model: boto3 and the HTTP path both need a model id.
DEFAULT_MODEL: Final = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"

# The content sent for a tool result that has none: Bedrock refuses blank text blocks.
EMPTY_RESULT_TEXT: Final = "(no output)"
# The text added beside a document when a user turn holds no text: Bedrock refuses a
# document block without a text block in the same message.
DOCUMENT_PROMPT_TEXT: Final = "(see the attached document)"

TOOL_ID_PATTERN: Final = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")
TOOL_NAME_PATTERN: Final = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# What a tool name may not hold (each such character becomes ``_``).
TOOL_NAME_REFUSED: Final = re.compile(r"[^a-zA-Z0-9_-]")
# Document names: alphanumerics, single spaces, hyphens, parentheses, square brackets.
DOCUMENT_NAME_PATTERN: Final = re.compile(r"[a-zA-Z0-9\-()\[\]]+( [a-zA-Z0-9\-()\[\]]+)*")
DOCUMENT_NAME_MAX: Final = 200

# The members a message content block may name (the ``ContentBlock`` union of botocore's
# service model); UMF reads some of them, the rest are kept verbatim in place.
CONTENT_MEMBERS: Final = frozenset(
    {
        "text",
        "image",
        "document",
        "video",
        "audio",
        "toolUse",
        "toolResult",
        "guardContent",
        "cachePoint",
        "reasoningContent",
        "citationsContent",
        "searchResult",
        "toolAddition",
        "toolRemoval",
    }
)
SYSTEM_MEMBERS: Final = frozenset({"text", "guardContent", "cachePoint"})
RESULT_MEMBERS: Final = frozenset({"json", "text", "image", "document", "video", "searchResult"})

# ``image.format`` <-> media type; read generically as ``image/<format>`` so that every
# format string comes back, and these are the ones the API accepts.
IMAGE_FORMATS: Final = frozenset({"png", "jpeg", "gif", "webp"})
IMAGE_ALIASES: Final = {"image/jpg": "jpeg", "image/pjpeg": "jpeg"}
AUDIO_FORMATS: Final = frozenset(
    {"mp3", "opus", "wav", "aac", "flac", "mp4", "ogg", "mkv", "mka", "x-aac", "m4a"}
    | {"mpeg", "mpga", "pcm", "webm"}
)
AUDIO_ALIASES: Final = {"audio/x-wav": "wav", "audio/wave": "wav", "audio/x-m4a": "m4a"}
# ``document.format`` <-> media type (a one-to-one table, so a round trip is exact).
DOCUMENT_MEDIA_TYPES: Final = {
    "pdf": "application/pdf",
    "csv": "text/csv",
    "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "html": "text/html",
    "txt": "text/plain",
    "md": "text/markdown",
}
DOCUMENT_FORMATS: Final = {media: name for name, media in DOCUMENT_MEDIA_TYPES.items()}

# stopReason -> UMF finish reason (section 4 of the reference).
FINISH_REASONS: Final[dict[str, FinishReason]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
STOP_REASONS: Final[dict[str, str]] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filtered",
    "error": "malformed_model_output",
}

# The request members UMF names; every other top-level member is kept verbatim.
REQUEST_MEMBERS: Final = frozenset(
    {"modelId", "messages", "system", "inferenceConfig", "toolConfig"}
)
# The other members of botocore's ``ConverseRequest``: only Bedrock requests have them.
OTHER_REQUEST_MEMBERS: Final = frozenset(
    {
        "guardrailConfig",
        "additionalModelRequestFields",
        "promptVariables",
        "additionalModelResponseFieldPaths",
        "requestMetadata",
        "performanceConfig",
        "serviceTier",
        "outputConfig",
    }
)

# Usage members in the API's order, each with the UMF count it carries (inputTokens leaves
# out the cache reads and writes).
USAGE_NAMES: Final = (
    ("inputTokens", "prompt_tokens"),
    ("outputTokens", "completion_tokens"),
    ("totalTokens", "total_tokens"),
    ("cacheReadInputTokens", "cached_tokens"),
    ("cacheWriteInputTokens", "cache_write_tokens"),
)
