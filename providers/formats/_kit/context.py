"""What one render carries everywhere: the format's ``extra`` namespace and its label for
warnings, the warnings themselves, and whether the conversation is written back as the
document this format read (``faithful``) or converted into a request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from providers.formats._kit.extra import Namespace
from providers.formats.base import Drift


@dataclass
class RenderContext:
    """One render. Formats that carry more through a render (names already sent) subclass
    it with their own fields."""

    ns: Namespace
    label: str
    drift: Drift
    faithful: bool
    _numbers: dict[str, int] = field(default_factory=dict)

    def number(self, what: str) -> int:
        """The next number (from 1) for a default name of ``what`` made up in this render
        (``document-1``, ``document-2``...)."""
        self._numbers[what] = self._numbers.get(what, 0) + 1
        return self._numbers[what]

    @classmethod
    def create(cls, ns: Namespace, label: str, *, faithful: bool) -> Self:
        """A fresh context with its own warnings."""
        return cls(ns, label, Drift(ns.format_id), faithful)
