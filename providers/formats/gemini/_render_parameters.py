"""UMF parameters -> ``generationConfig``, and the parameters Gemini cannot take."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import clamp_parameter, report_unsupported_parameters
from providers.formats._kit.extra import own_extra
from providers.formats.gemini._constants import (
    FORMAT_ID,
    GENERATION_KEYS,
    MAX_STOP_SEQUENCES,
    TEMPERATURE_RANGE,
    TOP_P_RANGE,
)
from providers.formats.gemini._render_parts import Context
from providers.umf import Conversation, Severity

_RANGES = {"temperature": TEMPERATURE_RANGE, "top_p": TOP_P_RANGE}


def generation_config(conversation: Conversation, ctx: Context) -> tuple[bool, Any]:
    """``(present, value)`` of ``generationConfig``: the sampling parameters over the
    fields kept from a Gemini payload (``thinkingConfig``, ``responseMimeType``...)."""
    own = own_extra(conversation.extra, FORMAT_ID)
    kept = own.get("generationConfig")
    mapped: dict[str, Any] = {}
    for name, key in GENERATION_KEYS.items():
        value = getattr(conversation.parameters, name)
        if value is not None:
            mapped[key] = value if ctx.faithful else _fitted(name, value, ctx)
    if not mapped:
        return "generationConfig" in own, kept
    return True, {**(kept if isinstance(kept, dict) else {}), **mapped}


def _fitted(name: str, value: Any, ctx: Context) -> Any:
    """A parameter within Gemini's limits (each change noted)."""
    if name == "stop" and len(value) > MAX_STOP_SEQUENCES:
        ctx.drift.add(
            "stop-sequences-truncated",
            f"Gemini takes at most {MAX_STOP_SEQUENCES} stop sequences; the rest were left out",
            field="parameters.stop",
            original=value,
            transformed=value[:MAX_STOP_SEQUENCES],
        )
        return value[:MAX_STOP_SEQUENCES]
    if name in _RANGES:
        low, high = _RANGES[name]
        return clamp_parameter(
            value, low, high, ctx.drift, name, f"Gemini takes {name} from {low} to {high}"
        )
    return value


def warn_unsupported(conversation: Conversation, ctx: Context) -> None:
    """Parameters a generateContent body has no field for."""
    params = conversation.parameters
    reasons: dict[str, tuple[str, Severity]] = {
        "user": ("Gemini has no end-user id", "warning"),
        "parallel_tool_calls": ("Gemini has no switch for parallel function calls", "warning"),
        "stream": ("Gemini streams by endpoint (streamGenerateContent), not by a field", "info"),
    }
    if not ctx.faithful:
        reasons["model"] = ("the Gemini model is part of the URL, not of the body", "info")
    for name, (why, severity) in reasons.items():
        value = getattr(params, name)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"{why}; left out",
                field=f"parameters.{name}",
                original=value,
                severity=severity,
            )
    report_unsupported_parameters(
        params,
        (),
        ctx.drift,
        missing="",
        custom="custom parameter {key!r} is not a Gemini parameter; left out",
    )
