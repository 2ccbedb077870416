"""The streaming reader stays linear (issue 21, item 3): a number token longer than
``max_number_chars`` is refused with its path before the parser converts it, and reading
long strings and deep nesting takes time in proportion to their size."""

from __future__ import annotations

import io
import time
from collections.abc import Callable

import pytest

from providers.formats._archive import LIMITS, read_entries

MB = 1024 * 1024
LONG = b"1" * (LIMITS.max_number_chars + 1)


def read(data: bytes) -> list[tuple[str, str | None, str]]:
    """``(position, field, message or the value's type)`` of each entry of a file."""
    return [
        (entry.position, entry.error.field, entry.error.message)
        if entry.error is not None
        else (entry.position, None, type(entry.value).__name__)
        for entry in read_entries(io.BytesIO(data))
    ]


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (b"[1, 2, " + LONG + b"]", "[2]"),
        (b'[{"a": [1, ' + LONG + b"]}]", "[0].a[1]"),
        (b'[[{"b": -0.' + LONG + b"e5}]]", "[0][0].b"),
        (b'{"x": {"y": ' + LONG + b"}}", "x.y"),
        # Past the parser's first read, and cut across two reads.
        (b"[1, " + b" " * 70_000 + LONG + b"]", "[1]"),
        (b"[1, " + b" " * (64 * 1024 - 10) + LONG + b"]", "[1]"),
    ],
)
def test_a_number_too_long_is_refused_with_its_path(data: bytes, path: str) -> None:
    *_, (_, field, message) = read(data)
    assert (field, message) == (path, f"a number longer than {LIMITS.max_number_chars} characters")


@pytest.mark.parametrize(
    "data",
    [
        b'["' + LONG + b'", 2]',  # digits in a string
        b'["a\\\\", 1, "\\"' + LONG + b'", 2]',  # escapes before them
        b'["' + b"x" * 70_000 + LONG + b'", 2]',  # a string the first read ends inside
    ],
)
def test_digits_inside_a_string_are_no_number(data: bytes) -> None:
    assert [value for _, _, value in read(data)][-2:] == ["str", "int"]


def _number(size: int) -> bytes:
    return b"[" + b"7" * size + b"]"


def _string(size: int) -> bytes:
    return b'["' + b"a" * size + b'"]'


def _nesting(size: int) -> bytes:
    return b"[" + b'{"a":' * (size // 6) + b"1" + b"}" * (size // 6) + b"]"


@pytest.mark.parametrize("make", [_number, _string, _nesting], ids=["number", "string", "nesting"])
def test_reading_time_grows_linearly_with_the_input(make: Callable[[int], bytes]) -> None:
    times = {}
    for size in (1, 2, 4, 8):
        data = make(size * MB)
        start = time.process_time()
        read(data)
        times[size] = time.process_time() - start
    # Eight times the input: about eight times the time (the square would be 64 times);
    # a floor of 10 ms keeps the clock's resolution out of the ratio.
    assert times[8] <= 16 * max(times[1], 0.01), times
    assert times[8] <= 6 * max(times[2], 0.01), times
