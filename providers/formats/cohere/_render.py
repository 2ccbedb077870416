"""UMF conversation -> Cohere payload, in the shape it was read in (default: a request)."""

from __future__ import annotations

from typing import Any

from providers.formats._chatlike import (
    Context,
    default_model,
    item,
    linearize,
    report_foreign_extra,
    report_unplaced,
    take_answer,
    thread,
    turns_as_read,
    write_parameters,
    write_tool,
)
from providers.formats._common import report_message_metadata, wire_finish_reason
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message, Usage

from ._payload import SHAPES
from ._shared import (
    DEFAULT_MODEL,
    NS,
    PARAMETERS,
    WIRE_FINISH_REASONS,
    make_tool_call_id,
    new_context,
    valid_tool_call_id,
)
from ._turns import TurnWriter

_NO_MESSAGE_METADATA = (
    "a Cohere request has no per-message ids, timestamps, models, finish reasons or usage; left out"
)


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and the warnings for what it could not carry."""
    shape = NS.hint(conversation.extra, "shape")
    ctx = new_context(faithful=shape in SHAPES)
    report_foreign_extra(conversation.extra, "", ctx)
    messages = thread(conversation, ctx)
    answer, shape = take_answer(messages, shape)
    if shape in ("messages", "response"):
        report_unplaced(conversation, messages if shape == "response" else [], ctx.drift)
    if not ctx.faithful:
        report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA)
        turns = linearize(messages, ctx, valid_tool_call_id, make_tool_call_id)
    else:
        turns = turns_as_read(messages, ctx) if shape != "response" else []
    writer = TurnWriter(ctx)
    wire = writer.write(turns)
    payload: JSON = wire
    if shape not in ("messages", "response"):
        payload = _request(conversation, wire, writer.documents, ctx)
    if answer is not None:
        response = _response(answer[1], writer.turn(turns_as_read([answer], ctx)[0]) or {})
        envelope = NS.hint(conversation.extra, "exchange", {})
        payload = (
            response
            if shape == "response"
            else {**envelope, "request": payload, "response": response}
        )
    return Rendered(payload, ctx.drift.warnings)


def _request(
    conversation: Conversation,
    messages: list[dict[str, Any]],
    documents: list[dict[str, Any]],
    ctx: Context,
) -> dict[str, Any]:
    out = write_parameters(conversation.parameters, PARAMETERS, conversation.extra, ctx)
    model = default_model(conversation.parameters, DEFAULT_MODEL, ctx)
    if model is not None:
        out["model"] = model
    out["messages"] = messages
    tools = [write_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    tools = _tool_choice(conversation, tools, out, ctx)
    if tools:
        out["tools"] = tools
    if documents:
        out["documents"] = documents
    return NS.put(out, conversation.extra)


def _tool_choice(
    conversation: Conversation, tools: list[dict[str, Any]], out: dict[str, Any], ctx: Context
) -> list[dict[str, Any]]:
    """Sets ``tool_choice`` and gives back the tools to send (one, when a single tool
    is forced: Cohere can only require "some tool")."""
    choice = conversation.tool_choice
    if choice is None:
        return tools
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    original = choice.model_dump(mode="json", exclude_defaults=True)
    if not tools and not ctx.faithful:
        ctx.drift.add(
            "parameter-unsupported",
            "Cohere takes tool_choice only with tools",
            field="tool_choice",
            original=original,
        )
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
            original=original,
            transformed="REQUIRED",
            details={"tools_left_out": [t["function"]["name"] for t in tools if t not in kept]},
        )
        return kept or tools
    return tools  # auto: what Cohere does when tool_choice is left out


def _response(message: Message, wire: dict[str, Any]) -> dict[str, Any]:
    out = dict(NS.hint(message.extra, "response", {}))
    if message.id is not None:
        out["id"] = message.id
    finish = wire_finish_reason(message, WIRE_FINISH_REASONS)
    if finish is not None:
        out["finish_reason"] = finish
    out["message"] = wire
    if message.usage is not None:
        out["usage"] = message.usage.raw if message.usage.raw is not None else _usage(message.usage)
    return out


def _usage(usage: Usage) -> dict[str, Any]:
    tokens = {"input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens}
    out: dict[str, Any] = {"tokens": {k: v for k, v in tokens.items() if v is not None}}
    if usage.cached_tokens is not None:
        out["cached_tokens"] = usage.cached_tokens
    return out
