"""What every content-block API can carry: system, user and assistant turns, typed blocks,
tools and a tool choice, signed reasoning and usage. Each format names its parameters."""

from __future__ import annotations

from providers.formats.base import Capabilities

_BLOCKS = frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"})


def block_capabilities(parameters: frozenset[str], *, audio: bool) -> Capabilities:
    """The family's capabilities with the format's ``parameters`` (and audio blocks if it
    takes them)."""
    return Capabilities(
        roles=frozenset({"system", "user", "assistant"}),
        blocks=_BLOCKS | {"audio"} if audio else _BLOCKS,
        tools=True,
        tool_choice=True,
        parameters=parameters,
        reasoning_signatures=True,
        usage=True,
    )
