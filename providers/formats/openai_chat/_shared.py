"""Names, paths, checks and the render context that the openai-chat modules share."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from providers.formats._common import (
    ToolIdMap,
    hint,
    hinted_extra,
    own_extra,
    report_foreign_fields,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Extra

FORMAT_ID = "openai-chat"

# Filled in when a conversation from another format names no model (OpenAI requires one).
DEFAULT_MODEL = "gpt-4o-mini"

# OpenAI rejects tool-call ids longer than 40 characters; keep to the safe alphabet too.
_TOOL_CALL_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base`` (``messages[2]`` + ``content``)."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def make_extra(fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding this format's unknown ``fields`` and its ``$`` layout hints
    (hints given as None are left out)."""
    return hinted_extra(FORMAT_ID, fields, **hints)


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def fields_of(extra: Extra) -> dict[str, Any]:
    """This format's verbatim provider fields on a value (its ``$`` hints left out)."""
    return own_extra(extra, FORMAT_ID)


def put_fields(out: dict[str, Any], extra: Extra, hint_key: str | None = None) -> dict[str, Any]:
    """Add this format's verbatim fields (or those kept under the ``$hint_key`` hint) to
    ``out``; what UMF itself says wins over a field kept aside."""
    fields = get_hint(extra, hint_key, {}) if hint_key else fields_of(extra)
    for key, value in fields.items():
        out.setdefault(key, value)
    return out


def is_int(value: JSON) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(value: JSON, field: str) -> int:
    """``value`` if it is an integer, else a :class:`FormatError` for ``field``."""
    if not is_int(value):
        raise FormatError("expected an integer", field=field)
    return int(value)


def require_number(value: JSON, field: str) -> float:
    """``value`` if it is a number, else a :class:`FormatError` for ``field``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise FormatError("expected a number", field=field)
    return value


def require_bool(value: JSON, field: str) -> bool:
    """``value`` if it is a boolean, else a :class:`FormatError` for ``field``."""
    if not isinstance(value, bool):
        raise FormatError("expected a boolean", field=field)
    return value


def valid_tool_call_id(value: str) -> bool:
    """Whether OpenAI accepts ``value`` as a tool-call id."""
    return _TOOL_CALL_ID.fullmatch(value) is not None


def make_tool_call_id(digest: str) -> str:
    """A valid tool-call id built from a hash (``call_`` and 24 hex digits)."""
    return f"call_{digest[:24]}"


@dataclass
class RenderContext:
    """What one render carries along: where warnings go, and whether to write the
    conversation as the document it was (``faithful``: an openai-chat payload read back,
    kept exactly even where OpenAI would refuse it) or as a request OpenAI accepts."""

    drift: Drift
    faithful: bool
    ids: ToolIdMap

    @classmethod
    def create(cls, *, faithful: bool) -> RenderContext:
        """A fresh context with its own warnings and tool-call id map."""
        drift = Drift(FORMAT_ID)
        return cls(drift, faithful, ToolIdMap(drift, valid_tool_call_id, make_tool_call_id))


def report_foreign_extra(extra: Extra, path: str, drift: Drift) -> None:
    """One ``field-unknown`` (info) warning per other format's fields on a value: they
    belong to that format and never travel into an OpenAI request."""
    report_foreign_fields(extra, path, drift, FORMAT_ID, "OpenAI Chat", with_empty=True)
