"""Request-level fields written: sampling parameters, ``tools`` and ``tool_choice``.

For other formats' conversations: ``max_output_tokens`` is at least 16
(``parameter-clamped``); the Responses API has no stop sequences, seed, top_k or penalties
(``parameter-unsupported``); a function tool without a schema gets an empty object schema
(``parameter-defaulted``) and ``strict: false``, which is what every other format means.
Nulls a read payload kept verbatim are stripped from a converted request
(:func:`strip_nulls`).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.parameters import (
    ParameterSpec,
    default_model,
    write_parallel_calls,
    write_values,
)
from providers.formats._chat_completions.shape import choice_without_tools, unnamed_tool_choice
from providers.formats._kit.drift import (
    clamp_parameter,
    report_defaulted,
    report_foreign_extra,
    report_unsupported_parameters,
)
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import empty_object_schema
from providers.umf import JSON, Conversation, Tool, ToolChoice

from ._constants import DEFAULT_MODEL, NS, UNMAPPED_TOOLS
from ._rules import Context

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
