"""How sure ``ollama`` is that a payload is its own (see :class:`Format`).

2 for Ollama's marks: a response with ``message`` and a boolean ``done``; request fields
only Ollama has (``options``, ``keep_alive``, ``think``, ``format``); messages with
``images`` (base64 strings), ``thinking`` text, ``tool_name``, or tool calls whose
``arguments`` are an object with no call ``type``. 1 for plain role/content messages that
fit; 0 for anything Ollama would not read (content parts, argument strings, other
formats' request fields).
"""

from __future__ import annotations

from typing import Any

from providers.umf import JSON

from ._shared import ROLES

_MESSAGE_KEYS = frozenset(
    {"role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id"}
)
_OLLAMA_REQUEST_KEYS = frozenset({"options", "keep_alive", "think", "format"})
# Request fields of other formats: a body with one of them is not an /api/chat request.
_FOREIGN_REQUEST_KEYS = frozenset(
    {
        "system",
        "max_tokens",
        "max_completion_tokens",
        "tool_choice",
        "response_format",
        "stop_sequences",
        "temperature",
        "top_p",
        "stop",
        "parameters",
        "extra",
        "metadata",
        "contents",
        "inferenceConfig",
    }
)


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely Ollama)."""
    if isinstance(payload, list):
        return _score_messages(payload)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload and "response" in payload:
        request = payload["request"]
        fits = isinstance(request, dict) and detect(request) > 0
        return 2 if fits and _is_response(payload["response"]) else 0
    if "message" in payload:
        return 2 if _is_response(payload) else 0
    if _FOREIGN_REQUEST_KEYS & payload.keys():
        return 0
    score = _score_messages(payload.get("messages"))
    return 2 if score and _OLLAMA_REQUEST_KEYS & payload.keys() else score


def _is_response(payload: JSON) -> bool:
    if not isinstance(payload, dict) or not isinstance(payload.get("done"), bool):
        return False
    message = payload.get("message")
    return (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and _score_message(message) > 0
    )


def _score_messages(messages: JSON) -> int:
    if not isinstance(messages, list) or not messages:
        return 0
    scores = [_score_message(message) for message in messages]
    return 0 if min(scores) == 0 else max(scores)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    if set(message) - _MESSAGE_KEYS:
        return 0
    if message.get("content") is not None and not isinstance(message["content"], str):
        return 0
    calls = message.get("tool_calls")
    if calls is not None and not _object_calls(calls):
        return 0
    images = message.get("images")
    if isinstance(images, list) and images and all(isinstance(i, str) for i in images):
        return 2
    if isinstance(message.get("thinking"), str) or isinstance(message.get("tool_name"), str):
        return 2
    if calls and all("type" not in call for call in calls):
        return 2
    return 1


def _object_calls(calls: Any) -> bool:
    """Whether every call has an object of ``arguments`` (Ollama never sends strings)."""
    return isinstance(calls, list) and all(
        isinstance(call, dict)
        and isinstance(call.get("function"), dict)
        and isinstance(call["function"].get("arguments"), dict)
        for call in calls
    )
