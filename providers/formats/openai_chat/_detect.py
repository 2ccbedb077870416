"""How sure ``openai-chat`` is that a payload is its own (see :class:`Format`).

2 when OpenAI's shape marks are there (``object: chat.completion``, a tool call whose
``arguments`` is a string, ``image_url`` / ``input_audio`` / ``file`` parts, a ``tool``
message with ``tool_call_id`` and text content, a ``developer`` message) or a field only
OpenAI declares (:data:`DISTINCTIVE`, weighed by ``providers.formats._kit.detect``); 1 when
the payload merely fits (plain role/content messages, which many chat APIs share); 0 when
anything in it is not Chat Completions.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.detect import Scorers, calls_fit, fit_shapes
from providers.formats._kit.detect import Distinctive, score_content, score_fit, typed_block_score
from providers.umf import JSON

from ._constants import PART_TYPES, ROLES

# Every field a Chat Completions request, message and content part may carry.
DISTINCTIVE = Distinctive(
    request=(
        *("model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p"),
        *("stop", "seed", "frequency_penalty", "presence_penalty", "user", "stream", "n"),
        *("stream_options", "tools", "tool_choice", "parallel_tool_calls", "functions"),
        *("function_call", "response_format", "reasoning_effort", "logit_bias", "logprobs"),
        *("top_logprobs", "store", "metadata", "modalities", "audio", "prediction"),
        *("web_search_options", "service_tier", "safety_identifier", "prompt_cache_key"),
        "verbosity",
    ),
    message=(
        *("role", "content", "name", "tool_calls", "tool_call_id", "refusal", "audio"),
        "function_call",
    ),
    block_types=tuple(PART_TYPES),
    block_fields=("type", "text", "image_url", "input_audio", "file", "refusal"),
)
# A part of OpenAI's own types makes a message surely Chat Completions (2).
_score_part = typed_block_score(PART_TYPES, {"image_url", "input_audio", "file", "refusal"})


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely Chat Completions)."""
    return score_fit("openai-chat", payload, fit_shapes(payload, _SCORERS))


def _score_response(payload: dict[str, Any]) -> int:
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return 0
    message = choices[0].get("message")
    sure = (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and (payload.get("object") == "chat.completion" or _score_message(message) > 0)
    )
    return 2 if sure else 0


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    content = message.get("content")
    score = 1 if content is None else score_content(content, _score_part)
    if score == 0:
        return 0
    calls = message.get("tool_calls")
    if (calls and calls_fit(calls, str, with_id=False)) or message.get("role") in (
        "developer",
        "function",
    ):
        score = 2
    if (
        message.get("role") == "tool"
        and isinstance(message.get("tool_call_id"), str)
        and isinstance(content, str)
    ):
        score = 2
    return score


# An exchange is sure when its response is one (the response scores 2 or 0).
_SCORERS = Scorers(_score_message, _score_response, "choices", sure_exchange=True)
