"""The structural rules of the IR, applied to conversations converted from another format:
seed 001's parameter ranges (``parameter-clamped``), integer parameters from 1 up, tools
with a description and a schema, and an answer with a finish reason."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import clamp_parameter, report_defaulted
from providers.formats.matey_ir._constants import POSITIVE, RANGES
from providers.umf import FinishReason, Message


def fit_parameter(name: str, value: Any, ctx: RenderContext) -> Any:
    """A UMF parameter's value as the IR takes it: clamped into its range, or None (left
    out, ``parameter-normalized``) for a ``max_tokens`` or ``top_k`` below 1 (Cohere's
    ``k: 0`` turns top-k sampling off)."""
    if name in RANGES:
        low, high = RANGES[name]
        why = f"the IR takes {name} from {low} to {high}"
        value = clamp_parameter(value, low, high, ctx.drift, name, why)
    if name in POSITIVE and value < 1:
        ctx.drift.add(
            "parameter-normalized",
            f"the IR takes {name} from 1 up; {value} was left out",
            field=f"parameters.{name}",
            original=value,
        )
        return None
    return value


def default_tool_field(ctx: RenderContext, path: str, value: Any) -> Any:
    """``value`` for a tool's missing description or schema, with a note."""
    report_defaulted(path, value, ctx.drift, "IR tools need a description and a parameter schema")
    return value


def finish_reason(answer: Message, index: int, ctx: RenderContext) -> FinishReason:
    """The answer's finish reason, ``stop`` (with a warning) when it has none."""
    if answer.finish_reason is not None:
        return answer.finish_reason
    report_defaulted(
        f"messages[{index}].finish_reason",
        "stop",
        ctx.drift,
        "an IR response needs a finish reason",
    )
    return "stop"
