"""``anthropic``: the Anthropic Messages API (``POST /v1/messages``).

**Parse** accepts a request body, a bare message list, a logged exchange
``{"request", "response"}`` and a bare response Message, and records which as the
conversation hint ``$shape``. The top-level ``system`` becomes a leading UMF system message;
tool results stay ``tool_result`` blocks of ``user`` messages (splitting them into tool
messages is for the renderers of formats that need it). Every field UMF has no name for is
kept in ``extra["anthropic"]`` at its level, and explicit nulls too. Block types UMF has no
name for (server tool blocks, ``search_result``...) are kept verbatim with their position in
the field ``unmapped_blocks`` of their message's extra: they come back in place here, and
other formats report them among this format's fields they cannot carry.

**Render** writes the shape that was read. A conversation read from this format comes back
exactly as it was (same JSON); one from any other format becomes a request the API accepts:
``model`` / ``max_tokens`` defaulted (:data:`DEFAULT_MODEL`, :data:`DEFAULT_MAX_TOKENS`),
system and developer messages in the top-level ``system``, tool messages and same-role runs
merged into alternating turns that start with the user, every call answered right after it,
tool ids fitted to ``^[a-zA-Z0-9_-]+$``, and a drift warning for each of these steps and for
everything left out (audio, foreign reasoning and signatures, citations, temperature/top_p/
top_k, penalties, seed, other formats' fields; the messages' ids, timestamps, models, finish
reasons, usage and metadata in one info note).
"""

from __future__ import annotations

from pydantic import ValidationError

from providers.formats import register
from providers.formats._kit.detect import Distinctive, score_fit
from providers.formats.anthropic._constants import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    FORMAT_ID,
)
from providers.formats.anthropic._parse import parse_payload
from providers.formats.anthropic._render import render_conversation
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "FORMAT",
    "FORMAT_ID",
    "detect",
    "parse",
    "render",
]


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Anthropic payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    try:
        conversation = parse_payload(payload)
    except ValidationError as error:
        # The readers check types first; this is the net for a value UMF still refuses.
        first = error.errors()[0]
        raise FormatError(first["msg"], field=".".join(str(p) for p in first["loc"])) from None
    return [ParseResult(conversation)]


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as an Anthropic payload (see the module docstring)."""
    return render_conversation(conversation)


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
        elif not isinstance(content, str):
            return 0
    return 1


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="Anthropic Messages",
        capabilities=Capabilities(
            roles=frozenset({"system", "user", "assistant"}),
            blocks=frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"}),
            tools=True,
            tool_choice=True,
            # temperature/top_p/top_k only in round trips of Anthropic payloads (API version).
            parameters=frozenset(
                {"model", "max_tokens", "temperature", "top_p", "top_k", "stop", "user", "stream"}
                | {"parallel_tool_calls"}
            ),
            reasoning_signatures=True,
            usage=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        distinctive=DISTINCTIVE,
        provider="anthropic",
    )
)
