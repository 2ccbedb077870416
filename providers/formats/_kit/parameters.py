"""Generation parameters a target requires: the value sent when a conversation from another
format has none. One rule for every format, the provider's words as parameters."""

from __future__ import annotations

from typing import TypeVar

from providers.formats._kit.context import RenderContext

Value = TypeVar("Value")


def required_parameter(
    value: Value | None, default: Value, name: str, ctx: RenderContext, why: str
) -> Value | None:
    """The value of ``parameters.<name>`` to send: as given, else (none, or an empty name)
    ``default`` with a ``parameter-defaulted`` warning, ``why`` in the target's words
    ("Anthropic requires max_tokens; the default was used"). Rendering faithfully, a
    payload goes back as it was read: the value as given, even none."""
    if ctx.faithful or value not in (None, ""):
        return value
    ctx.drift.add(
        "parameter-defaulted",
        why,
        field=f"parameters.{name}",
        original=value,
        transformed=default,
    )
    return default
