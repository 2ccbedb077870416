"""How sure ``ollama`` is that a payload is its own (see :class:`Format`).

2 for Ollama's marks: a response with ``message`` and a boolean ``done``; tool calls whose
``arguments`` are an object with no call ``type``; a field only Ollama declares in
:data:`DISTINCTIVE` (``options``, ``keep_alive``, ``think``, ``format``; messages with
``images``, ``thinking`` or ``tool_name``), weighed against every other format's by
``providers.formats._kit.detect``. 1 for plain role/content messages that fit; 0 for
anything Ollama would not read (content parts, argument strings, other formats' request
fields).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.detect import Scorers, calls_fit, fit_shapes
from providers.formats._kit.detect import Distinctive, score_fit
from providers.umf import JSON

from ._constants import FORMAT_ID, ROLES

_MESSAGE_KEYS = ("role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id")
# Every field an /api/chat request and message may carry.
DISTINCTIVE = Distinctive(
    request=("model", "messages", "tools", "format", "options", "stream", "keep_alive", "think"),
    message=_MESSAGE_KEYS,
)
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
    return score_fit(FORMAT_ID, payload, fit_shapes(payload, _SCORERS))


def _is_response(payload: JSON) -> bool:
    if not isinstance(payload, dict) or not isinstance(payload.get("done"), bool):
        return False
    message = payload.get("message")
    return (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and _score_message(message) > 0
    )


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    if set(message) - set(_MESSAGE_KEYS):
        return 0
    if message.get("content") is not None and not isinstance(message["content"], str):
        return 0
    calls = message.get("tool_calls")
    if not calls_fit(calls, dict, with_id=False):  # Ollama never sends argument strings
        return 0
    if calls and all("type" not in call for call in calls):
        return 2
    return 1


def _score_response(payload: dict[str, Any]) -> int:
    return 2 if _is_response(payload) else 0


_SCORERS = Scorers(
    _score_message,
    _score_response,
    "message",
    sure_exchange=True,
    request=lambda body: not _FOREIGN_REQUEST_KEYS & body.keys(),
)
