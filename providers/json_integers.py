"""Integers orjson cannot read exactly.

orjson reads a JSON integer beyond 64 bits (below ``-2**63`` or above ``2**64 - 1``) as a
float, silently: ``2**70`` comes back as ``1.1805916207174113e+21``. It cannot write one
either. Every reader of outside JSON refuses such a number with its path instead (the
request body in ``conversations.json_input``, the entries of archive files).
"""

from __future__ import annotations

import json
import re
from typing import Any

# What orjson reads exactly: signed and unsigned 64-bit integers.
MIN_INTEGER, MAX_INTEGER = -(2**63), 2**64 - 1
# An integer outside that range has 20 digits or more, or is negative with 19 or more (a
# positive one of 19 digits, such as a timestamp in nanoseconds, is below 2**64): without
# such a run of digits (in a number or, rarely, in a string) a document holds none, and
# the check costs one scan.
_LONG_DIGITS = re.compile(rb"\d{20}|-\d{19}")
_LONG_DIGITS_TEXT = re.compile(r"\d{20}|-\d{19}", re.ASCII)


def integer_beyond_64_bits(raw: bytes | str, path: str = "") -> tuple[str, str] | None:
    """``(path, digits)`` of the first integer of the JSON text ``raw`` that orjson would
    not read exactly, or None. ``raw`` must be valid JSON (orjson has read it already);
    ``path`` is prefixed to the path found."""
    # Scanned as given: a JSON Lines entry arrives decoded, and is not encoded again.
    found = _LONG_DIGITS_TEXT.search(raw) if isinstance(raw, str) else _LONG_DIGITS.search(raw)
    if not found:
        return None
    # The standard library reads integers exactly.
    stack: list[tuple[Any, str]] = [(json.loads(raw), path)]
    while stack:
        node, at = stack.pop()
        if type(node) is int and not MIN_INTEGER <= node <= MAX_INTEGER:
            return at, str(node)
        if type(node) is dict:
            stack.extend((child, f"{at}.{key}" if at else key) for key, child in node.items())
        elif type(node) is list:
            stack.extend((child, f"{at}[{index}]") for index, child in enumerate(node))
    return None


def describe(path: str, digits: str) -> str:
    """The message for such an integer: shortened, and where it is (when known)."""
    shown = digits if len(digits) <= 40 else f"{digits[:20]}...({len(digits)} digits)"
    if path:
        return f"the integer {shown} at {path} is beyond 64 bits"
    return f"the integer {shown} is beyond 64 bits"
