"""OpenAI's ``usage`` object written back (the response around it is the family's
:func:`providers.formats._chat_completions.completion.write_completion`)."""

from __future__ import annotations

from typing import Any

from providers.umf import Usage


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
