"""How sure ``matey-ir`` is that a payload is its own.

2 for the IR's own marks: ``metadata.requestId`` on a request or response, an array of
stream chunks (``type`` and ``sequence``), camelCase content fields (``toolUseId``,
``mediaType``); 1 for message arrays that merely fit; 0 otherwise.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.detect import score_content, score_messages
from providers.formats._kit.paths import is_int
from providers.formats.matey_ir._constants import CHUNK_TYPES, MESSAGE_KEYS, REQUEST_KEYS, ROLES
from providers.umf import JSON

_REQUEST_KEYS = {*REQUEST_KEYS, "responseFormat"}
_RESPONSE_KEYS = {"message", "finishReason", "usage", "metadata", "raw"}


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely the IR)."""
    if isinstance(payload, list):
        return 2 if _is_stream(payload) else score_messages(payload, _score_message)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload or "response" in payload:
        response = payload.get("response")
        answered = _is_stream(response) if isinstance(response, list) else _score_response(response)
        return 2 if answered and _score_request(payload.get("request")) else 0
    if "message" in payload:
        return _score_response(payload)
    return _score_request(payload)


def _has_request_id(value: JSON) -> bool:
    return isinstance(value, dict) and isinstance(value.get("requestId"), str)


def _score_request(payload: JSON) -> int:
    if not isinstance(payload, dict) or set(payload) - _REQUEST_KEYS:
        return 0
    if not _has_request_id(payload.get("metadata")):
        return 0
    return 2 if score_messages(payload.get("messages"), _score_message) else 0


def _score_response(payload: JSON) -> int:
    if not isinstance(payload, dict) or set(payload) - _RESPONSE_KEYS:
        return 0
    if not _has_request_id(payload.get("metadata")) or "finishReason" not in payload:
        return 0
    return 2 if _score_message(payload.get("message")) else 0


def _is_stream(chunks: JSON) -> bool:
    return (
        isinstance(chunks, list)
        and bool(chunks)
        and all(
            isinstance(chunk, dict)
            and chunk.get("type") in CHUNK_TYPES
            and is_int(chunk.get("sequence"))
            for chunk in chunks
        )
    )


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    if set(message) - MESSAGE_KEYS:
        return 0
    return score_content(message.get("content"), _score_block)


def _score_block(block: Any) -> int:
    if not isinstance(block, dict):
        return 0
    kind = block.get("type")
    if kind == "text":
        return 1 if isinstance(block.get("text"), str) else 0
    if kind == "tool_use":
        return 1 if isinstance(block.get("input"), dict) else 0
    if kind == "tool_result":
        return 2 if isinstance(block.get("toolUseId"), str) else 0
    if kind == "image":
        source = block.get("source")
        if not isinstance(source, dict):
            return 0
        if source.get("type") == "base64":
            return 2 if "mediaType" in source else 0
        return 1 if source.get("type") == "url" else 0
    return 0
