"""Sampling parameters: Ollama keeps them in ``options``; UMF has names for some.

``temperature``, ``top_p``, ``top_k``, ``seed``, ``stop``, ``frequency_penalty`` and
``presence_penalty`` map by name, ``num_predict`` is ``max_tokens`` when positive (``-1``
"no limit" and ``-2`` "fill the context" have no UMF meaning and stay verbatim). Every other
option (``num_ctx``, ``repeat_penalty``...) stays in ``extra["ollama"]["options"]``, and so
does a value of a type UMF cannot hold. ``$int_options`` lists float options written as
integers (``0``, not ``0.0``) so that they come back the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats.base import FormatError
from providers.umf import Conversation, Parameters

from ._shared import Context, Fields, fields_of, get_hint, is_int, is_number, item

_FLOATS = ("temperature", "top_p", "frequency_penalty", "presence_penalty")
_INTEGERS = ("top_k", "seed")
# Parameters with no Ollama option at all.
_UNSUPPORTED = ("user", "parallel_tool_calls")


def parse_options(fields: Fields) -> tuple[Parameters, dict[str, Any]]:
    """The UMF parameters inside a request's ``options`` (the rest put back verbatim into
    ``fields``) and the layout hints they need."""
    options = fields.mapping("options")
    if options is None:
        return Parameters(), {}
    reader = Fields(options, fields.at("options"))
    values: dict[str, Any] = {}
    for key in _FLOATS:
        _take_number(reader, key, values, _fits_float)
    for key in (*_INTEGERS, "num_predict"):
        _take_number(reader, key, values, is_int)
    if "num_predict" in values:
        limit = values.pop("num_predict")
        if limit > 0:
            values["max_tokens"] = limit
        else:
            reader.keep("num_predict", limit)
    stop = reader.array("stop")
    if stop is not None:
        for index, sequence in enumerate(stop):
            if not isinstance(sequence, str):
                raise FormatError(
                    "stop sequences are strings", field=item(reader.at("stop"), index)
                )
        values["stop"] = stop
    fields.keep("options", reader.rest)
    ints = [key for key in _FLOATS if is_int(values.get(key))]
    return Parameters(**values), ({"$int_options": ints} if ints else {})


def _fits_float(value: float) -> bool:
    try:
        return float(value) == value
    except OverflowError:
        return False


def _take_number(
    reader: Fields, key: str, values: dict[str, Any], fits: Callable[[Any], bool]
) -> None:
    """Move a numeric option into ``values`` when UMF can hold it exactly; one it cannot
    (``40.0`` for an integer, an integer no float holds) stays verbatim."""
    value = reader.rest.get(key)
    if value is None:
        return
    if not is_number(value):
        raise FormatError(f"option {key!r} must be a number", field=reader.at(key))
    if fits(value):
        values[key] = reader.take(key)


def render_options(conversation: Conversation) -> dict[str, Any] | None:
    """The ``options`` object to send, or None to leave the key to the verbatim fields
    (absent, or an explicit null read from an Ollama payload)."""
    parameters = conversation.parameters
    kept = fields_of(conversation.extra).get("options")
    out: dict[str, Any] = dict(kept) if isinstance(kept, dict) else {}
    ints = get_hint(conversation.extra, "int_options", [])
    for key in _FLOATS:
        value = getattr(parameters, key)
        if value is not None:
            out[key] = int(value) if key in ints and float(value).is_integer() else value
    for key in _INTEGERS:
        if getattr(parameters, key) is not None:
            out[key] = getattr(parameters, key)
    if parameters.max_tokens is not None:
        out["num_predict"] = parameters.max_tokens
    if parameters.stop is not None:
        out["stop"] = parameters.stop
    return out if out or isinstance(kept, dict) else None


def report_unsupported_parameters(conversation: Conversation, ctx: Context) -> None:
    """Warn for each parameter Ollama has no option for."""
    parameters = conversation.parameters
    for key in _UNSUPPORTED:
        value = getattr(parameters, key)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"Ollama has no {key}; left out",
                field=f"parameters.{key}",
                original=value,
            )
    for key, value in parameters.custom.items():
        ctx.drift.add(
            "parameter-unsupported",
            f"custom parameter {key!r} is not an Ollama option; left out",
            field=f"parameters.custom.{key}",
            original=value,
        )
