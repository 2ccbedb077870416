"""One format's corner of a UMF value's ``extra``: the provider fields kept verbatim, and
the ``$`` layout hints the format leaves for its own renderer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from providers.umf import Extra


def extra_of(format_id: str, fields: Mapping[str, Any]) -> Extra:
    """``fields`` namespaced under ``format_id``, or ``{}`` when there are none."""
    return {format_id: dict(fields)} if fields else {}


def own_extra(extra: Extra, format_id: str) -> dict[str, Any]:
    """The provider fields (not ``$`` hints) kept under ``format_id``, as a new dict."""
    fields = extra.get(format_id)
    if not fields:
        return {}
    return {k: v for k, v in fields.items() if not k.startswith("$")}


def foreign_fields(extra: Extra, format_id: str) -> list[tuple[str, dict[str, Any]]]:
    """``(namespace, fields)`` for every other format's provider fields on a value, by
    namespace; fields that hold nothing (null, empty) are left out, and so are namespaces
    left with nothing. A renderer notes each one: they do not travel to ``format_id``."""
    found = []
    for namespace in sorted(extra):
        if namespace == format_id:
            continue
        fields = {
            k: v
            for k, v in extra[namespace].items()
            if not k.startswith("$") and v not in (None, [], {})
        }
        if fields:
            found.append((namespace, fields))
    return found


def hint(extra: Extra, format_id: str, key: str, default: Any = None) -> Any:
    """A layout hint (``$key``) that ``format_id`` left on a value."""
    fields = extra.get(format_id)
    return default if fields is None else fields.get("$" + key, default)


def with_hints(fields: Mapping[str, Any], **hints: Any) -> dict[str, Any]:
    """``fields`` plus ``$``-prefixed hints, skipping hints that are None."""
    merged = dict(fields)
    for key, value in hints.items():
        if value is not None:
            merged["$" + key] = value
    return merged


def hinted_extra(format_id: str, fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding ``format_id``'s verbatim ``fields`` and its ``$`` layout hints
    (hints given as None are left out), or ``{}`` when there is neither."""
    merged = with_hints(fields, **hints)  # a new dict already: no second copy
    return {format_id: merged} if merged else {}


@dataclass(frozen=True)
class Namespace:
    """One format's corner of ``extra``: verbatim provider fields and ``$`` layout hints."""

    format_id: str

    def extra(self, fields: Mapping[str, Any], **hints: Any) -> Extra:
        """``extra`` holding ``fields`` and the hints that are not None."""
        return extra_of(self.format_id, with_hints(fields, **hints))

    def hint(self, extra: Extra, key: str, default: Any = None) -> Any:
        """The ``$key`` hint this format left on a value."""
        # :func:`hint` itself, one call fewer: this runs for every message and block.
        fields = extra.get(self.format_id)
        return default if fields is None else fields.get("$" + key, default)

    def fields(self, extra: Extra) -> dict[str, Any]:
        """This format's verbatim fields on a value (no hints)."""
        return own_extra(extra, self.format_id)

    def put(self, out: dict[str, Any], extra: Extra, hint_key: str | None = None) -> dict[str, Any]:
        """``out`` plus the verbatim fields (or those kept under ``$hint_key``); what UMF
        itself says wins over a field kept aside."""
        if not extra.get(self.format_id):
            return out  # nothing kept aside (most values): no copy, no loop
        fields = self.hint(extra, hint_key, {}) if hint_key else own_extra(extra, self.format_id)
        for key, value in fields.items():
            out.setdefault(key, value)
        return out

    def add_hints(self, extra: Extra, **hints: Any) -> None:
        """Add hints (those not None) to ``extra`` in place."""
        extra.setdefault(self.format_id, {}).update(with_hints({}, **hints))
