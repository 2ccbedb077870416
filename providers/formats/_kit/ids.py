"""Ids and names fitted to a target's rules, the same way every time: tool-call ids
(:class:`ToolIdMap`, :class:`CallIds`), tool names (:class:`ToolNames`), and the two ways
a taken id is made unique (:func:`salted_id`, :func:`suffixed`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Container

from providers.formats.base import Drift


def report_rewritten(drift: Drift, why: str, field: str, original: str, new: str | None) -> None:
    """The ``id-rewritten`` note (info) for an id or name written as ``new`` (None: left
    out) instead of ``original``, ``why`` saying why in the target's words."""
    drift.add("id-rewritten", why, field=field, original=original, transformed=new, severity="info")


def report_synthesized(drift: Drift, why: str, field: str, new: str) -> None:
    """The ``id-synthesized`` note (info) for an id the payload lacks, read as ``new`` (made
    up, or the open call a result was paired with), ``why`` saying how in the source's words."""
    drift.add("id-synthesized", why, field=field, transformed=new, severity="info")


def call_id_from_hash(digest: str) -> str:
    """A tool call id built from a (hex) hash: ``call_`` and its first 24 digits, an id every
    OpenAI-like target takes."""
    return f"call_{digest[:24]}"


def full_match(pattern: str) -> Callable[[str], bool]:
    """A target's id rule: whether a whole id matches ``pattern``."""
    compiled = re.compile(pattern)
    return lambda value: compiled.fullmatch(value) is not None


def salted_id(original: str, make: Callable[[str], str], taken: Container[str]) -> str:
    """The first id ``make`` builds from the hash of ``original#1``, ``original#2``... that
    is not ``taken``: a fresh id for a call whose id is used already, the same every time."""
    salt = 1
    while (new := make(hashlib.sha256(f"{original}#{salt}".encode()).hexdigest())) in taken:
        salt += 1
    return new


def suffixed(candidate: str, used: set[str]) -> str:
    """``candidate``, or ``candidate_1``, ``candidate_2``... the first not ``used``; it is
    added to ``used``."""
    new, salt = candidate, 0
    while new in used:
        salt += 1
        new = f"{candidate}_{salt}"
    used.add(new)
    return new


class ToolIdMap:
    """Rewrites tool-call ids that the target rejects, the same way every time.

    ``valid`` says whether the target accepts an id; ``make`` builds a valid id from a hash.
    The same original always gives the same new id, so calls and their results stay paired.
    """

    def __init__(
        self,
        drift: Drift,
        valid: Callable[[str], bool],
        make: Callable[[str], str],
    ) -> None:
        self._drift = drift
        self._valid = valid
        self._make = make
        self._map: dict[str, str] = {}
        self._used: set[str] = set()

    def __call__(self, original: str, field: str) -> str:
        if original in self._map:
            return self._map[original]
        new = original
        if not self._valid(original):
            digest = hashlib.sha256(original.encode()).hexdigest()
            new = self._make(digest)
            if new in self._used:
                new = salted_id(original, self._make, self._used)
            report_rewritten(
                self._drift,
                "tool call id rewritten to fit the target's id rules",
                field,
                original,
                new,
            )
        self._map[original] = new
        self._used.add(new)
        return new


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
        if new in self._used:
            new = salted_id(original, self._make, self._used)
            report_rewritten(
                self._drift,
                "tool call id already used in this request; made unique",
                path,
                original,
                new,
            )
        self._used.add(new)
        return new


class ToolNames:
    """Each tool name as sent: unchanged when the target takes it (``pattern``), else fitted
    once per name and never onto a name already sent, with an ``id-rewritten`` note (info)
    where it is written. Declarations, calls, results and tool choice all go through the
    same instance, so they keep naming the same tool.

    Fitting replaces each ``refused`` character with ``_``, puts ``_`` before a name that
    does not match ``start`` (when given), cuts to ``limit`` characters (``empty`` when
    nothing is left), and adds a hash of the original when the result is taken. ``note`` is
    what the note says ("tool name rewritten to fit Bedrock's name rules").
    """

    def __init__(
        self,
        drift: Drift,
        *,
        pattern: re.Pattern[str],
        refused: re.Pattern[str],
        note: str,
        start: re.Pattern[str] | None = None,
        limit: int = 64,
        empty: str = "_",
    ) -> None:
        self._drift = drift
        self._pattern, self._refused, self._start = pattern, refused, start
        self._note, self._limit, self._empty = note, limit, empty
        self._sent: dict[str, str] = {}
        # The names sent as they are: a renderer that finds a name here needs no call, nor
        # the path a note would name (most names, asked once per call and result).
        self.unchanged: set[str] = set()

    def __call__(self, original: str, field: str) -> str:
        new = self._sent.get(original)
        if new is None:
            taken = original in self._sent.values()
            fits = self._pattern.fullmatch(original) and not taken
            new = original if fits else self._fit(original)
            self._sent[original] = new
            if new == original:
                self.unchanged.add(original)
        if new != original:
            report_rewritten(self._drift, self._note, field, original, new)
        return new

    def _fit(self, original: str) -> str:
        name = self._refused.sub("_", original)
        if self._start is not None and not self._start.match(name):
            name = "_" + name
        name = name[: self._limit] or self._empty
        if name in self._sent.values():
            digest = hashlib.sha256(original.encode()).hexdigest()[:8]
            name = f"{name[: self._limit - 9]}_{digest}"
        return name
