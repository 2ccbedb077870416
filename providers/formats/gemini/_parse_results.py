"""Tool results <-> ``functionResponse.response``, which must be a JSON object.

One rule both ways, so that a result read from Gemini and written back needs no hint in the
common cases: a result whose text is a JSON object is sent as that object; any other text
is wrapped as ``{"output": text}``, and an error as ``{"error": ...}`` (the convention of
Gemini's documentation). Reading inverts it: ``{"output": x}`` / ``{"error": x}`` give the
text of ``x`` (and the error flag), any other object its JSON text.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from providers.formats._kit.wire import dump_arguments, parse_object


def response_object(text: str, is_error: bool | None) -> tuple[dict[str, Any], bool]:
    """``(response, wrapped)``: the object to send for a result's text, and whether the
    text had to be wrapped (it was not a JSON object, or it reports an error)."""
    decoded = parse_object(text)
    value: Any = text if decoded is None else decoded
    if isinstance(value, dict) and not is_error:
        return value, False
    return {"error" if is_error else "output": value}, True


def result_text(response: dict[str, Any]) -> tuple[str, bool | None]:
    """``(text, is_error)`` of a ``functionResponse.response``."""
    value: Any = response
    is_error: bool | None = None
    if len(response) == 1 and "error" in response:
        value, is_error = response["error"], True
    elif len(response) == 1 and "output" in response:
        value = response["output"]
    return (value if isinstance(value, str) else compact_json(value)), is_error


def compact_json(value: Any) -> str:
    """Compact JSON text of any JSON value, including integers too big for orjson."""
    try:
        return dump_arguments(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
