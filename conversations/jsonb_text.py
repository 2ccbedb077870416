"""The JSON text the archive writes into its JSON columns, such that it reads back as it was.

PostgreSQL's ``jsonb`` keeps a number as ``numeric``, which has a value and a count of
decimal places but no notion of "float": it prints the number back in plain decimals,
with as many places as it was written with. A float orjson writes with an exponent and no
fraction (every float from 1e16 up: ``1e+16``, ``1.5e+16``, ``1e+300``) is kept with none,
and comes back as ``10000000000000000``: an integer, so the archive would give back
another type than it took (and, past 64 bits, a number its own import refuses). Such
floats are written out in plain decimals with a fraction (``10000000000000000.0``), which
``numeric`` keeps and every JSON reader reads as the same float again.

Other numbers come back as written: integers, and floats orjson writes with a fraction
(``1.0``, ``0.1``) or a negative exponent (``1e-7`` comes back as ``0.0000001``). Negative
zero cannot: ``numeric`` has no sign on zero (imports refuse it, see
``providers.validation``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import orjson

# A float with a positive exponent, as orjson writes it: a digit, then "e+" (spelled with
# the literal first, which the regex engine finds fast, then the digit behind it). It is
# looked for only in text with a "+" at all, which most never have: a one-byte search is
# a memchr, many times faster than looking for "e+" in prose.
_POSITIVE_EXPONENT = re.compile(rb"e\+(?<=\de\+)")


def dumps(value: Any) -> str:
    """``value`` as JSON text that ``jsonb`` gives back as the same value, with the same
    types: orjson's text, but floats with a positive exponent in plain decimals."""
    text = orjson.dumps(value)
    if text.find(b"+") != -1 and _POSITIVE_EXPONENT.search(text):
        text = orjson.dumps(_spelled_out(value))
    return text.decode()


def _spelled_out(value: Any) -> Any:
    # orjson refuses to write values nested deeper than 255 levels, so this recursion
    # (run only on text that orjson has written) stays far from Python's limit.
    if type(value) is float:
        return _plain_float(value)
    if isinstance(value, dict):
        return {key: _spelled_out(child) for key, child in value.items()}
    if isinstance(value, list | tuple):
        return [_spelled_out(child) for child in value]
    return value


def _plain_float(number: float) -> float | orjson.Fragment:
    written = orjson.dumps(number)
    if b"e+" not in written:
        return number
    # The shortest decimal that reads back as the float, without its exponent.
    digits = format(Decimal(written.decode()), "f")
    return orjson.Fragment(digits if "." in digits else f"{digits}.0")
