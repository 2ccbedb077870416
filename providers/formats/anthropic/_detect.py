"""Whether a payload is an Anthropic Messages payload, and how surely: its shape here, the
fields only Anthropic has through the kit's detector (:data:`DISTINCTIVE`)."""

from __future__ import annotations

from providers.formats._kit.detect import Distinctive, score_fit
from providers.formats.anthropic._constants import FORMAT_ID
from providers.umf import JSON

_OTHER_ROLES = {"tool", "developer", "function"}
# Every field a Messages request, message and content block may carry.
DISTINCTIVE = Distinctive(
    request=(
        *("model", "max_tokens", "messages", "system", "stop_sequences", "temperature"),
        *("top_p", "top_k", "tools", "tool_choice", "thinking", "metadata", "stream"),
        *("service_tier", "container", "mcp_servers", "context_management"),
    ),
    message=("role", "content"),
    block_types=(
        *("text", "image", "document", "search_result", "tool_use", "tool_result"),
        *("thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result"),
    ),
    block_fields=(
        *("type", "text", "citations", "cache_control", "source", "title", "context"),
        *("id", "name", "input", "tool_use_id", "content", "is_error", "thinking"),
        *("signature", "data"),
    ),
    values=("thinking.budget_tokens", "thinking.type=adaptive"),
)


def detect(payload: JSON) -> int:
    """2 for Anthropic's marks (a response Message, or a field only Anthropic declares in
    :data:`DISTINCTIVE`, weighed by ``providers.formats._kit.detect``: a top-level
    ``system``, ``top_k``, Anthropic block types and fields), 1 for plain role/content
    messages that fit, 0 otherwise."""
    return score_fit(FORMAT_ID, payload, _fit(payload))


def _fit(payload: JSON) -> int:
    if isinstance(payload, dict) and "request" in payload and "response" in payload:
        response = payload["response"]
        is_message = isinstance(response, dict) and response.get("type") == "message"
        return 2 if is_message and _fit(payload["request"]) else 0
    if isinstance(payload, dict) and payload.get("type") == "message":
        return (
            2
            if payload.get("role") == "assistant" and isinstance(payload.get("content"), list)
            else 0
        )
    if isinstance(payload, dict):
        if {"parameters", "extra"} & payload.keys():
            return 0
        return _detect_messages(payload.get("messages"))
    return _detect_messages(payload)


def _detect_messages(messages: JSON) -> int:
    if not isinstance(messages, list) or not messages:
        return 0
    for message in messages:
        if not isinstance(message, dict) or not {"role", "content"} <= message.keys():
            return 0
        role = message["role"]
        if not isinstance(role, str) or role in _OTHER_ROLES or set(message) - {"role", "content"}:
            return 0
        content = message["content"]
        if isinstance(content, list):
            # Every Anthropic block names its type (Bedrock's, keyed by member, do not).
            if not all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in content):
                return 0
            types = {b.get("type") for b in content}
            if types & {"image_url", "input_audio", "file", "input_text"}:
                return 0
        elif not isinstance(content, str):
            return 0
    return 1
