"""UMF conversation -> Responses payload: the very shape and fields it was read from when
this format read it, else a request the API accepts (:func:`render_request`), with one
drift warning for each thing it could not carry (``_render_parts`` for content,
``_render_items`` for roles, reasoning, ids and tool results, ``_rules`` for ordering).

Request-level fields, for other formats' conversations: ``max_output_tokens`` is at least
16 (``parameter-clamped``); the Responses API has no stop sequences, seed, top_k or
penalties (``parameter-unsupported``); a function tool without a schema gets an empty object
schema (``parameter-defaulted``) and ``strict: false``, which is what every other format
means. Nulls a read payload kept verbatim are stripped from a converted request
(:func:`strip_nulls`).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import take_answer, thread
from providers.formats._chat_completions.parameters import (
    ParameterSpec,
    default_model,
    write_parallel_calls,
    write_values,
)
from providers.formats._chat_completions.shape import (
    SHAPES,
    choice_without_tools,
    enveloped,
    unnamed_tool_choice,
)
from providers.formats._kit.drift import (
    clamp_parameter,
    no_place_for_message_facts,
    report_defaulted,
    report_foreign_extra,
    report_message_metadata,
    report_unplaced,
    report_unsupported_parameters,
)
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import empty_object_schema
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message, TextBlock, Tool, ToolChoice, Usage

from ._constants import DEFAULT_MODEL, LABEL, NS, UNMAPPED_TOOLS
from ._render_items import render_message
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


# --------------------------------------------------------------------------- request fields


# The documented ranges; values outside them are refused by the API.
_SAMPLING = (
    ParameterSpec("temperature", "temperature", "float", low=0.0, high=2.0),
    ParameterSpec("top_p", "top_p", "float", low=0.0, high=1.0),
)
MIN_OUTPUT_TOKENS = 16
_UNSUPPORTED = ("top_k", "stop", "seed", "frequency_penalty", "presence_penalty")


def render_parameters(conversation: Conversation, ctx: Context) -> dict[str, Any]:
    """The request's parameters; what the API cannot take is left out with a warning."""
    parameters = conversation.parameters
    out: dict[str, Any] = {}
    model = default_model(parameters, DEFAULT_MODEL, ctx, "OpenAI")
    if model is not None:
        out["model"] = model
    out.update(write_values(parameters, _SAMPLING, conversation.extra, ctx, "OpenAI"))
    if parameters.max_tokens is not None:
        limit = parameters.max_tokens
        if not ctx.faithful:
            why = f"OpenAI takes max_tokens between {MIN_OUTPUT_TOKENS} and inf"
            limit = int(
                clamp_parameter(limit, MIN_OUTPUT_TOKENS, None, ctx.drift, "max_tokens", why)
            )
        out["max_output_tokens"] = limit
    for key in ("stream", "user"):
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    write_parallel_calls(parameters, bool(conversation.tools), out, ctx, "OpenAI")
    report_unsupported_parameters(
        parameters,
        _UNSUPPORTED,
        ctx.drift,
        missing="OpenAI Responses has no {key}",
        custom="custom parameter {key!r} is not sent to OpenAI",
    )
    return out


def render_tools(conversation: Conversation, ctx: Context) -> list[dict[str, Any]]:
    """The ``tools`` array: UMF tools, and hosted tools back where they were."""
    tools = [render_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    return NS.put_back(tools, conversation.extra, UNMAPPED_TOOLS, "tool")


def render_tool(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    """One flat tool definition (``{"type": "function", "name", ...}`` unless custom)."""
    report_foreign_extra(tool.extra, path, ctx)
    custom = NS.hint(tool.extra, "type") == "custom"
    out: dict[str, Any] = {"type": "custom" if custom else "function", "name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    if tool.parameters is not None and not custom:
        out["parameters"] = tool.parameters
    NS.put(out, tool.extra)
    if ctx.faithful or custom:
        return out
    if "parameters" not in out or out["parameters"] is None:
        out["parameters"] = schema = empty_object_schema()
        report_defaulted(
            at(path, "parameters"),
            schema,
            ctx.drift,
            "OpenAI function tools need a parameters schema; an empty object schema was used",
        )
    out.setdefault("strict", False)  # the API's default is strict; other formats mean loose
    return out


def render_tool_choice(choice: ToolChoice, has_tools: bool, ctx: Context) -> JSON:
    """``tool_choice`` as the API spells it, or None when it cannot be sent."""
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    if choice_without_tools(choice, has_tools, ctx, "OpenAI"):
        return None
    kind, fields = NS.hint(choice.extra, "type"), NS.fields(choice.extra)
    if kind == "allowed_tools" and choice.type in ("auto", "required"):
        return put_fields({"type": kind, "mode": choice.type}, fields)
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        return unnamed_tool_choice(ctx, "required")
    wire = {"type": "custom" if kind == "custom" else "function", "name": choice.name}
    return put_fields(wire, fields)


# --------------------------------------------------------------------------- nulls


def strip_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the nulls a read payload kept verbatim (``"instructions": null``,
    ``"encrypted_content": null``...): the API reads a missing optional field the same way,
    and the SDK types refuse several of them as null. Only the request's own containers
    are touched (the body, its items and their parts), never schemas or metadata."""
    out = _strip(body)
    if isinstance(out.get("input"), list):
        out["input"] = [_strip_item(entry) for entry in out["input"]]
    return out


def _strip(value: dict[str, Any]) -> dict[str, Any]:
    return {key: entry for key, entry in value.items() if entry is not None}


def _strip_item(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = _strip(entry)
    for key in ("content", "output", "summary"):
        if isinstance(out.get(key), list):
            out[key] = [_strip(part) if isinstance(part, dict) else part for part in out[key]]
    return out
