"""Sampling parameters: read with their JSON spelling kept, written back clamped."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import (
    clamp_parameter,
    report_parameters_dropped,
    report_unsupported_parameters,
)
from providers.formats._kit.paths import at, is_int, is_number, item, require
from providers.umf import JSON, Extra, Parameters

# --------------------------------------------------------------------------- parameters

# The sampling parameters most chat APIs take (a format's capabilities: what it can hold).
SAMPLING: frozenset[str] = frozenset(
    {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
    | {"frequency_penalty", "presence_penalty", "stream"}
)
# The roles of the thread these APIs take (:func:`.turns.linearize`).
THREAD_ROLES: frozenset[str] = frozenset({"system", "user", "assistant", "tool"})

Kind = Literal["str", "int", "float", "bool", "stop", "strings"]


@dataclass(frozen=True)
class ParameterSpec:
    """One sampling parameter: its wire name, UMF name, JSON kind and accepted range
    (``limit``: the most items a list may hold)."""

    wire: str
    umf: str
    kind: Kind
    low: float | None = None
    high: float | None = None
    limit: int | None = None


_CHECKS: dict[str, tuple[Callable[[JSON], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "int": (is_int, "an integer"),
    "float": (is_number, "a number"),
    "bool": (lambda v: isinstance(v, bool), "a boolean"),
}


def read_parameters(
    fields: dict[str, Any], specs: Iterable[ParameterSpec], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields.

    Hints: ``int_parameters`` (float parameters written as integers), ``stop: string``
    (one stop string rather than a list). A number no float can hold stays verbatim.
    """
    values: dict[str, Any] = {}
    hints: dict[str, Any] = {"int_parameters": []}
    kept: dict[str, Any] = {}
    for spec in specs:
        if spec.wire not in fields:
            continue
        value, path = fields[spec.wire], at(base, spec.wire)
        if spec.kind in ("stop", "strings"):
            values[spec.umf] = _read_stop(value, path, spec.kind, hints)
            continue
        require(value, *_CHECKS[spec.kind], path)
        if spec.kind == "float" and float(value) != value:
            kept[spec.wire] = value
            continue
        if spec.kind == "float" and is_int(value):
            hints["int_parameters"].append(spec.wire)
        values[spec.umf] = value
    hints["int_parameters"] = hints["int_parameters"] or None
    return Parameters(**values), hints, kept


def _read_stop(value: JSON, path: str, kind: str, hints: dict[str, Any]) -> list[str]:
    if kind == "stop" and isinstance(value, str):
        hints["stop"] = "string"
        return [value]
    sequences = require(value, lambda v: isinstance(v, list), "an array", path)
    for index, sequence in enumerate(sequences):
        require(sequence, lambda v: isinstance(v, str), "a string", item(path, index))
    return list(sequences)


def integer(value: JSON, path: str) -> Any:
    """``value`` if it is an integer, else a :class:`FormatError` for ``path``."""
    return require(value, is_int, "an integer", path)


def number(value: JSON, path: str) -> Any:
    """``value`` if it is a number, else a :class:`FormatError` for ``path``."""
    return require(value, is_number, "a number", path)


def read_checked(
    fields: dict[str, Any],
    base: str,
    checks: Mapping[str, Callable[[JSON, str], Any]],
    floats: tuple[str, ...],
) -> tuple[dict[str, Any], dict[str, Any], list[str] | None]:
    """For a format that reads its parameters field by field (OpenAI's): ``(the values of
    the fields ``checks`` names, each checked, fields kept verbatim, the ``int_parameters``
    hint)``. Of the ``floats``, one no float can hold (absurd, but valid JSON) is kept
    verbatim, and the hint lists those written as integers."""
    values = {
        key: check(fields[key], at(base, key)) for key, check in checks.items() if key in fields
    }
    kept = {
        key: values.pop(key)
        for key in floats
        if key in values and float(values[key]) != values[key]
    }
    return values, kept, [key for key in floats if is_int(values.get(key))] or None


