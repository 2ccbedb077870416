"""UMF conversation -> Mistral payload, in the shape it was read in (default: a request),
by the family's render (:func:`providers.formats._chat_completions.render.render_chat`)."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import write_tool
from providers.formats._chat_completions.completion import write_completion
from providers.formats._chat_completions.parameters import default_model, write_parameters
from providers.formats._chat_completions.render import render_chat
from providers.formats._chat_completions.shape import choice_without_tools, unnamed_tool_choice
from providers.formats._chat_completions.turns import Turn
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import report_foreign_extra
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import item
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message, ToolChoice

from ._constants import DEFAULT_MODEL, NS, PARAMETERS, UNMAPPED_TOOLS
from ._parse import COMPLETION
from ._render_turns import TurnWriter
from ._rules import DIALECT, order


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as a Mistral payload (see the package docstring)."""
    return render_chat(conversation, DIALECT, _Writer)


class _Writer(TurnWriter):
    def messages(self, turns: list[Turn]) -> list[dict[str, Any]]:
        """The messages as read, or converted turns in the order Mistral takes."""
        if self.ctx.faithful:
            return [w.wire for turn in turns if (w := self.turn(turn)).wire is not None]
        return order([self.turn(turn) for turn in turns], self.ctx)

    def answer(self, turn: Turn) -> dict[str, Any]:
        """The message of a response."""
        return self.turn(turn).wire or {}

    def request(self, conversation: Conversation, messages: list[dict[str, Any]]) -> JSON:
        """The ``POST /v1/chat/completions`` body."""
        return _request(conversation, messages, self.ctx)

    def response(self, message: Message, wire: dict[str, Any]) -> dict[str, Any]:
        """A ``chat.completion`` holding ``wire``."""
        return write_completion(message, wire, COMPLETION)


def _request(conversation: Conversation, messages: list[Any], ctx: Context) -> dict[str, Any]:
    out = write_parameters(conversation.parameters, PARAMETERS, conversation.extra, ctx)
    model = default_model(conversation.parameters, DEFAULT_MODEL, ctx)
    if model is not None:
        out["model"] = model
    out["messages"] = messages
    tools = [write_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    tools = NS.put_back(tools, conversation.extra, UNMAPPED_TOOLS, "tool")
    if tools:
        out["tools"] = tools
    if conversation.tool_choice is not None:
        choice = _tool_choice(conversation.tool_choice, bool(tools), ctx)
        if choice is not None:
            out["tool_choice"] = choice
    kept = {k: v for k, v in NS.fields(conversation.extra).items() if k != UNMAPPED_TOOLS}
    return put_fields(out, kept)


def _tool_choice(choice: ToolChoice, has_tools: bool, ctx: Context) -> JSON:
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    if choice_without_tools(choice, has_tools, ctx):
        return None
    if choice.type == "required":
        return NS.hint(choice.extra, "value") or "any"
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        return unnamed_tool_choice(ctx, "any")
    function = NS.put({"name": choice.name}, choice.extra, "inner")
    out: dict[str, Any] = {"type": "function", "function": function}
    if ctx.faithful and NS.hint(choice.extra, "type") == "absent":
        del out["type"]
    return NS.put(out, choice.extra)
