"""Names of the ``matey-ir`` format (seed 001's keys, enums and ranges), in one place so
tests and docs can cite them."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace
from providers.umf import WARNING_CATEGORIES, FinishReason

FORMAT_ID: Final = "matey-ir"
NS: Final = Namespace(FORMAT_ID)
LABEL: Final = "ai.matey IR"
ROLES: Final = ("system", "user", "assistant", "tool")
BLOCK_TYPES: Final = ("text", "image", "tool_use", "tool_result")

REQUEST_KEYS: Final = (
    *("messages", "tools", "toolChoice", "parameters", "metadata", "stream", "streamMode"),
)
RESPONSE_KEYS: Final = ("message", "finishReason", "usage", "metadata")
MESSAGE_KEYS: Final = frozenset({"role", "content", "name", "metadata"})
# The payload shapes (the conversation hint ``$shape``), and those that end with an answer.
SHAPES: Final = ("request", "messages", "response", "stream", "exchange")
ANSWER_SHAPES: Final = ("response", "stream", "exchange")
CHUNK_TYPES: Final = ("start", "content", "tool_use", "metadata", "done", "error")
STREAM_MODES: Final = ("delta", "accumulated")
TOOL_CHOICES: Final = ("auto", "required", "none")

FINISH_REASONS: Final[tuple[FinishReason, ...]] = (
    "stop",
    "length",
    "tool_calls",
    "content_filter",
    "error",
    "cancelled",
)
IR_WARNING_CATEGORIES: Final = WARNING_CATEGORIES[:10]  # the ai.matey ones come first in UMF's
SEVERITIES: Final = ("info", "warning", "error")
USAGE_KEYS: Final = {
    "promptTokens": "prompt_tokens",
    "completionTokens": "completion_tokens",
    "totalTokens": "total_tokens",
}

# IR parameter -> UMF parameter.
FLOAT_PARAMETERS: Final = {
    "temperature": "temperature",
    "topP": "top_p",
    "frequencyPenalty": "frequency_penalty",
    "presencePenalty": "presence_penalty",
}
INT_PARAMETERS: Final = {"maxTokens": "max_tokens", "topK": "top_k", "seed": "seed"}
TEXT_PARAMETERS: Final = {"model": "model", "user": "user"}
PARAMETER_KEYS: Final = {
    **FLOAT_PARAMETERS,
    **INT_PARAMETERS,
    **TEXT_PARAMETERS,
    "stopSequences": "stop",
    "custom": "custom",
}
# Seed 001's parameter table: the ranges enforced on conversions (``parameter-clamped``).
RANGES: Final = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "frequency_penalty": (-2.0, 2.0),
    "presence_penalty": (-2.0, 2.0),
}
# Integer parameters the IR takes from 1 up.
POSITIVE: Final = ("max_tokens", "top_k")
DEFAULT_MEDIA_TYPE: Final = "application/octet-stream"
