"""Approximate prices per million tokens, to compare a replay's cost with the original's.

The figures are public list prices in US dollars as of 2025 for the models people replay
most; they ignore batch discounts, cache pricing tiers and regional differences, so the
page labels every cost as approximate. A model missing here has no cost ("—").
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

# model name prefix -> (input $/M tokens, output $/M tokens); the longest prefix wins.
PRICES: dict[str, tuple[Decimal, Decimal]] = {
    "gpt-4.1-nano": (Decimal("0.10"), Decimal("0.40")),
    "gpt-4.1-mini": (Decimal("0.40"), Decimal("1.60")),
    "gpt-4.1": (Decimal("2.00"), Decimal("8.00")),
    "gpt-4o-mini": (Decimal("0.15"), Decimal("0.60")),
    "gpt-4o": (Decimal("2.50"), Decimal("10.00")),
    "gpt-4-turbo": (Decimal("10.00"), Decimal("30.00")),
    "gpt-3.5-turbo": (Decimal("0.50"), Decimal("1.50")),
    "o3-mini": (Decimal("1.10"), Decimal("4.40")),
    "o4-mini": (Decimal("1.10"), Decimal("4.40")),
    "o3": (Decimal("2.00"), Decimal("8.00")),
    "o1": (Decimal("15.00"), Decimal("60.00")),
    "claude-opus-4": (Decimal("15.00"), Decimal("75.00")),
    "claude-sonnet-4": (Decimal("3.00"), Decimal("15.00")),
    "claude-3-7-sonnet": (Decimal("3.00"), Decimal("15.00")),
    "claude-3-5-sonnet": (Decimal("3.00"), Decimal("15.00")),
    "claude-3-5-haiku": (Decimal("0.80"), Decimal("4.00")),
    "claude-haiku-4": (Decimal("1.00"), Decimal("5.00")),
    "claude-3-haiku": (Decimal("0.25"), Decimal("1.25")),
    "claude-3-opus": (Decimal("15.00"), Decimal("75.00")),
    "gemini-2.5-pro": (Decimal("1.25"), Decimal("10.00")),
    "gemini-2.5-flash": (Decimal("0.30"), Decimal("2.50")),
    "gemini-2.0-flash": (Decimal("0.10"), Decimal("0.40")),
    "gemini-1.5-pro": (Decimal("1.25"), Decimal("5.00")),
    "gemini-1.5-flash": (Decimal("0.075"), Decimal("0.30")),
    "mistral-large": (Decimal("2.00"), Decimal("6.00")),
    "mistral-small": (Decimal("0.10"), Decimal("0.30")),
    "command-r-plus": (Decimal("2.50"), Decimal("10.00")),
    "command-r": (Decimal("0.15"), Decimal("0.60")),
    # The offline test provider costs nothing.
    "echo": (Decimal("0"), Decimal("0")),
}
_BY_LENGTH = sorted(PRICES, key=len, reverse=True)
_MILLION = Decimal(1_000_000)


def price_of(model: str | None) -> tuple[Decimal, Decimal] | None:
    """(input, output) dollars per million tokens for ``model``, or None when unknown."""
    if not model:
        return None
    name = model.lower().rsplit("/", 1)[-1]  # "openai/gpt-4o" -> "gpt-4o"
    for prefix in _BY_LENGTH:
        if name.startswith(prefix):
            return PRICES[prefix]
    return None


def cost(model: str | None, usage: dict[str, Any] | None) -> Decimal | None:
    """Approximate dollars for one call's usage; None when the model or usage is unknown."""
    prices = price_of(model)
    if prices is None or not usage:
        return None
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if prompt is None and completion is None:
        return None
    return (Decimal(prompt or 0) * prices[0] + Decimal(completion or 0) * prices[1]) / _MILLION
