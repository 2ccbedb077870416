"""Request-level fields written: sampling parameters (clamped to OpenAI's ranges when
converting), ``tools``, ``tool_choice``, and the nulls a converted request leaves out."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.parameters import default_model, write_parallel_calls
from providers.formats._chat_completions.shape import choice_without_tools, unnamed_tool_choice
from providers.formats._kit.drift import report_unsupported_parameters
from providers.umf import JSON, Conversation, Parameters, Tool, ToolChoice

from ._constants import DEFAULT_MODEL, FLOAT_PARAMETERS, NAMESPACE
from ._render_parts import RenderContext, report_foreign_extra

# The documented ranges; values outside them are refused by the API.
_RANGES = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "frequency_penalty": (-2.0, 2.0),
    "presence_penalty": (-2.0, 2.0),
}


_MAX_STOP_SEQUENCES = 4


def render_parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any]:
    """The request's parameters; what OpenAI cannot take is left out with a warning."""
    parameters, extra = conversation.parameters, conversation.extra
    out: dict[str, Any] = {}
    model = default_model(parameters, DEFAULT_MODEL, ctx, "OpenAI")
    if model is not None:
        out["model"] = model
    _render_floats(parameters, out, NAMESPACE.hint(extra, "int_parameters", []), ctx)
    for key in ("seed", "user", "stream"):
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    write_parallel_calls(parameters, bool(conversation.tools), out, ctx, "OpenAI")
    if parameters.max_tokens is not None:
        out[NAMESPACE.hint(extra, "max_tokens_key") or "max_completion_tokens"] = (
            parameters.max_tokens
        )
    _render_stop(parameters.stop, NAMESPACE.hint(extra, "stop"), out, ctx)
    report_unsupported_parameters(
        parameters,
        ("top_k",),
        ctx.drift,
        missing="OpenAI Chat has no {key}",
        custom="custom parameter {key!r} is not sent to OpenAI",
    )
    return out


def _render_floats(
    parameters: Parameters, out: dict[str, Any], ints: list[str], ctx: RenderContext
) -> None:
    for key in FLOAT_PARAMETERS:
        value = getattr(parameters, key)
        if value is None:
            continue
        low, high = _RANGES[key]
        if not ctx.faithful and not low <= value <= high:
            clamped = min(max(value, low), high)
            ctx.drift.add(
                "parameter-clamped",
                f"OpenAI takes {key} between {low} and {high}",
                field=f"parameters.{key}",
                original=value,
                transformed=clamped,
            )
            value = clamped
        out[key] = int(value) if key in ints and float(value).is_integer() else value


def _render_stop(
    stop: list[str] | None, stop_hint: str | None, out: dict[str, Any], ctx: RenderContext
) -> None:
    if stop is None:
        return
    if not ctx.faithful and len(stop) > _MAX_STOP_SEQUENCES:
        kept = stop[:_MAX_STOP_SEQUENCES]
        ctx.drift.add(
            "stop-sequences-truncated",
            f"OpenAI takes at most {_MAX_STOP_SEQUENCES} stop sequences",
            field="parameters.stop",
            original=stop,
            transformed=kept,
        )
        stop = kept
    out["stop"] = stop[0] if stop_hint == "string" and len(stop) == 1 else stop


def render_tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    """One tool definition (``{"type": "function", "function": {...}}`` unless custom)."""
    report_foreign_extra(tool.extra, path, ctx.drift)
    kind = NAMESPACE.hint(tool.extra, "type") or "function"
    inner: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        inner["description"] = tool.description
    if tool.parameters is not None:
        inner["parameters"] = tool.parameters
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
