"""Arrays of conversations are split by orjson where they can be, and read by the event
parser from where they cannot: either way a file gives exactly the same entries."""

from __future__ import annotations

import io
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers.formats import _archive
from providers.formats._archive import _json
from providers.formats.base import FormatError

LIMITS = _archive.Limits()


def described(entries: Any) -> list[tuple[str, Any, str | None]]:
    return [(e.position, e.value, e.error.message if e.error else None) for e in entries]


def both(data: bytes, limits: _archive.Limits = LIMITS) -> tuple[list[Any], list[Any]]:
    """What the file gives, and what the event parser alone gives."""
    split = list(_json.json_entries(io.BytesIO(data), "f", limits))
    events = list(_json._event_entries(io.BytesIO(data), "f", limits))
    return split, events


def assert_same(data: bytes, limits: _archive.Limits = LIMITS) -> list[Any]:
    split, events = both(data, limits)
    assert described(split) == described(events)
    return split


def test_an_array_of_objects_is_split_without_the_event_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    entries = [
        {"id": n, "text": 'a "}, {" inside a string', "parts": [{"a": 1}, {"b": {}}]}
        for n in range(50)
    ]
    monkeypatch.setattr(_json, "_event_entries", None)  # not called: splitting was enough
    found = list(_json.json_entries(io.BytesIO(orjson.dumps(entries)), "f", LIMITS))
    assert [entry.value for entry in found] == entries
    assert [entry.position for entry in found][:2] == ["f[0]", "f[1]"]
    assert not any(entry.depth_checked for entry in found)


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_elements_across_read_boundaries_are_split_alike(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    entries = [{"id": n, "text": "x" * n, "parts": [{"a": [1, {}]}]} for n in range(40)]
    data = b"[\n " + b" ,\n ".join(orjson.dumps(e) for e in entries) + b"\n]\n"
    monkeypatch.setattr(_json, "_CHUNK", chunk)
    found = assert_same(data)
    assert [e.value for e in found] == entries
    assert not any(e.depth_checked for e in found)  # none went to the event parser


@pytest.mark.parametrize(
    "data",
    [
        b'[{"a": 1}, 5, {"b": 2}]',  # an element that is not an object
        b'[{"a": 1}, {"b": 2}] trailing',  # something after the array
        b'[{"a": 1}, {"b": [1, 2}',  # cut short
        b'[{"a": 1}, {"b": "\xff"}, {"c": 3}]',  # invalid UTF-8 in the second
        b'\xef\xbb\xbf [ {"a": 1} ,\n {"b": {"c": [{}, {}]}} ]\n',  # BOM, spaces
        b"[]",
        b'{"one": "object"}',
        b'[{"a": 1},,{"b": 2}]',
    ],
)
def test_what_splitting_leaves_is_read_by_the_event_parser_alike(data: bytes) -> None:
    assert_same(data)


def test_an_entry_with_many_object_boundaries_inside_goes_to_the_event_parser() -> None:
    inner = [{"k": n} for n in range(_json._MAX_TRIES * 3)]
    data = orjson.dumps([{"first": 1}, {"inner": inner}, {"last": 2}])
    found = assert_same(data)
    assert [e.value for e in found] == [{"first": 1}, {"inner": inner}, {"last": 2}]
    assert [e.depth_checked for e in found] == [False, True, True]


def test_an_entry_past_the_size_limit_is_refused_alike() -> None:
    limits = _archive.Limits(max_entry_bytes=100_000)
    big = [{"n": n, "text": "x" * 20} for n in range(20_000)]
    data = orjson.dumps([{"a": 1}, {"big": big}, {"c": 3}])
    found = assert_same(data, limits)
    assert found[1].error is not None and "larger than" in found[1].error.message
    assert found[2].value == {"c": 3}


def test_integers_past_64_bits_are_refused_by_the_split_the_event_parser_stops() -> None:
    # orjson reads them as floats (another number): the split refuses the entry and reads
    # on; the event parser (ijson's C backend) cannot read past one, and refuses the rest.
    data = b'[{"n": 123456789012345678901234567890}, {"b": 2}]'
    split, events = both(data)
    assert [e.value for e in split] == [None, {"b": 2}]
    assert split[0].error is not None and split[0].error.field == "f[0].n"
    assert events[0].error is not None


def test_nesting_past_the_limit_is_refused_when_the_entry_is_read() -> None:
    deep: Any = {}
    for _ in range(_archive.LIMITS.max_depth + 10):
        deep = {"d": deep}
    data = orjson.dumps([{"uuid": "x", "deep": deep}])
    [entry] = _json.json_entries(io.BytesIO(data), "f", LIMITS)
    assert entry.error is None and entry.depth_checked is False
    from providers.formats import claude_export

    error = claude_export.ARCHIVE.read_entry(entry)
    assert isinstance(error, FormatError) and "nested deeper" in error.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63) + 1, 2**63 - 1) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "}", ",{", "b"]), children, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    entries=st.lists(st.dictionaries(st.text(max_size=4), json_values, max_size=4), max_size=6),
    space=st.sampled_from([b"", b" ", b"\n  ", b"\t"]),
)
def test_any_array_of_objects_gives_the_same_entries(entries: list[Any], space: bytes) -> None:
    data = b"[" + space + (b"," + space).join(orjson.dumps(e) for e in entries) + space + b"]"
    assert_same(data)


BIG = b"123456789012345678901234567890"


def test_an_entry_with_an_integer_beyond_64_bits_is_refused_the_others_read() -> None:
    # orjson would read it as a float, and the archive would hold another number.
    data = b'[{"a": 1}, {"b": [2, ' + BIG + b']}, {"c": 18446744073709551615}]'
    found = list(_json.json_entries(io.BytesIO(data), "f", LIMITS))
    assert [e.value for e in found] == [{"a": 1}, None, {"c": 2**64 - 1}]
    assert found[1].position == "f[1]"
    assert found[1].error is not None
    assert found[1].error.field == "f[1].b[1]"
    assert found[1].error.message == f"the integer {BIG.decode()} at f[1].b[1] is beyond 64 bits"


def test_the_event_parser_refuses_an_integer_beyond_64_bits_as_it_builds() -> None:
    # Whatever ijson's backend does with one (the pure-Python one reads it exactly).
    builder = _json._Builder(max_depth=10)
    assert not builder.feed("start_map", None)
    assert not builder.feed("map_key", "n")
    assert not builder.feed("number", 2**64)
    assert builder.feed("end_map", None)
    assert builder.problem == "the integer 18446744073709551616 is beyond 64 bits"


def test_a_line_with_an_integer_beyond_64_bits_is_refused_with_its_path() -> None:
    data = b'{"a": 1}\n{"b": {"n": -' + BIG + b'}}\n{"c": 3}\n'
    found = list(_archive.read_entries(io.BytesIO(data), lines="always"))
    assert [e.value for e in found] == [{"a": 1}, None, {"c": 3}]
    error = found[1].error
    assert error is not None
    assert error.field == "line 2.b.n"
    assert error.message == f"the integer -{BIG.decode()} at line 2.b.n is beyond 64 bits"
