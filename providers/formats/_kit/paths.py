"""Paths into a payload or a UMF value, as warnings and errors name them
(``messages[2].content[0].text``), and the JSON type checks that go with them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers._umf_base import placed_under as placed_under
from providers.formats.base import FormatError
from providers.umf import JSON

# A block's path is made for every block rendered: joining two strings costs 33 ns, formatting
# the index into one 83 (timeit), so the suffixes of a message's first blocks are made once
# (``path + CONTENT_AT[index]`` below ``len(CONTENT_AT)``, ``f"{path}.content[{index}]"`` past it).
CONTENT_AT = tuple(f".content[{index}]" for index in range(16))


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base`` (``messages[2]`` + ``content``), or
    ``key`` at the root of the payload."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def placed_at(base: str, error: FormatError) -> FormatError:
    """``error``, found while reading the value at ``base`` with its field named from
    that value, with its field named from the root instead. A reader that calls this where
    a value's errors come out can read the value with an empty path: it then builds no
    path for a value that has no error (one for each message and call of a payload)."""
    if error.field is None:
        return error
    return FormatError(error.message, field=placed_under(base, error.field))


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
