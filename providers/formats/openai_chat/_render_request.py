"""Request-level fields written: sampling parameters (clamped to OpenAI's ranges when
converting), ``tools``, ``tool_choice``, and the nulls a converted request leaves out."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.parameters import (
    ParameterSpec,
    default_model,
    write_parallel_calls,
    write_values,
)
from providers.formats._chat_completions.shape import choice_without_tools, unnamed_tool_choice
from providers.formats._kit.drift import report_unsupported_parameters
from providers.formats._kit.wire import tool_definition
from providers.umf import JSON, Conversation, Tool, ToolChoice

from ._constants import DEFAULT_MODEL, NAMESPACE
from ._render_parts import RenderContext, report_foreign_extra

# The documented ranges; values outside them are refused by the API. Written in this
# order, then parallel_tool_calls, the token limit and stop.
_SAMPLING = (
    ParameterSpec("temperature", "temperature", "float", low=0.0, high=2.0),
    ParameterSpec("top_p", "top_p", "float", low=0.0, high=1.0),
    ParameterSpec("frequency_penalty", "frequency_penalty", "float", low=-2.0, high=2.0),
    ParameterSpec("presence_penalty", "presence_penalty", "float", low=-2.0, high=2.0),
    ParameterSpec("seed", "seed", "int"),
    ParameterSpec("user", "user", "str"),
    ParameterSpec("stream", "stream", "bool"),
)
_STOP = (ParameterSpec("stop", "stop", "stop", limit=4),)


def render_parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any]:
    """The request's parameters; what OpenAI cannot take is left out with a warning."""
    parameters, extra = conversation.parameters, conversation.extra
    out: dict[str, Any] = {}
    model = default_model(parameters, DEFAULT_MODEL, ctx, "OpenAI")
    if model is not None:
        out["model"] = model
    out.update(write_values(parameters, _SAMPLING, extra, ctx, "OpenAI"))
    write_parallel_calls(parameters, bool(conversation.tools), out, ctx, "OpenAI")
    if parameters.max_tokens is not None:
        out[NAMESPACE.hint(extra, "max_tokens_key") or "max_completion_tokens"] = (
            parameters.max_tokens
        )
    out.update(write_values(parameters, _STOP, extra, ctx, "OpenAI"))
    report_unsupported_parameters(
        parameters,
        ("top_k",),
        ctx.drift,
        missing="OpenAI Chat has no {key}",
        custom="custom parameter {key!r} is not sent to OpenAI",
    )
    return out


def render_tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    """One tool definition (``{"type": "function", "function": {...}}`` unless custom)."""
    report_foreign_extra(tool.extra, path, ctx.drift)
    kind = NAMESPACE.hint(tool.extra, "type") or "function"
    inner = tool_definition(tool)
    NAMESPACE.put(inner, tool.extra)
    return NAMESPACE.put({"type": kind, kind: inner}, tool.extra, "outer")


def render_tool_choice(choice: ToolChoice, has_tools: bool, ctx: RenderContext) -> JSON:
    """``tool_choice`` as OpenAI spells it, or None when it cannot be sent."""
    report_foreign_extra(choice.extra, "tool_choice", ctx.drift)
    kind = NAMESPACE.hint(choice.extra, "type")
    if choice_without_tools(choice, has_tools, ctx, "OpenAI"):
        return None
    if kind == "allowed_tools":
        return NAMESPACE.put({"type": kind}, choice.extra)
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        return unnamed_tool_choice(ctx, "required")
    key = "custom" if kind == "custom" else "function"
    inner = NAMESPACE.put({"name": choice.name}, choice.extra, "inner")
    return NAMESPACE.put({"type": key, key: inner}, choice.extra)


def strip_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the nulls a read payload kept verbatim (``"tool_calls": null``,
    ``"name": null``...): OpenAI reads a missing optional field the same way, and the SDK
    types refuse several of them as null. An assistant's null content stays: it means
    "no text". Only the request's own containers are touched, never schemas or metadata.
    """
    out = _strip(body)
    out["messages"] = [_strip_message(message) for message in out.get("messages", [])]
    if isinstance(out.get("tools"), list):
        out["tools"] = [_strip_tagged(tool) for tool in out["tools"]]
    return out


def _strip(value: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    return {key: item for key, item in value.items() if item is not None or key in keep}


def _strip_message(message: dict[str, Any]) -> dict[str, Any]:
    out = _strip(message, keep=("content",) if message.get("role") == "assistant" else ())
    for key in ("content", "tool_calls"):
        if isinstance(out.get(key), list):
            out[key] = [_strip_tagged(entry) for entry in out[key]]
    return out


def _strip_tagged(value: Any) -> Any:
    # A part, call or tool: {"type": "x", "x": {...}}, stripped at both levels.
    if not isinstance(value, dict):
        return value
    out = _strip(value)
    inner = out.get(out.get("type", "function"))
    if isinstance(inner, dict):
        out[out.get("type", "function")] = _strip(inner)
    return out
