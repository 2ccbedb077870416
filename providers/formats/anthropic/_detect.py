"""Whether a payload is an Anthropic Messages payload, and how surely."""

from __future__ import annotations

from typing import Any

from providers.umf import JSON

_OTHER_ROLES = {"tool", "developer", "function"}
_DISTINCT_BLOCKS = {"thinking", "redacted_thinking", "tool_use", "tool_result", "server_tool_use"}
_DISTINCT_BLOCKS |= {"image", "document", "search_result"}


def detect(payload: JSON) -> int:
    """2 for Anthropic's marks (a response Message, ``max_tokens`` or a top-level
    ``system`` beside ``messages``, Anthropic block types), 1 for plain role/content
    messages that fit, 0 otherwise."""
    if isinstance(payload, dict) and "request" in payload and "response" in payload:
        response = payload["response"]
        is_message = isinstance(response, dict) and response.get("type") == "message"
        return 2 if is_message and detect(payload["request"]) else 0
    if isinstance(payload, dict) and payload.get("type") == "message":
        return (
            2
            if payload.get("role") == "assistant" and isinstance(payload.get("content"), list)
            else 0
        )
    if isinstance(payload, dict):
        return _detect_request(payload)
    return _detect_messages(payload)


def _detect_request(payload: dict[str, Any]) -> int:
    if {"parameters", "extra"} & payload.keys():
        return 0
    score = _detect_messages(payload.get("messages"))
    if score and ({"system", "stop_sequences", "top_k", "thinking"} & payload.keys()):
        return 2
    return score


def _detect_messages(messages: JSON) -> int:
    if not isinstance(messages, list) or not messages:
        return 0
    score = 1
    for message in messages:
        if not isinstance(message, dict) or not {"role", "content"} <= message.keys():
            return 0
        if message["role"] in _OTHER_ROLES or set(message) - {"role", "content"}:
            return 0
        content = message["content"]
        if isinstance(content, list):
            # Every Anthropic block names its type (Bedrock's, keyed by member, do not).
            if not all(isinstance(b, dict) and "type" in b for b in content):
                return 0
            types = {b.get("type") for b in content}
            if types & {"image_url", "input_audio", "file", "input_text"}:
                return 0
            if types & _DISTINCT_BLOCKS:
                score = 2
        elif not isinstance(content, str):
            return 0
    return score
