"""Writing a conversation as a Chat Completions payload: the very shape and fields it was
read from when this format read it ("faithful"), else a request OpenAI accepts."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import take_answer, thread
from providers.formats._chat_completions.completion import write_completion
from providers.formats._chat_completions.shape import SHAPES, enveloped, one_answer
from providers.formats._kit.drift import (
    no_place_for_message_facts,
    report_message_metadata,
    report_unplaced,
)
from providers.formats._kit.paths import item
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation

from ._constants import NAMESPACE
from ._parse import COMPLETION
from ._render_messages import render_message
from ._render_parts import RenderContext, new_context, report_foreign_extra
from ._render_request import render_parameters, render_tool, render_tool_choice, strip_nulls
from ._rules import assemble

_NO_MESSAGE_METADATA = no_place_for_message_facts("an OpenAI Chat request")


def render(conversation: Conversation) -> Rendered:
    """The payload for ``conversation``: the very shape and fields it was read from when
    this format read it, else a request OpenAI accepts (see :func:`render_request`)."""
    shape = NAMESPACE.hint(conversation.extra, "shape")
    if shape not in SHAPES:
        return render_request(conversation)
    return _render(conversation, shape, new_context(faithful=True))


def render_request(conversation: Conversation) -> Rendered:
    """A request body OpenAI accepts: every tool call answered right after it, ids and
    roles fixed, a model filled in, and a warning for each thing that could not travel."""
    return _render(conversation, "request", new_context(faithful=False))


def _render(conversation: Conversation, shape: str, ctx: RenderContext) -> Rendered:
    report_foreign_extra(conversation.extra, "", ctx.drift)
    messages = thread(conversation, ctx)
    # An exchange or a response writes its answer apart (a request when there is none).
    answer, shape = take_answer(messages, shape)
    if shape == "response":
        report_unplaced(conversation, messages, ctx.drift)
        messages = []
    if not ctx.faithful:
        report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA)
    entries = [
        entry for index, message in messages for entry in render_message(message, index, ctx)
    ]
    wires = assemble(entries, ctx)
    payload: JSON = wires
    if shape in ("request", "exchange"):
        payload = _render_body(conversation, wires, ctx)
        payload = payload if ctx.faithful else strip_nulls(payload)
    elif shape == "messages":
        report_unplaced(conversation, [], ctx.drift)
    response = None
    if answer is not None:
        index, message = answer
        wire = one_answer(
            assemble(render_message(message, index, ctx), ctx),
            index,
            ctx,
            {"role": "assistant", "content": None},
        )
        response = write_completion(message, wire, COMPLETION)
    return Rendered(
        enveloped(conversation, NAMESPACE, shape, payload, response), ctx.drift.warnings
    )


def _render_body(
    conversation: Conversation, messages: list[dict[str, Any]], ctx: RenderContext
) -> dict[str, Any]:
    out = render_parameters(conversation, ctx)
    out["messages"] = messages
    if conversation.tools:
        out["tools"] = [
            render_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)
        ]
    if conversation.tool_choice is not None:
        choice = render_tool_choice(conversation.tool_choice, bool(conversation.tools), ctx)
        if choice is not None:
            out["tool_choice"] = choice
    return NAMESPACE.put(out, conversation.extra)
