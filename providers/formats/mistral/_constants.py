"""Names, defaults and tables of the ``mistral`` format, in one place for docs and tests."""

from __future__ import annotations

from typing import Final

from providers.formats._chat_completions.parameters import ParameterSpec
from providers.formats._kit.extra import Namespace
from providers.umf import FinishReason

FORMAT_ID: Final = "mistral"
LABEL: Final = "Mistral"
NS: Final = Namespace(FORMAT_ID)

# Filled in (``parameter-defaulted``) when a conversation from another format names no model.
DEFAULT_MODEL: Final = "mistral-large-latest"
# The assistant turn put between a tool result and a user message (Mistral refuses a user
# message right after a tool message).
BRIDGE_TEXT: Final = "(tool results received)"

ROLES: Final = ("system", "user", "assistant", "tool")
# Chunk types by role (mistralai's ContentChunk and SystemMessageContentChunks unions).
CHUNK_TYPES: Final = (
    "text",
    "image_url",
    "document_url",
    "input_audio",
    "file",
    "thinking",
    "reference",
    "resource",
    "resource_link",
)
SYSTEM_CHUNK_TYPES: Final = ("text", "thinking")
# Chunk types UMF has no block for: kept verbatim, with their positions, in the message's
# ``unmapped_chunks`` field (a field, not a hint, so other formats report them).
UNMAPPED_CHUNK_TYPES: Final = ("reference", "resource", "resource_link")
UNMAPPED_CHUNKS: Final = "unmapped_chunks"
# Tools of types UMF has no name for (document_library, image_generation, connectors...),
# kept the same way in the conversation's ``unmapped_tools`` field.
UNMAPPED_TOOLS: Final = "unmapped_tools"

# The documented request parameters UMF has names for, with the API's ranges.
PARAMETERS: Final = (
    ParameterSpec("model", "model", "str"),
    ParameterSpec("temperature", "temperature", "float", low=0.0, high=1.5),
    ParameterSpec("top_p", "top_p", "float", low=0.0, high=1.0),
    ParameterSpec("top_k", "top_k", "int", low=0),
    ParameterSpec("max_tokens", "max_tokens", "int"),
    ParameterSpec("stop", "stop", "stop"),
    ParameterSpec("random_seed", "seed", "int"),
    ParameterSpec("presence_penalty", "presence_penalty", "float", low=-2.0, high=2.0),
    ParameterSpec("frequency_penalty", "frequency_penalty", "float", low=-2.0, high=2.0),
    ParameterSpec("parallel_tool_calls", "parallel_tool_calls", "bool"),
    ParameterSpec("stream", "stream", "bool"),
)

# finish_reason -> UMF (reference section 4); the raw value stays in provider_finish_reason.
FINISH_REASONS: Final[dict[str, FinishReason]] = {
    "stop": "stop",
    "length": "length",
    "model_length": "length",
    "tool_calls": "tool_calls",
    "error": "error",
}
# UMF finish reasons as a response spells them: by the same names.
WIRE_FINISH_REASONS: Final[dict[str, str]] = {reason: reason for reason in FINISH_REASONS.values()}
