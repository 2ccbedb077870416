"""UMF conversation -> Cohere payload, in the shape it was read in (default: a request),
by the family's render (:func:`providers.formats._chat_completions.render.render_chat`)."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import write_tool
from providers.formats._chat_completions.parameters import default_model, write_parameters
from providers.formats._chat_completions.render import render_chat
from providers.formats._kit.paths import item
from providers.formats._kit.wire import wire_finish_reason
from providers.formats.base import Rendered
from providers.umf import Conversation, Message, Usage

from ._constants import DEFAULT_MODEL, NS, PARAMETERS, WIRE_FINISH_REASONS
from ._render_turns import TurnWriter
from ._rules import DIALECT, tool_choice


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as a Cohere payload (see the package docstring)."""
    return render_chat(conversation, DIALECT, _Writer)


class _Writer(TurnWriter):
    def request(self, conversation: Conversation, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``POST /v2/chat`` body: parameters, model, messages, tools, documents."""
        ctx = self.ctx
        out = write_parameters(conversation.parameters, PARAMETERS, conversation.extra, ctx)
        model = default_model(conversation.parameters, DEFAULT_MODEL, ctx)
        if model is not None:
            out["model"] = model
        out["messages"] = messages
        tools = [
            write_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)
        ]
        tools = tool_choice(conversation, tools, out, ctx)
        if tools:
            out["tools"] = tools
        if self.documents:
            out["documents"] = self.documents
        return NS.put(out, conversation.extra)

    def response(self, message: Message, wire: dict[str, Any]) -> dict[str, Any]:
        """A ``V2ChatResponse`` holding ``wire``."""
        out = dict(NS.hint(message.extra, "response", {}))
        if message.id is not None:
            out["id"] = message.id
        finish = wire_finish_reason(message, WIRE_FINISH_REASONS)
        if finish is not None:
            out["finish_reason"] = finish
        out["message"] = wire
        if message.usage is not None:
            usage = message.usage
            out["usage"] = usage.raw if usage.raw is not None else _usage(usage)
        return out


def _usage(usage: Usage) -> dict[str, Any]:
    tokens = {"input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens}
    out: dict[str, Any] = {"tokens": {k: v for k, v in tokens.items() if v is not None}}
    if usage.cached_tokens is not None:
        out["cached_tokens"] = usage.cached_tokens
    return out
