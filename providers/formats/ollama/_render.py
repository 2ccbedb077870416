"""UMF conversation -> Ollama payload in the shape it was read in (default: a request)."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import take_answer, thread
from providers.formats._chat_completions.parameters import default_model
from providers.formats._chat_completions.shape import SHAPES, enveloped, one_answer
from providers.formats._kit.drift import (
    no_place_for_message_facts,
    report_foreign_extra,
    report_message_metadata,
    report_unplaced,
    report_unsupported_parameters,
)
from providers.formats._kit.paths import item
from providers.formats._kit.wire import tool_definition
from providers.formats.base import Drift, Rendered
from providers.umf import Conversation, Message, Tool, ToolUseBlock, Usage, extract_text

from ._constants import (
    DEFAULT_MODEL,
    DONE_REASONS,
    FLOAT_OPTIONS,
    FORMAT_ID,
    INT_OPTIONS,
    LABEL,
    METRICS,
    NS,
)
from ._render_blocks import Context
from ._render_messages import render_message

# Parameters with no Ollama option at all.
_UNSUPPORTED = ("user", "parallel_tool_calls")
_NO_MESSAGE_METADATA = no_place_for_message_facts("an Ollama request")


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as an Ollama payload (see the package docstring)."""
    shape = NS.hint(conversation.extra, "shape")
    ctx = Context(NS, LABEL, Drift(FORMAT_ID), shape in SHAPES, call_names=_names(conversation))
    messages = thread(conversation, ctx, original=lambda entry: extract_text(entry) or entry.role)
    answer, shape = take_answer(messages, shape, _is_answer)
    if shape == "response":
        report_unplaced(conversation, messages, ctx.drift)
        messages = []
    if not ctx.faithful:
        report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA)
    wire = [out for index, message in messages for out in render_message(message, index, ctx)]
    if shape == "messages":
        report_unplaced(conversation, [], ctx.drift)
    payload = wire if shape in ("messages", "response") else _request(conversation, wire, ctx)
    response = None
    if answer is not None:
        index, message = answer
        empty = {"role": "assistant", "content": ""}
        reply = one_answer(render_message(message, index, ctx), index, ctx, empty)
        response = _response(message, reply)
    return Rendered(enveloped(conversation, NS, shape, payload, response), ctx.drift.warnings)


def _names(conversation: Conversation) -> dict[str, str]:
    """The tool name of every call id: Ollama results name their tool."""
    return {
        block.id: block.name
        for message in conversation.messages
        for block in message.content
        if isinstance(block, ToolUseBlock)
    }


def _is_answer(message: Message) -> bool:
    return message.role == "assistant" and NS.hint(message.extra, "response") is not None


def _request(
    conversation: Conversation, messages: list[dict[str, Any]], ctx: Context
) -> dict[str, Any]:
    parameters = conversation.parameters
    body: dict[str, Any] = {}
    why = "Ollama requires a model; the default was used"
    model = default_model(parameters, DEFAULT_MODEL, ctx, why=why)
    if model is not None:
        body["model"] = model
    body["messages"] = messages
    tools = _tools(conversation, ctx)
    if tools is not None:
        body["tools"] = tools
    options = _options(conversation)
    if options is not None:
        body["options"] = options
    if parameters.stream is not None:
        body["stream"] = parameters.stream
    report_unsupported_parameters(
        parameters,
        _UNSUPPORTED,
        ctx.drift,
        missing="Ollama has no {key}; left out",
        custom="custom parameter {key!r} is not an Ollama option; left out",
    )
    report_foreign_extra(conversation.extra, "", ctx)
    return NS.put(body, conversation.extra)


def _tools(conversation: Conversation, ctx: Context) -> list[dict[str, Any]] | None:
    """The ``tools`` to send. Ollama has no tool_choice: ``auto`` is what it always does,
    ``none`` is approximated by offering no tools, forcing a tool cannot be said."""
    choice = conversation.tool_choice
    tools = [_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    if choice is None:
        return tools or None
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    original = choice.name if choice.type == "tool" else choice.type
    if not tools or choice.type == "auto":
        ctx.drift.add(
            "parameter-normalized",
            "Ollama has no tool_choice; left out (the model always chooses)",
            field="tool_choice",
            original=original,
            severity="info",
        )
    elif choice.type == "none":
        ctx.drift.add(
            "parameter-normalized",
            "Ollama has no tool_choice; 'none' is approximated by offering no tools",
            field="tool_choice",
            original="none",
            transformed={"tools": None},
        )
        return None
    else:
        ctx.drift.add(
            "tool-unsupported",
            "Ollama cannot make the model call a tool; the tools are offered as they are",
            field="tool_choice",
            original=original,
        )
    return tools or None


def _tool(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    function = tool_definition(tool)
    outer = NS.hint(tool.extra, "outer")
    body = dict(outer) if outer is not None else {"type": "function"}
    body["function"] = NS.put(function, tool.extra)
    report_foreign_extra(tool.extra, path, ctx)
    return body


# --------------------------------------------------------------------------- options


def _options(conversation: Conversation) -> dict[str, Any] | None:
    """The ``options`` object to send, or None to leave the key to the verbatim fields
    (absent, or an explicit null read from an Ollama payload)."""
    parameters = conversation.parameters
    kept = NS.fields(conversation.extra).get("options")
    out: dict[str, Any] = dict(kept) if isinstance(kept, dict) else {}
    ints = NS.hint(conversation.extra, "int_options", [])
    for key in FLOAT_OPTIONS:
        value = getattr(parameters, key)
        if value is not None:
            out[key] = int(value) if key in ints and float(value).is_integer() else value
    for key in INT_OPTIONS:
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    if parameters.max_tokens is not None:
        out["num_predict"] = parameters.max_tokens
    if parameters.stop is not None:
        out["stop"] = parameters.stop
    return out if out or isinstance(kept, dict) else None


# --------------------------------------------------------------------------- responses


def _response(message: Message, wire: dict[str, Any]) -> dict[str, Any]:
    """A chat response whose ``message`` is ``wire``, the rendered ``message``."""
    response = dict(NS.hint(message.extra, "response", {"done": True}))
    if message.model is not None:
        response["model"] = message.model
    response["message"] = wire
    reason = message.provider_finish_reason
    if reason is None:
        reason = DONE_REASONS.get(message.finish_reason or "")
    if reason is not None:
        response["done_reason"] = reason
    if message.usage is not None:
        response.update(_metrics(message.usage))
    return response


def _metrics(usage: Usage) -> dict[str, Any]:
    """Ollama's count and timing fields: as sent when they came from Ollama, else the
    counts UMF has."""
    raw = usage.raw or {}
    if raw and set(raw) <= set(METRICS):
        return dict(raw)
    counts = {"prompt_eval_count": usage.prompt_tokens, "eval_count": usage.completion_tokens}
    return {key: value for key, value in counts.items() if value is not None}
