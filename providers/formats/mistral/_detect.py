"""How sure ``mistral`` is that a payload is its own (see :class:`Format`).

Mistral's chat API is OpenAI-like, so plain payloads only fit (1). 2 for Mistral's marks:
a field only Mistral declares in :data:`DISTINCTIVE` (``random_seed``, ``safe_prompt``,
``prompt_mode``, ``tool_choice: "any"``, ``document_url`` and ``reference`` chunks, an
assistant ``prefix``), weighed against every other format's by
``providers.formats._kit.detect``; chunks shaped as only Mistral shapes them (a ``thinking``
chunk list, ``input_audio`` or ``image_url`` as a bare string, a ``file`` chunk by id); a
response whose finish reason is ``model_length``. 0 when anything is not Mistral chat (a
``developer`` role, OpenAI-only parts, Anthropic blocks...).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.detect import Scorers, fit_shapes, score_message
from providers.formats._kit.detect import Distinctive, score_fit
from providers.umf import JSON

from ._constants import CHUNK_TYPES, FORMAT_ID, PARAMETERS, ROLES, SYSTEM_CHUNK_TYPES

# Every field a Mistral chat request, message and chunk may carry.
DISTINCTIVE = Distinctive(
    request=(
        *(spec.wire for spec in PARAMETERS),
        *("messages", "tools", "tool_choice", "response_format", "safe_prompt", "n"),
        *("prediction", "prompt_mode", "reasoning_effort", "metadata"),
    ),
    message=("role", "content", "name", "tool_calls", "tool_call_id", "prefix"),
    block_types=CHUNK_TYPES,
    block_fields=(
        *("type", "text", "image_url", "document_url", "document_name", "file_id"),
        *("input_audio", "thinking", "signature", "reference_ids"),
    ),
    values=("tool_choice=any",),
)
# Message fields of other chat formats that a Mistral message never has.
_FOREIGN_MESSAGE_KEYS = {"refusal", "audio", "function_call", "tool_plan", "images"}
_FOREIGN_MESSAGE_KEYS |= {"thinking", "tool_name", "citations"}


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely Mistral chat)."""
    return score_fit(FORMAT_ID, payload, fit_shapes(payload, _SCORERS))


def _score_response(payload: dict[str, Any]) -> int:
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return 0
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict) or message.get("role", "assistant") != "assistant":
        return 0
    score = _score_message({"role": "assistant", **message})
    if score and choice.get("finish_reason") == "model_length":
        return 2
    return score


def _score_message(message: JSON) -> int:
    # Mistral calls carry an id and a function with a name (arguments: string or object).
    return score_message(message, ROLES, _FOREIGN_MESSAGE_KEYS, _score_part, (str, dict))


def _score_part(chunk: JSON, role: str) -> int:
    return _score_chunk(chunk, SYSTEM_CHUNK_TYPES if role == "system" else CHUNK_TYPES)


def _score_chunk(chunk: JSON, allowed: tuple[str, ...]) -> int:
    if not isinstance(chunk, dict) or chunk.get("type") not in allowed:
        return 0
    kind = chunk["type"]
    if kind == "input_audio":
        return 2 if isinstance(chunk.get("input_audio"), str) else 0
    if kind == "image_url":
        return 2 if isinstance(chunk.get("image_url"), str) else 1
    if kind == "file":
        return 2 if isinstance(chunk.get("file_id"), str) and "file" not in chunk else 0
    if kind == "thinking":
        return 2 if isinstance(chunk.get("thinking"), list) else 0
    return 1


_SCORERS = Scorers(_score_message, _score_response, "choices")
