"""Paths, field reading, the ``extra`` namespace and the render context the chat-like
formats share."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from providers.formats._common import (
    ToolIdMap,
    extra_of,
    hint,
    own_extra,
    report_foreign_fields,
    with_hints,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Block, Extra, MediaSource

# --------------------------------------------------------------------------- paths and fields


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base`` (``messages[2]`` + ``content``)."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def is_int(value: JSON) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: JSON) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def require(value: JSON, check: Callable[[JSON], bool], what: str, path: str) -> Any:
    """``value`` when ``check`` accepts it, else a :class:`FormatError` for ``path``."""
    if not check(value):
        raise FormatError(f"expected {what}", field=path)
    return value


@dataclass(frozen=True)
class Namespace:
    """One format's corner of ``extra``: verbatim provider fields and ``$`` layout hints."""

    format_id: str

    def extra(self, fields: Mapping[str, Any], **hints: Any) -> Extra:
        """``extra`` holding ``fields`` and the hints that are not None."""
        return extra_of(self.format_id, with_hints(fields, **hints))

    def hint(self, extra: Extra, key: str, default: Any = None) -> Any:
        """The ``$key`` hint this format left on a value."""
        return hint(extra, self.format_id, key, default)

    def fields(self, extra: Extra) -> dict[str, Any]:
        """This format's verbatim fields on a value (no hints)."""
        return own_extra(extra, self.format_id)

    def put(self, out: dict[str, Any], extra: Extra, hint_key: str | None = None) -> dict[str, Any]:
        """``out`` plus the verbatim fields (or those kept under ``$hint_key``); what UMF
        itself says wins over a field kept aside."""
        fields = self.hint(extra, hint_key, {}) if hint_key else self.fields(extra)
        for key, value in fields.items():
            out.setdefault(key, value)
        return out

    def add_hints(self, extra: Extra, **hints: Any) -> None:
        """Add hints (those not None) to ``extra`` in place."""
        extra.setdefault(self.format_id, {}).update(with_hints({}, **hints))


@dataclass
class Context:
    """One render: its format, warnings, and whether the conversation is written back as
    the document this format read (``faithful``) or converted into a request."""

    ns: Namespace
    label: str
    drift: Drift
    faithful: bool

    @classmethod
    def create(cls, ns: Namespace, label: str, *, faithful: bool) -> Context:
        """A fresh context with its own warnings."""
        return cls(ns, label, Drift(ns.format_id), faithful)


def report_foreign_extra(extra: Extra, path: str, ctx: Context) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value."""
    report_foreign_fields(
        extra, path, ctx.drift, ctx.ns.format_id, ctx.label, tail=" and are not sent"
    )


def describe(block: Block) -> dict[str, Any]:
    """What a warning says about a moved or dropped block (never media bytes)."""
    out: dict[str, Any] = {"type": block.type}
    source = getattr(block, "source", None)
    if isinstance(source, MediaSource):
        out["source"] = source.model_dump(exclude_none=True, exclude={"data"})
    for key in ("title", "filename"):
        if getattr(block, key, None) is not None:
            out[key] = getattr(block, key)
    return out


def mark_error(content: Any, path: str, ctx: Context) -> Any:
    """A tool result's wire content with its error flag said in the text (these APIs have
    no flag): ``capability-unsupported``."""
    if isinstance(content, list):
        marked: Any = [{"type": "text", "text": "Error:"}, *content]
    else:
        marked = f"Error: {content}" if content else "Error"
    ctx.drift.add(
        "capability-unsupported",
        f"{ctx.label} tool results have no error flag; the error is said in the text",
        field=at(path, "is_error"),
        original=True,
        transformed=marked,
    )
    return marked


class CallIds:
    """Wire ids for tool calls: fitted to the target by a :class:`ToolIdMap`, and unique
    within one request (a reused id gets a fresh one)."""

    def __init__(self, drift: Drift, valid: Callable[[str], bool], make: Callable[[str], str]):
        self._drift, self._make = drift, make
        self._map = ToolIdMap(drift, valid, make)
        self._used: set[str] = set()

    def claim(self, original: str, path: str) -> str:
        """The id the call at ``path`` (originally ``original``) goes out with."""
        new = self._map(original, path)
        salt = 0
        while new in self._used:
            salt += 1
            new = self._make(hashlib.sha256(f"{original}#{salt}".encode()).hexdigest())
        if salt:
            self._drift.add(
                "id-rewritten",
                "tool call id already used in this request; made unique",
                field=path,
                original=original,
                transformed=new,
                severity="info",
            )
        self._used.add(new)
        return new
