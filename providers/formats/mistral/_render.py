"""UMF conversation -> Mistral payload, in the shape it was read in (default: a request)."""

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
from providers.umf import JSON, Conversation, Message, ToolChoice, Usage

from ._order import order
from ._payload import SHAPES
from ._shared import (
    DEFAULT_MODEL,
    NS,
    PARAMETERS,
    UNMAPPED_TOOLS,
    WIRE_FINISH_REASONS,
    make_tool_call_id,
    new_context,
    valid_tool_call_id,
)
from ._turns import TurnWriter

_NO_MESSAGE_METADATA = (
    "a Mistral request has no per-message ids, timestamps, models, finish reasons or usage; "
    "left out"
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
    writer = TurnWriter(ctx)
    if ctx.faithful:
        turns = turns_as_read(messages, ctx) if shape != "response" else []
        wire = [w.wire for turn in turns if (w := writer.turn(turn)).wire is not None]
    else:
        report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA)
        turns = linearize(messages, ctx, valid_tool_call_id, make_tool_call_id)
        wire = order([writer.turn(turn) for turn in turns], ctx)
    payload: JSON = wire
    if shape not in ("messages", "response"):
        payload = _request(conversation, wire, ctx)
    if answer is not None:
        answer_wire = writer.turn(turns_as_read([answer], ctx)[0]).wire or {}
        response = _response(answer[1], answer_wire)
        envelope = NS.hint(conversation.extra, "exchange", {})
        if shape == "exchange":
            response = {**envelope, "request": payload, "response": response}
        payload = response
    return Rendered(payload, ctx.drift.warnings)


def _request(conversation: Conversation, messages: list[Any], ctx: Context) -> dict[str, Any]:
    out = write_parameters(conversation.parameters, PARAMETERS, conversation.extra, ctx)
    model = default_model(conversation.parameters, DEFAULT_MODEL, ctx)
    if model is not None:
        out["model"] = model
    out["messages"] = messages
    tools = [write_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    for entry in NS.fields(conversation.extra).get(UNMAPPED_TOOLS, []):
        tools.insert(min(entry["at"], len(tools)), entry["tool"])
    if tools:
        out["tools"] = tools
    if conversation.tool_choice is not None:
        choice = _tool_choice(conversation.tool_choice, bool(tools), ctx)
        if choice is not None:
            out["tool_choice"] = choice
    fields = {k: v for k, v in NS.fields(conversation.extra).items() if k != UNMAPPED_TOOLS}
    return NS.put(out, {NS.format_id: fields})


def _tool_choice(choice: ToolChoice, has_tools: bool, ctx: Context) -> JSON:
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    if not has_tools and not ctx.faithful:
        ctx.drift.add(
            "parameter-unsupported",
            "Mistral takes tool_choice only with tools",
            field="tool_choice",
            original=choice.model_dump(mode="json", exclude_defaults=True),
        )
        return None
    if choice.type == "required":
        return NS.hint(choice.extra, "value") or "any"
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        ctx.drift.add(
            "parameter-normalized",
            "a forced tool choice names no tool; any tool is required instead",
            field="tool_choice",
            original="tool",
            transformed="any",
        )
        return "any"
    function = NS.put({"name": choice.name}, choice.extra, "inner")
    out: dict[str, Any] = {"type": "function", "function": function}
    if ctx.faithful and NS.hint(choice.extra, "type") == "absent":
        del out["type"]
    return NS.put(out, choice.extra)


def _response(message: Message, wire: dict[str, Any]) -> dict[str, Any]:
    response = dict(NS.hint(message.extra, "response", {"object": "chat.completion"}))
    if message.id is not None:
        response["id"] = message.id
    if message.model is not None:
        response["model"] = message.model
    if message.usage is not None:
        response["usage"] = (
            message.usage.raw if message.usage.raw is not None else _usage(message.usage)
        )
    if NS.hint(message.extra, "role") == "absent":
        wire = {k: v for k, v in wire.items() if k != "role"}
    choice = dict(NS.hint(message.extra, "choice", {"index": 0}))
    choice["message"] = wire
    finish = wire_finish_reason(message, WIRE_FINISH_REASONS)
    if finish is not None:
        choice["finish_reason"] = finish
    response["choices"] = [choice, *NS.hint(message.extra, "other_choices", [])]
    return response


def _usage(usage: Usage) -> dict[str, Any]:
    counts = {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
    }
    return {key: value for key, value in counts.items() if value is not None}
