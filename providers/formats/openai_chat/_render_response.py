"""A rendered assistant message as the ``chat.completion`` it was read from (see
:mod:`._parse_response`)."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.wire import wire_finish_reason
from providers.umf import Message, Usage

from ._constants import NAMESPACE

_WIRE_FINISH_REASONS = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}


def render_usage(usage: Usage) -> dict[str, Any]:
    """OpenAI's usage object: the provider's own when kept, else built from the counts."""
    if usage.raw is not None:
        return usage.raw
    out: dict[str, Any] = {
        "prompt_tokens": usage.prompt_tokens or 0,
        "completion_tokens": usage.completion_tokens or 0,
        "total_tokens": usage.total_tokens
        or (usage.prompt_tokens or 0) + (usage.completion_tokens or 0),
    }
    if usage.cached_tokens is not None or usage.cache_write_tokens is not None:
        details = {
            "cached_tokens": usage.cached_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
        }
        out["prompt_tokens_details"] = {k: v for k, v in details.items() if v is not None}
    if usage.reasoning_tokens is not None:
        out["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return out


def render_response(message: Message, wire: dict[str, Any]) -> dict[str, Any]:
    """A ``chat.completion`` whose first choice is ``wire``, the rendered ``message``."""
    response = dict(NAMESPACE.hint(message.extra, "response", {"object": "chat.completion"}))
    if message.id is not None:
        response["id"] = message.id
    if message.model is not None:
        response["model"] = message.model
    if message.usage is not None:
        response["usage"] = render_usage(message.usage)
    choice = dict(NAMESPACE.hint(message.extra, "choice", {"index": 0}))
    choice["message"] = wire
    finish = wire_finish_reason(message, _WIRE_FINISH_REASONS)
    if finish is not None:
        choice["finish_reason"] = finish
    response["choices"] = [choice, *NAMESPACE.hint(message.extra, "other_choices", [])]
    return response
