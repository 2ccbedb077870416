"""Strict JSON reading for request bodies: orjson's speed, without its silent choices.

orjson already refuses invalid UTF-8, lone surrogates, NaN and Infinity. On top of it:

- a UTF-8 byte order mark is accepted (Windows editors write one);
- nesting deeper than :data:`MAX_DEPTH` is refused (formats and UMF dumps recurse, and a
  10,000-deep document must be a clear 400, not a RecursionError);
- more than ``max_objects`` objects and arrays are refused (reading a small JSON object
  into UMF costs some 50 times its bytes: the count, not the size, bounds the memory);
- a string longer than :data:`MAX_STRING_CHARS` is refused with its path (no provider
  takes a 50 MB message; larger inputs go through file imports);
- a NUL character (``\u0000``) in a string or key is refused with its path: valid JSON,
  but PostgreSQL text cannot hold one (the API answers 422);
- a duplicate key is refused with its JSON path, where orjson would keep the last value
  and the archive would hold something other than what was sent;
- an integer beyond 64 bits is refused with its path, where orjson would read it as a
  float (``2**70`` would come back as ``1.1805916207174113e+21``). No provider field takes
  one, and what is stored is written back out by orjson, which has no bigger integers.

Finding duplicates costs almost nothing in the common case: every key-value pair writes
one ``:`` outside strings, so the colons of the body equal the colons of the parsed
value re-serialised (pairs plus the colons inside strings) unless a pair was dropped.
Only a body that fails that count, or that spells a colon as ``\\u003a`` (which would
fool it), is parsed again, slowly, to find the duplicate's path.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from providers.json_depth import nests_deeper_than
from providers.json_integers import describe, integer_beyond_64_bits
from providers.validation import json_strings

MAX_DEPTH = 128
# Above the largest inline media a provider accepts (20 MB images), base64-encoded.
MAX_STRING_CHARS = 32 * 1024 * 1024
BOM = b"\xef\xbb\xbf"


class JsonError(ValueError):
    """Why a body is not acceptable JSON: a stable ``code``, a message, the JSON path."""

    def __init__(self, code: str, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path


def loads(raw: bytes, *, max_objects: int | None = None) -> Any:
    """Parse ``raw`` as strict JSON; raises :class:`JsonError` when it is not, or when it
    holds more than ``max_objects`` objects and arrays (code ``too_many_objects``)."""
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    # Every object and array takes two bytes at least: a short body needs no counting.
    if max_objects is not None and len(raw) > 2 * max_objects:
        _check_object_count(raw, max_objects)
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        if "depth limit" in str(error):
            raise _too_deep() from None
        raise JsonError("parse_error", f"malformed JSON: {error}") from None
    _check_depth(value)
    if len(raw) > MAX_STRING_CHARS:  # otherwise no string can be that long
        _check_string_lengths(value)
    if b"\\u0000" in raw:
        _check_nul_characters(value)
    if _may_have_duplicates(raw, value):
        _raise_first_duplicate(raw)
    _check_integers(raw)
    return value


def _too_deep() -> JsonError:
    return JsonError("too_deep", f"JSON nested deeper than {MAX_DEPTH} levels")


def _too_many_objects(max_objects: int) -> JsonError:
    return JsonError(
        "too_many_objects",
        f"the body holds more than {max_objects:,} JSON objects and arrays, the most one "
        "request may (UMF_MAX_REQUEST_OBJECTS): import it as a file (POST /api/v1/imports), "
        "which reads one conversation at a time",
    )


def _check_object_count(raw: bytes, max_objects: int) -> None:
    """Refuse ``raw`` before it is parsed when it opens more than ``max_objects`` objects and
    arrays: parsing a million tiny objects costs some 20 times their bytes before anything
    could count them. The brackets of the whole body bound the count from above; only a
    body past that bound has the brackets inside its strings left out, at C speed: without
    its escaped backslashes and quotes, every quote of a JSON text opens or closes a
    string, so the text between the odd and even quotes is the structure."""
    if raw.count(b"{") + raw.count(b"[") <= max_objects:
        return
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    count = 0
    inside = False  # within a string where the previous chunk ended
    for start in range(0, len(plain), _CHUNK):
        parts = plain[start : start + _CHUNK].split(b'"')
        outside = b"".join(parts[1 if inside else 0 :: 2])
        count += outside.count(b"{") + outside.count(b"[")
        inside ^= (len(parts) - 1) % 2 == 1
        if count > max_objects:
            raise _too_many_objects(max_objects)


_CHUNK = 1 << 20  # bytes split at a time: the parts of a chunk stay a few MB at most


def _check_depth(value: Any) -> None:
    if nests_deeper_than(value, MAX_DEPTH):
        raise _too_deep()


def _check_nul_characters(value: Any) -> None:
    for path, text in json_strings(value):
        if "\x00" in text:
            raise JsonError(
                "nul_character", f"a NUL character (\\u0000) at {path or 'the top'}", path or None
            )


def _check_string_lengths(value: Any) -> None:
    for path, text in json_strings(value):
        if len(text) > MAX_STRING_CHARS:
            raise JsonError(
                "too_large",
                f"a string of {len(text)} characters at {path or 'the top'}; "
                f"the limit is {MAX_STRING_CHARS}",
                path or None,
            )


def _check_integers(raw: bytes) -> None:
    found = integer_beyond_64_bits(raw)
    if found is not None:
        path, digits = found
        raise JsonError("integer_out_of_range", describe(path, digits), path or None)


def _may_have_duplicates(raw: bytes, value: Any) -> bool:
    if b"\\u003" in raw and (b"\\u003a" in raw or b"\\u003A" in raw):
        return True
    return raw.count(b":") != orjson.dumps(value).count(b":")


class _Object(dict[str, Any]):
    duplicate: str | None = None


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _Object:
    result = _Object(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                result.duplicate = key
                break
            seen.add(key)
    return result


def _raise_first_duplicate(raw: bytes) -> None:
    parsed = json.loads(raw, object_pairs_hook=_object_from_pairs)
    path = _duplicate_path(parsed, "")
    if path is not None:
        raise JsonError("duplicate_key", f"duplicate key at {path}", path)


def _duplicate_path(value: Any, path: str) -> str | None:
    if isinstance(value, _Object):
        if value.duplicate is not None:
            return _join(path, value.duplicate)
        for key, child in value.items():
            found = _duplicate_path(child, _join(path, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found = _duplicate_path(child, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
