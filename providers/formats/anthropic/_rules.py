"""The structural rules of the Messages API, applied to drafts converted from another format.

In order: tool ids fit ``^[a-zA-Z0-9_-]+$``; no blank text blocks, no empty messages; one
message per turn (same-role runs merged); the first turn is the user's; every ``tool_use`` is
answered by a ``tool_result`` at the start of the very next user turn, and every result
answers a call of the turn before it. The rules are the content-block family's
(:mod:`providers.formats._content_blocks.rules`), in Anthropic's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from providers.formats._content_blocks.drafts import Draft
from providers.formats._content_blocks.rules import apply_rules as apply_family_rules
from providers.formats._kit.context import RenderContext
from providers.formats.anthropic._render_blocks import DIALECT


def apply_rules(drafts: Iterable[Draft], ctx: RenderContext) -> list[dict[str, Any]]:
    """The messages of a request the API accepts, each draft taken as it is made; every
    change is a warning."""
    return apply_family_rules(drafts, ctx, DIALECT, DIALECT.payload)