def write_parameters(
    parameters: Parameters, specs: Iterable[ParameterSpec], extra: Extra, ctx: Context
) -> dict[str, Any]:
    """The parameters as the request spells them (out-of-range values clamped unless
    faithful) and a ``parameter-unsupported`` warning for each one the target lacks."""
    specs = tuple(specs)
    out = write_values(parameters, specs, extra, ctx)
    covered = {spec.umf for spec in specs}
    unsupported = [
        key
        for key in parameters.model_dump(exclude_defaults=True)
        if key not in covered and key not in ("custom", "model")
    ]
    report_unsupported_parameters(
        parameters,
        unsupported,
        ctx.drift,
        missing=f"{ctx.label} has no {{key}}; left out",
        custom=f"custom parameter {{key!r}} is not a {ctx.label} parameter; left out",
    )
    return out


def write_values(
    parameters: Parameters,
    specs: Iterable[ParameterSpec],
    extra: Extra,
    ctx: Context,
    provider: str | None = None,
) -> dict[str, Any]:
    """The parameters of ``specs`` as the request spells them, out-of-range values clamped
    and stop sequences cut to the limit unless faithful; ``provider`` names who takes them
    (the format's label unless given)."""
    out: dict[str, Any] = {}
    ints = ctx.ns.hint(extra, "int_parameters") or []
    who = provider or ctx.label
    for spec in specs:
        value = getattr(parameters, spec.umf)
        if value is None:
            continue
        if spec.kind in ("stop", "strings"):
            out[spec.wire] = _write_stop(value, spec, ctx.ns.hint(extra, "stop"), ctx, who)
            continue
        if spec.kind in ("int", "float") and not ctx.faithful:
            value = _clamp(value, spec, ctx, who)
        if spec.kind == "float" and spec.wire in ints and float(value).is_integer():
            value = int(value)
        out[spec.wire] = value
    return out


def _clamp(value: float, spec: ParameterSpec, ctx: Context, who: str) -> float:
    low = spec.low if spec.low is not None else -math.inf
    high = spec.high if spec.high is not None else math.inf
    why = f"{who} takes {spec.wire} between {spec.low} and {spec.high}"
    clamped = clamp_parameter(value, low, high, ctx.drift, spec.umf, why)
    return int(clamped) if spec.kind == "int" else clamped


def _write_stop(
    stop: list[str], spec: ParameterSpec, stop_hint: Any, ctx: Context, who: str
) -> Any:
    if not ctx.faithful and spec.limit is not None and len(stop) > spec.limit:
        kept = stop[: spec.limit]
        ctx.drift.add(
            "stop-sequences-truncated",
            f"{who} takes at most {spec.limit} stop sequences",
            field=f"parameters.{spec.umf}",
            original=stop,
            transformed=kept,
        )
        stop = kept
    return stop[0] if stop_hint == "string" and len(stop) == 1 else stop


def default_model(
    parameters: Parameters,
    default: str,
    ctx: Context,
    provider: str | None = None,
    *,
    why: str | None = None,
) -> str | None:
    """The model to send: the conversation's, else (none or an empty name) ``default``
    (``parameter-defaulted``) when converting; as read when rendering faithfully.
    ``provider`` names who requires one (the format's label unless given); ``why`` is
    the warning in a format's own words, when it has them."""
    if parameters.model or ctx.faithful:
        return parameters.model
    ctx.drift.add(
        "parameter-defaulted",
        why or f"{provider or ctx.label} requires a model; the default one was filled in",
        field="parameters.model",
        original=parameters.model,
        transformed=default,
    )
    return default


def write_parallel_calls(
    parameters: Parameters, has_tools: bool, out: dict[str, Any], ctx: Context, provider: str
) -> None:
    """``parallel_tool_calls`` into ``out``; left out of a converted request without tools
    (``parameter-unsupported``: ``provider`` takes it only with tools)."""
    if parameters.parallel_tool_calls is None:
        return
    if has_tools or ctx.faithful:
        out["parallel_tool_calls"] = parameters.parallel_tool_calls
        return
    dropped = {"parallel_tool_calls": parameters.parallel_tool_calls}
    report_parameters_dropped(dropped, ctx.drift, f"{provider} takes {{key}} only with tools")
