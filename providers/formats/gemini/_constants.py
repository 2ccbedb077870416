"""Names, limits and defaults of the ``gemini`` format, in one place so tests and docs can
cite them."""

from __future__ import annotations

import re
from typing import Final

from providers.umf import FinishReason

FORMAT_ID: Final = "gemini"

# Gemini pairs calls and results by name and order and often sends no ids: parsing makes
# up ``gemini_call_<content>_<part>`` (and ``gemini_result_...`` for a result with no call).
SYNTHESIZED_CALL_ID: Final = "gemini_call_{content}_{part}"
SYNTHESIZED_RESULT_ID: Final = "gemini_result_{content}_{part}"

# Google's documented placeholder for a function call that Gemini did not produce: Gemini 3
# refuses a step whose first functionCall has no thoughtSignature, and real signatures only
# come from Gemini (https://ai.google.dev/gemini-api/docs/thought-signatures).
SIGNATURE_PLACEHOLDER: Final = "skip_thought_signature_validator"

# The error answer sent for a function call that no recorded result answers.
MISSING_RESULT_TEXT: Final = "No result was recorded for this function call."

# Gemini's rule for a function name: a letter or underscore, then letters, digits,
# underscores, dots, colons and dashes, 64 characters at most. Other providers take names
# Gemini refuses (``3d_render`` starts with a digit, ``get weather`` has a space).
FUNCTION_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
FUNCTION_NAME_START: Final = re.compile(r"[A-Za-z_]")
FUNCTION_NAME_REFUSED: Final = re.compile(r"[^A-Za-z0-9_.:-]")

# generationConfig.stopSequences takes at most five entries.
MAX_STOP_SEQUENCES: Final = 5
TEMPERATURE_RANGE: Final = (0.0, 2.0)
TOP_P_RANGE: Final = (0.0, 1.0)

# UMF parameter -> generationConfig key.
GENERATION_KEYS: Final[dict[str, str]] = {
    "temperature": "temperature",
    "top_p": "topP",
    "top_k": "topK",
    "max_tokens": "maxOutputTokens",
    "stop": "stopSequences",
    "seed": "seed",
    "presence_penalty": "presencePenalty",
    "frequency_penalty": "frequencyPenalty",
}

# URIs only Gemini can open (Files API, Cloud Storage): other providers get them as file ids.
GEMINI_FILE_PREFIXES: Final = ("https://generativelanguage.googleapis.com/", "gs://")
FETCHABLE_SCHEMES: Final = ("https://", "http://", "gs://")

# finishReason -> UMF finish reason (reference section 4). STOP becomes tool_calls when the
# candidate holds functionCall parts; reasons UMF has no name for (OTHER, LANGUAGE,
# TOO_MANY_TOOL_CALLS...) live only in ``provider_finish_reason``.
FINISH_REASONS: Final[dict[str, FinishReason]] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "MALFORMED_RESPONSE": "error",
    "MISSING_THOUGHT_SIGNATURE": "error",
}
WIRE_FINISH_REASONS: Final[dict[str, str]] = {
    "stop": "STOP",
    "tool_calls": "STOP",
    "length": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "error": "OTHER",
    "cancelled": "OTHER",
}

# functionCallingConfig.mode <-> UMF tool_choice type. VALIDATED (calls checked against the
# schemas) reads as auto and keeps its name in the ``$mode`` hint.
TOOL_MODES: Final[dict[str, str]] = {
    "AUTO": "auto",
    "ANY": "required",
    "NONE": "none",
    "VALIDATED": "auto",
}
WIRE_TOOL_MODES: Final[dict[str, str]] = {
    "auto": "AUTO",
    "required": "ANY",
    "tool": "ANY",
    "none": "NONE",
}

# The data fields of a Part: exactly one is set. The others are modifiers.
DATA_FIELDS: Final = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
)
