"""UMF conversation -> Responses payload: the very shape and fields it was read from when
this format read it, else a request the API accepts (:func:`render_request`), with one
drift warning for each thing it could not carry (``_render_parts`` for content,
``_render_items`` for roles, reasoning, ids and tool results, ``_rules`` for ordering,
``_render_request`` for parameters and tools).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import take_answer, thread
from providers.formats._chat_completions.shape import SHAPES, enveloped
from providers.formats._kit.drift import (
    no_place_for_message_facts,
    report_foreign_extra,
    report_message_metadata,
    report_unplaced,
)
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message, TextBlock, Usage

from ._constants import LABEL, NS, UNMAPPED_TOOLS
from ._render_items import render_message
from ._render_request import render_parameters, render_tool_choice, render_tools, strip_nulls
from ._rules import Context, assemble

_NO_MESSAGE_METADATA = no_place_for_message_facts("a Responses request")


def render(conversation: Conversation) -> Rendered:
    """The payload for ``conversation``: the very shape and fields it was read from when
    this format read it, else a request the API accepts (see :func:`render_request`)."""
    shape = NS.hint(conversation.extra, "shape")
    if shape not in SHAPES:
        return render_request(conversation)
    return _render(conversation, shape, Context.create(NS, LABEL, faithful=True))


def render_request(conversation: Conversation) -> Rendered:
    """A request body the API accepts: every call answered right after it, ids and roles
    fixed, a model filled in, and a warning for each thing that could not travel."""
    return _render(conversation, "request", Context.create(NS, LABEL, faithful=False))


def _render(conversation: Conversation, shape: str, ctx: Context) -> Rendered:
    report_foreign_extra(conversation.extra, "", ctx)
    messages = thread(conversation, ctx)
    answer, shape = take_answer(messages, shape, _is_answer)
    if shape == "response":
        report_unplaced(conversation, messages, ctx.drift)
        messages = []
    instructions = None
    if shape in ("request", "exchange") and messages and _is_instructions(messages[0][1]):
        instructions = messages.pop(0)[1].content[0]
    if not ctx.faithful:
        report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA)
    items = assemble([e for i, m in messages for e in render_message(m, i, ctx)], ctx)
    payload: JSON = items
    if shape == "messages":
        report_unplaced(conversation, [], ctx.drift)
    elif shape in ("request", "exchange"):
        text = instructions.text if isinstance(instructions, TextBlock) else None
        payload = _render_body(conversation, items, text, ctx)
        payload = payload if ctx.faithful else strip_nulls(payload)
    if answer is not None:
        output = assemble(render_message(answer[1], answer[0], ctx), ctx)
        payload = enveloped(conversation, NS, shape, payload, render_response(answer[1], output))
    return Rendered(payload, ctx.drift.warnings)


def _is_answer(message: Message) -> bool:
    return message.role == "assistant" and isinstance(NS.hint(message.extra, "response"), dict)


def _is_instructions(message: Message) -> bool:
    return (
        message.role == "system"
        and NS.hint(message.extra, "instructions") is True
        and len(message.content) == 1
        and isinstance(message.content[0], TextBlock)
    )


def _render_body(
    conversation: Conversation,
    items: list[dict[str, Any]],
    instructions: str | None,
    ctx: Context,
) -> dict[str, Any]:
    out = render_parameters(conversation, ctx)
    if instructions is not None:
        out["instructions"] = instructions
    plain_input = len(items) == 1 and items[0].keys() == {"role", "content"}
    plain_input = (
        plain_input and items[0]["role"] == "user" and isinstance(items[0]["content"], str)
    )
    string_input = NS.hint(conversation.extra, "input") == "string" and plain_input
    out["input"] = items[0]["content"] if string_input else items
    tools = render_tools(conversation, ctx)
    if tools:
        out["tools"] = tools
    if conversation.tool_choice is not None:
        has_tools = bool(tools) or bool(NS.unmapped(conversation.extra, UNMAPPED_TOOLS))
        choice = render_tool_choice(conversation.tool_choice, has_tools, ctx)
        if choice is not None:
            out["tool_choice"] = choice
    return NS.put(out, conversation.extra)


# --------------------------------------------------------------------------- responses


def _usage(usage: Usage) -> dict[str, Any]:
    """The Responses usage object: the provider's own when kept, else built from the counts."""
    if usage.raw is not None:
        return usage.raw
    prompt, completion = usage.prompt_tokens or 0, usage.completion_tokens or 0
    return {
        "input_tokens": prompt,
        "input_tokens_details": {"cached_tokens": usage.cached_tokens or 0},
        "output_tokens": completion,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens or 0},
        "total_tokens": usage.total_tokens or prompt + completion,
    }


def render_response(message: Message, output: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``response`` object whose ``output`` is ``output``, the rendered ``message``."""
    kept = NS.hint(message.extra, "response")
    response = dict(kept) if isinstance(kept, dict) else {"object": "response"}
    if message.id is not None:
        response["id"] = message.id
    if message.model is not None:
        response["model"] = message.model
    if message.usage is not None:
        response["usage"] = _usage(message.usage)
    response["output"] = output
    return response
