"""How deep a JSON value nests, checked without recursion.

Readers of outside JSON refuse a document nested deeper than their limit (the request
body in ``conversations.json_input``, the entries of archive files): formats and UMF
dumps recurse, and a 10,000-deep document must be a clear error, not a RecursionError.
"""

from __future__ import annotations

from itertools import chain
from typing import Any


def nests_deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` holds objects or arrays more than ``limit`` levels deep (the
    value itself, if one, is level 1)."""
    # One level at a time: comprehensions over exact types (orjson makes no subclasses)
    # keep this under the cost of the parse itself, where a stack of (value, depth) pairs
    # cost a quarter of reading a ChatGPT export.
    dicts = [value] if type(value) is dict else []
    lists = [value] if type(value) is list else []
    depth = 0
    while dicts or lists:
        depth += 1
        if depth > limit:
            return True
        values = chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists))
        children = [child for child in values if type(child) is dict or type(child) is list]
        dicts = [child for child in children if type(child) is dict]
        lists = [child for child in children if type(child) is list]
    return False
