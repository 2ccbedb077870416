"""Strict JSON parsing of request bodies: what orjson alone would let through."""

from __future__ import annotations

from typing import Any

import pytest

from conversations import json_input
from conversations.json_input import JsonError


def refusal(raw: bytes) -> tuple[str, str | None]:
    with pytest.raises(JsonError) as caught:
        json_input.loads(raw)
    return caught.value.code, caught.value.path


def test_a_utf8_bom_is_accepted() -> None:
    assert json_input.loads(b'\xef\xbb\xbf{"a": [1]}') == {"a": [1]}


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        (b'{"a": 1, "a": 2}', "a"),
        (
            b'{"payload": {"messages": [{"role": "user"}, {"role": "x", "role": "y"}]}}',
            "payload.messages[1].role",
        ),
        (b'[[{"k": {"z": 1, "z": 1}}]]', "[0][0].k.z"),
        # A colon spelled \u003a would balance the count of colons: the slow path decides.
        (b'{"a": "\\u003a", "b": 1, "b": 2}', "b"),
    ],
)
def test_a_duplicate_key_is_refused_with_its_path(raw: bytes, path: str) -> None:
    assert refusal(raw) == ("duplicate_key", path)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": "x:y", "b": {"c": "::"}, "d:e": [":"]}',
        b'{"a": "\\u003a", "b": "\\u003A"}',
        b'{"a": {"b": 1}, "c": {"b": 1}}',
    ],
)
def test_colons_in_strings_and_repeated_keys_in_other_objects_are_fine(raw: bytes) -> None:
    json_input.loads(raw)


def test_nesting_is_limited_to_128_levels() -> None:
    assert json_input.loads(b"[" * 128 + b"]" * 128)
    assert refusal(b"[" * 129 + b"]" * 129) == ("too_deep", None)
    assert refusal(b'{"a":' * 129 + b"1" + b"}" * 129) == ("too_deep", None)
    # Past orjson's own limit the answer is the same, not a generic syntax error.
    assert refusal(b"[" * 10_000 + b"]" * 10_000) == ("too_deep", None)


@pytest.mark.parametrize("raw", [b"[NaN]", b"[Infinity]", b"[-Infinity]", b"[1e999]"])
def test_non_finite_numbers_are_malformed(raw: bytes) -> None:
    assert refusal(raw) == ("parse_error", None)


@pytest.mark.parametrize(
    "raw", [b'["\xff"]', b'["\\ud800"]', b"\xef\xbb\xbf\xef\xbb\xbf[]", b"[1,]"]
)
def test_bad_encodings_and_syntax_are_malformed(raw: bytes) -> None:
    assert refusal(raw)[0] == "parse_error"


def test_a_nul_character_is_refused_with_its_path() -> None:
    assert refusal(b'{"m": [{"content": "a\\u0000b"}]}') == ("nul_character", "m[0].content")
    assert refusal(b'{"k\\u0000": 1}') == ("nul_character", "k\x00")


def test_an_overlong_string_is_refused_with_its_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_input, "MAX_STRING_CHARS", 10)
    assert json_input.loads(b'{"a": "0123456789"}') == {"a": "0123456789"}
    assert refusal(b'{"a": ["0123456789x"]}') == ("too_large", "a[0]")


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        (b'{"seed": 123456789012345678901234567890}', "seed"),
        (b'{"a": [1, {"b": 18446744073709551616}]}', "a[1].b"),  # 2**64
        (b'{"a": -9223372036854775809}', "a"),  # -(2**63) - 1
        (b"[100000000000000000000000]", "[0]"),
    ],
)
def test_an_integer_beyond_64_bits_is_refused_with_its_path(raw: bytes, path: str) -> None:
    # orjson would read it as a float: the archive would hold another number.
    assert refusal(raw) == ("integer_out_of_range", path)


def test_64_bit_integers_long_digit_strings_and_floats_are_read_as_they_are() -> None:
    raw = (
        b'{"max": 18446744073709551615, "min": -9223372036854775808,'
        b' "id": "123456789012345678901234567890", "f": 12345678901234567890.5, "e": 1e30}'
    )
    assert json_input.loads(raw) == {
        "max": 2**64 - 1,
        "min": -(2**63),
        "id": "123456789012345678901234567890",
        "f": 12345678901234567890.5,
        "e": 1e30,
    }


def test_the_exact_reading_runs_only_for_numbers_that_may_be_out_of_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import json

    reads: list[bytes] = []
    real = json.loads

    def counted(data: bytes) -> Any:
        reads.append(data)
        return real(data)

    monkeypatch.setattr(json, "loads", counted)
    # Nanosecond timestamps (19 digits) and in-range negatives: orjson alone is enough.
    json_input.loads(b'{"t": 1732560000000000000, "n": -922337203685477580, "s": "-1"}')
    assert reads == []
    json_input.loads(b'{"t": 12345678901234567890}')  # 20 digits, in range: read again
    assert len(reads) == 1
