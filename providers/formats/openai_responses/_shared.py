"""Names, paths, checks and the render context that the openai-responses modules share."""

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
    refuse_kept_name,
    refuse_reserved_names,
    report_foreign_fields,
    with_hints,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Extra

FORMAT_ID = "openai-responses"

# Filled in (``parameter-defaulted``) when a conversation from another format names no model.
DEFAULT_MODEL = "gpt-5-mini"

# Items this format cannot name (hosted-tool calls, item references, unknown item types)
# and hosted tools are kept verbatim, with their position, in these extra fields:
# ``[{"at": index, "item": {...}}]`` / ``[{"at": index, "tool": {...}}]``. Fields, not ``$``
# hints, so that other formats list them among the fields they cannot carry.
UNMAPPED_ITEMS = "unmapped_items"
UNMAPPED_TOOLS = "unmapped_tools"
_UNMAPPED = (UNMAPPED_ITEMS, UNMAPPED_TOOLS)

# Call ids: OpenAI's alphabet, and a length every OpenAI API takes.
_CALL_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Item ids: letters, digits, _ and - only, behind the prefix of the item's type.
_ITEM_ID = re.compile(r"[A-Za-z0-9_-]+")


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base`` (``input[2]`` + ``content``)."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def plain(raw: JSON, path: str) -> dict[str, Any]:
    """``raw`` as an object whose keys cannot be mistaken for this format's ``$`` hints or
    its own ``unmapped_*`` fields (which renderers put back as items or tools, never as
    fields: a provider field of that name would vanish)."""
    if not isinstance(raw, dict):
        kind = "an array" if isinstance(raw, list) else "null" if raw is None else "a scalar"
        raise FormatError(f"expected an object, got {kind}", field=path or "payload")
    refuse_reserved_names(raw, path)
    for name in _UNMAPPED:
        refuse_kept_name(raw, name, path)
    return raw


def make_extra(fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding this format's verbatim ``fields`` and its ``$`` layout hints
    (hints given as None are left out)."""
    return hinted_extra(FORMAT_ID, fields, **hints)


def add_hints(extra: Extra, **hints: Any) -> None:
    """Add ``$`` layout hints (None ones left out) to this format's part of ``extra``."""
    extra.setdefault(FORMAT_ID, {}).update(with_hints({}, **hints))


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def fields_of(extra: Extra) -> dict[str, Any]:
    """This format's verbatim provider fields on a value (hints and unmapped entries left out)."""
    return {k: v for k, v in own_extra(extra, FORMAT_ID).items() if k not in _UNMAPPED}


def put_fields(out: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """Add verbatim ``fields`` to ``out``; what UMF itself says wins over a field kept aside."""
    for key, value in fields.items():
        out.setdefault(key, value)
    return out


def unmapped(extra: Extra, key: str = UNMAPPED_ITEMS) -> list[dict[str, Any]]:
    """The verbatim entries kept under ``key`` (see :data:`UNMAPPED_ITEMS`), well formed only."""
    entries = extra.get(FORMAT_ID, {}).get(key)
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("at"), int)]


def is_int(value: JSON) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: JSON) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def valid_call_id(value: str) -> bool:
    """Whether OpenAI takes ``value`` as a ``call_id``."""
    return _CALL_ID.fullmatch(value) is not None


def make_call_id(digest: str) -> str:
    """A valid call id built from a hash (``call_`` and 24 hex digits)."""
    return f"call_{digest[:24]}"


def valid_item_id(value: JSON, prefix: str) -> bool:
    """Whether ``value`` is an item id the API takes for an item whose ids start ``prefix``
    (``fc`` for function calls, ``rs`` reasoning, ``msg`` messages...)."""
    return (
        isinstance(value, str)
        and value.startswith(prefix)
        and _ITEM_ID.fullmatch(value) is not None
    )


@dataclass
class RenderContext:
    """What one render carries along: where warnings go, and whether to write the
    conversation as the document it was (``faithful``: an openai-responses payload read
    back, kept exactly even where the API would refuse it) or as a request the API accepts."""

    drift: Drift
    faithful: bool
    ids: ToolIdMap

    @classmethod
    def create(cls, *, faithful: bool) -> RenderContext:
        """A fresh context with its own warnings and call-id map."""
        drift = Drift(FORMAT_ID)
        return cls(drift, faithful, ToolIdMap(drift, valid_call_id, make_call_id))


def report_foreign_extra(extra: Extra, path: str, drift: Drift) -> None:
    """One ``field-unknown`` (info) warning per other format's fields on a value: they
    belong to that format and never travel into a Responses request. Fields that hold
    nothing (null, empty) are not worth a note."""
    report_foreign_fields(
        extra, path, drift, FORMAT_ID, "OpenAI Responses", tail=" and are not sent"
    )
