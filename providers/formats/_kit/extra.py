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


def put_fields(out: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """``out`` plus fields kept verbatim; what UMF itself says wins over a field kept aside."""
    for key, value in fields.items():
        out.setdefault(key, value)
    return out


@dataclass(frozen=True)
class Namespace:
    """One format's corner of ``extra``: verbatim provider fields and ``$`` layout hints.
    ``kept`` names the fields the format itself keeps there (what UMF has no place for,
    such as items with their positions): they are not provider fields of the value, and
    :meth:`fields` and :meth:`put` leave them out."""

    format_id: str
    kept: tuple[str, ...] = ()

    def extra(self, fields: Mapping[str, Any], **hints: Any) -> Extra:
        """``extra`` holding ``fields`` and the hints that are not None."""
        return hinted_extra(self.format_id, fields, **hints)

    def hint(self, extra: Extra, key: str, default: Any = None) -> Any:
        """The ``$key`` hint this format left on a value."""
        return hint(extra, self.format_id, key, default)

    def fields(self, extra: Extra) -> dict[str, Any]:
        """This format's verbatim fields on a value (no hints, none of :attr:`kept`)."""
        fields = own_extra(extra, self.format_id)
        if self.kept:  # the common case has none: no loop on every value
            for name in self.kept:
                fields.pop(name, None)
        return fields

    def put(self, out: dict[str, Any], extra: Extra, hint_key: str | None = None) -> dict[str, Any]:
        """``out`` plus the verbatim fields (or those kept under ``$hint_key``); what UMF
        itself says wins over a field kept aside."""
        fields = self.hint(extra, hint_key, {}) if hint_key else self.fields(extra)
        # put_fields's loop, inline: this runs for every value a render writes.
        for key, value in fields.items():
            out.setdefault(key, value)
        return out

    def unmapped(self, extra: Extra, name: str) -> list[dict[str, Any]]:
        """The entries kept under ``name`` (one of :attr:`kept`): what UMF has no place
        for, each with its position, ``[{"at": 2, "item": {...}}]``; well formed only."""
        entries = extra.get(self.format_id, {}).get(name)
        if not isinstance(entries, list):
            return []
        return [e for e in entries if isinstance(e, dict) and isinstance(e.get("at"), int)]

    def put_back(self, values: list[Any], extra: Extra, name: str, what: str) -> list[Any]:
        """``values`` with the objects kept under ``name`` (as ``what``) back at their
        positions."""
        out = list(values)
        for entry in self.unmapped(extra, name):
            if isinstance(entry.get(what), dict):
                out.insert(min(entry["at"], len(out)), entry[what])
        return out

    def add_hints(self, extra: Extra, **hints: Any) -> None:
        """Add hints (those not None) to ``extra`` in place."""
        extra.setdefault(self.format_id, {}).update(with_hints({}, **hints))
