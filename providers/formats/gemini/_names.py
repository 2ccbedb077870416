"""Function names fitted to Gemini's rules, the same way for declarations, calls, responses
and ``allowedFunctionNames``: other providers take names Gemini refuses (``3d_render``
starts with a digit, ``get weather`` has a space)."""

from __future__ import annotations

import hashlib
import re
from typing import Final

from providers.formats.base import Drift

# Gemini's rule for a function name: a letter or underscore, then letters, digits,
# underscores, dots, colons and dashes, 64 characters at most.
FUNCTION_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
_REFUSED: Final = re.compile(r"[^A-Za-z0-9_.:-]")


class FunctionNames:
    """Each name as sent: unchanged when Gemini takes it, else fitted (once per name, and
    never onto a name already sent), with an ``id-rewritten`` warning where it is written."""

    def __init__(self, drift: Drift) -> None:
        self._drift = drift
        self._sent: dict[str, str] = {}

    def __call__(self, original: str, field: str) -> str:
        new = self._sent.get(original)
        if new is None:
            taken = original in self._sent.values()
            fits = FUNCTION_NAME.fullmatch(original) and not taken
            new = original if fits else self._fit(original)
            self._sent[original] = new
        if new != original:
            self._drift.add(
                "id-rewritten",
                "function name rewritten to fit Gemini's name rules",
                field=field,
                original=original,
                transformed=new,
                severity="info",
            )
        return new

    def _fit(self, original: str) -> str:
        name = _REFUSED.sub("_", original)
        if not name[:1].isalpha() and not name.startswith("_"):
            name = "_" + name
        name = name[:64]
        if name in self._sent.values():
            digest = hashlib.sha256(original.encode()).hexdigest()[:8]
            name = f"{name[:55]}_{digest}"
        return name
