"""The structural rules of Cohere v2 chat, applied to conversations converted from another
format: the family's thread of turns (:func:`providers.formats._chat_completions.turns.
linearize`) with Cohere's call ids, and its tool choice (``REQUIRED`` or ``NONE``; one tool
cannot be forced, so a forced tool is the only one offered).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.render import Dialect
from providers.formats._chat_completions.shape import choice_without_tools
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_foreign_extra
from providers.formats._kit.ids import call_id_from_hash, full_match
from providers.umf import Conversation

from ._constants import DEFAULT_MODEL, LABEL, NS, PARAMETERS

# Cohere takes any id without spaces; ids from elsewhere that are empty or odd are rewritten.
_VALID_CALL_ID = full_match(r"[A-Za-z0-9_.:-]{1,128}")
DIALECT = Dialect(NS, LABEL, DEFAULT_MODEL, PARAMETERS, _VALID_CALL_ID, call_id_from_hash)


def tool_choice(
    conversation: Conversation, tools: list[dict[str, Any]], out: dict[str, Any], ctx: RenderContext
) -> list[dict[str, Any]]:
    """Sets ``tool_choice`` and gives back the tools to send (one, when a single tool
    is forced: Cohere can only require "some tool")."""
    choice = conversation.tool_choice
    if choice is None:
        return tools
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    if choice_without_tools(choice, bool(tools), ctx):
        return tools
    if choice.type in ("required", "none"):
        out["tool_choice"] = choice.type.upper()
    elif choice.type == "tool":
        out["tool_choice"] = "REQUIRED"
        kept = [tool for tool in tools if tool["function"]["name"] == choice.name]
        ctx.drift.add(
            "parameter-normalized",
            "Cohere cannot force one tool; any tool is required, and only that one is offered",
            field="tool_choice",
            original=choice.model_dump(mode="json", exclude_defaults=True),
            transformed="REQUIRED",
            details={"tools_left_out": [t["function"]["name"] for t in tools if t not in kept]},
        )
        return kept or tools
    return tools  # auto: what Cohere does when tool_choice is left out
