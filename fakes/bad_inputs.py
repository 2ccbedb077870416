"""The bad-input corpus: requests the API must refuse with a 4xx JSON error naming the
field and the reason, quickly, writing nothing.

Shared by ``tests/security/test_bad_input.py`` (status, shape, nothing written) and
``bench/bad_input.py`` (the same cases over HTTP, timed). Each case is raw bytes, so
that what is sent is exactly what is written here: truncated, mis-encoded, duplicated.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
CONVERSATION = "{conversation}"  # replaced by the id of a conversation of the caller

IMPORT = "/api/v1/conversations/import"
BATCH = "/api/v1/conversations/import/batch"
CONVERT = "/api/v1/convert"
REPLAYS = f"/api/v1/conversations/{CONVERSATION}/replays"
UPLOAD = "/api/v1/imports/"

MESSAGES = [{"role": "user", "content": "hi"}]
VALID_BODIES: dict[str, Any] = {
    IMPORT: {"format": "umf", "payload": MESSAGES},
    BATCH: [{"format": "umf", "payload": MESSAGES}],
    CONVERT: {"from": "umf", "to": "anthropic", "payload": MESSAGES},
    REPLAYS: {"provider": "echo", "model": "echo-1"},
}
MESSAGE_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class BadInput:
    name: str
    path: str
    body: bytes
    content_type: str = "application/json"
    statuses: tuple[int, ...] = (400,)
    field: str | None = None  # the field the error must name, when it is known exactly

    def url(self, conversation_id: str) -> str:
        return self.path.replace(CONVERSATION, conversation_id)


def _dump(value: Any) -> bytes:
    return orjson.dumps(value)


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _syntax_cases(path: str) -> Iterator[BadInput]:
    """The same valid body, broken in every way JSON can be broken."""
    valid = _dump(VALID_BODIES[path])
    spliced = valid.replace(b'"hi"', b"@") if b'"hi"' in valid else valid[:-1] + b',"x":@}'

    def splice(value: bytes) -> bytes:
        return spliced.replace(b"@", value)

    raw_cases = {
        "empty body": b"",
        "whitespace only": b" \n\t ",
        "truncated at a quarter": valid[: len(valid) // 4],
        "truncated at half": valid[: len(valid) // 2],
        "truncated before the last brace": valid[:-1],
        "invalid UTF-8 byte": splice(b'"h\xffi"'),
        "overlong UTF-8": splice(b'"\xc0\xaf"'),
        "lone continuation byte": splice(b'"\x80"'),
        "lone surrogate escape": splice(b'"\\ud800"'),
        "UTF-16 with its BOM": valid.decode().encode("utf-16"),
        "two UTF-8 BOMs": b"\xef\xbb\xbf\xef\xbb\xbf" + valid,
        "BOM then garbage": b"\xef\xbb\xbf" + b"garbage",
        "NaN": splice(b"NaN"),
        "Infinity": splice(b"Infinity"),
        "-Infinity": splice(b"-Infinity"),
        "a number too large for a double": splice(b"1e999"),
        "nested 129 deep": splice(_nested(129)),
        "nested 10,000 deep": splice(_nested(10_000)),
        "objects nested 10,000 deep": splice(b'{"a":' * 10_000 + b"1" + b"}" * 10_000),
        "trailing garbage": valid + b" x",
        "two documents": valid + valid,
        "a comment": b"// note\n" + valid,
        "single quotes": valid.replace(b'"', b"'"),
        "trailing comma": valid[:-1] + b",]" if valid.startswith(b"[") else valid[:-1] + b",}",
        "unquoted key": b"{format: 1}",
        "a raw NUL byte": b"\x00" + valid,
        "a raw control character in a string": splice(b'"a\x01b"'),
        "an unterminated string": splice(b'"abc'),
        "a bare word": b"hello",
    }
    for name, body in raw_cases.items():
        yield BadInput(f"{path} {name}", path, body, field=None)
    first_key = next(iter(VALID_BODIES[path][0] if path == BATCH else VALID_BODIES[path]))
    body = valid.replace(b"{", b'{"%s":1,' % first_key.encode(), 1)
    yield BadInput(f"{path} duplicate key", path, body, field=_prefix(path, first_key))
    big = valid.replace(b"{", b'{"n":123456789012345678901234567890,', 1)
    yield BadInput(
        f"{path} an integer beyond 64 bits", path, big, statuses=(422,), field=_prefix(path, "n")
    )
    yield BadInput(
        f"{path} form-encoded instead of JSON",
        path,
        b"format=umf",
        content_type="application/x-www-form-urlencoded",
        statuses=(415,),
        field="body",
    )
    yield BadInput(
        f"{path} text/plain", path, valid, content_type="text/plain", statuses=(415,), field="body"
    )


def _prefix(path: str, key: str) -> str:
    return f"[0].{key}" if path == BATCH else key


def _shape_cases() -> Iterator[BadInput]:
    """Valid JSON with the wrong shape or types, per endpoint."""
    cases: list[tuple[str, Any, str | None, tuple[int, ...]]] = [
        (IMPORT, None, "body", (400,)),
        (IMPORT, 12, "body", (400,)),
        (IMPORT, "text", "body", (400,)),
        (IMPORT, [1, 2], "body", (400,)),
        (IMPORT, {"payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": "umf"}, "payload", (400,)),
        (IMPORT, {"format": "umf", "payload": None}, "payload", (400,)),
        (IMPORT, {"format": 12, "payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": ["umf"], "payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": None, "payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": "word-doc", "payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": "", "payload": MESSAGES}, "format", (400,)),
        (IMPORT, {"format": "umf", "payload": MESSAGES, "title": 5}, "title", (400,)),
        (IMPORT, {"format": "umf", "payload": MESSAGES, "title": {}}, "title", (400,)),
        (IMPORT, {"format": "umf", "payload": MESSAGES, "title": "t" * 301}, "title", (400,)),
        (IMPORT, {"format": "auto", "payload": {"hello": "world"}}, "payload", (422,)),
        (IMPORT, {"format": "auto", "payload": 42}, "payload", (422,)),
        # A list or an object where detection looks for a name (a role, a block's type).
        (
            IMPORT,
            {"format": "auto", "payload": [{"role": [], "content": "x"}]},
            "payload[0].role",
            (422,),
        ),
        (IMPORT, {"format": "auto", "payload": [{"type": {}}]}, "payload", (422,)),
        (
            IMPORT,
            {"format": "auto", "payload": [{"role": "user", "content": [{"type": []}]}]},
            "payload[0].content[0].type",
            (422,),
        ),
        (
            IMPORT,
            {"format": "umf", "payload": [{"role": "user", "content": "a\u0000b"}]},
            "payload[0].content",
            (422,),
        ),
        (BATCH, {"format": "umf", "payload": MESSAGES}, "body", (400,)),
        (BATCH, None, "body", (400,)),
        (BATCH, "x", "body", (400,)),
        (BATCH, [VALID_BODIES[IMPORT]] * 101, "body", (413,)),
        (CONVERT, None, "body", (400,)),
        (CONVERT, {"to": "anthropic", "payload": MESSAGES}, "from", (400,)),
        (CONVERT, {"from": "umf", "payload": MESSAGES}, "to", (400,)),
        (CONVERT, {"from": "umf", "to": "anthropic"}, "payload", (400,)),
        (CONVERT, {"from": 1, "to": "anthropic", "payload": MESSAGES}, "from", (400,)),
        (CONVERT, {"from": "umf", "to": "auto", "payload": MESSAGES}, "to", (400,)),
        (CONVERT, {"from": "umf", "to": ["anthropic"], "payload": MESSAGES}, "to", (400,)),
        (CONVERT, {"from": "nope", "to": "anthropic", "payload": MESSAGES}, "from", (400,)),
        (CONVERT, {"from": "umf", "to": "gemini", "payload": None}, "payload", (400,)),
        (CONVERT, {"from": "anthropic", "to": "umf", "payload": "text"}, "payload", (422,)),
        (REPLAYS, None, "body", (400,)),
        (REPLAYS, [], "body", (400,)),
        (REPLAYS, {"model": "echo-1"}, "provider", (400,)),
        (REPLAYS, {"provider": "echo"}, "model", (400,)),
        (REPLAYS, {"provider": 1, "model": "echo-1"}, "provider", (400,)),
        (REPLAYS, {"provider": "echo", "model": ["echo-1"]}, "model", (400,)),
        (REPLAYS, {"provider": "echo", "model": "echo-1", "mode": "sideways"}, "mode", (400,)),
        (REPLAYS, {"provider": "echo", "model": "echo-1", "parameters": "x"}, "parameters", (400,)),
        (
            REPLAYS,
            {"provider": "echo", "model": "echo-1", "from_message": "not-a-uuid"},
            "from_message",
            (400,),
        ),
        (REPLAYS, {"provider": "no-such-provider", "model": "m"}, "provider", (422,)),
        (
            REPLAYS,
            {
                "provider": "echo",
                "model": "echo-1",
                "from_message": "00000000-0000-0000-0000-000000000000",
            },
            "from_message",
            (422,),
        ),
    ]
    for number, (path, body, field, statuses) in enumerate(cases):
        label = orjson.dumps(body)[:60].decode(errors="replace")
        yield BadInput(
            f"{path} #{number} {label}", path, _dump(body), statuses=statuses, field=field
        )


def _first_fixture(format_id: str) -> Any:
    for file in sorted((FIXTURES / format_id).glob("*.json")):
        return orjson.loads(file.read_bytes())
    raise LookupError(format_id)


def _map_leaves(value: Any, leaf: Callable[[Any], Any]) -> Any:
    if isinstance(value, dict):
        return {key: _map_leaves(child, leaf) for key, child in value.items()}
    if isinstance(value, list):
        return [_map_leaves(child, leaf) for child in value]
    return leaf(value)


def _swap_containers(value: Any) -> Any:
    """Every object becomes a list of its values and every list an object: right data,
    wrong shape everywhere."""
    if isinstance(value, dict):
        return [_swap_containers(child) for child in value.values()]
    if isinstance(value, list):
        return {str(index): _swap_containers(child) for index, child in enumerate(value)}
    return value


def _malformed_cousins(format_id: str, payload: Any) -> dict[str, Any]:
    """A format's own example, made wrong in ways no version of the format allows."""
    if isinstance(payload, str):  # a text format: JSON where text belongs, and no text
        return {
            "an object instead of text": {"text": payload},
            "a list of lines": payload.splitlines(),
            "a number": 42,
            "an empty string": "",
        }
    cousins = {
        "every string a number": _map_leaves(payload, lambda v: 7 if isinstance(v, str) else v),
        "every value null": _map_leaves(payload, lambda v: None),
        "objects and lists swapped": _swap_containers(payload),
        "a list of numbers": [1, 2, 3],
        "a number": 42,
        "an empty object": {},
    }
    if format_id == "gemini":
        # A Gemini part's null text is kept verbatim (for the round trip), and a missing
        # role is the user's, as in the API: a null-valued Gemini document is readable.
        del cousins["every value null"]
    return cousins


def format_ids() -> list[str]:
    return sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def _format_cases() -> Iterator[BadInput]:
    for format_id in format_ids():
        payload = _first_fixture(format_id)
        for name, wrong in _malformed_cousins(format_id, copy.deepcopy(payload)).items():
            body = {"format": format_id, "payload": wrong}
            yield BadInput(
                f"{format_id} {name}", IMPORT, _dump(body), statuses=(400, 422), field=None
            )
        convert = {"from": format_id, "to": "umf", "payload": 42}
        yield BadInput(f"{format_id} convert a number", CONVERT, _dump(convert), statuses=(422,))


BOUNDARY = "corpus-boundary-7c1f"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


def _part(headers: str, content: bytes) -> bytes:
    return f"--{BOUNDARY}\r\n{headers}\r\n\r\n".encode() + content + b"\r\n"


def _upload(name: str, content: bytes, format_id: str = "auto") -> tuple[bytes, str]:
    form = _part('Content-Disposition: form-data; name="format"', format_id.encode())
    file = _part(
        f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream",
        content,
    )
    return form + file + f"--{BOUNDARY}--\r\n".encode(), MULTIPART


def _upload_cases() -> Iterator[BadInput]:
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
    files: list[tuple[str, bytes, str, str | None, tuple[int, ...]]] = [
        ("image.png", png, "auto", "file", (422,)),
        ("fake.zip", b"PK\x03\x04 no archive here", "auto", "file", (422,)),
        ("utf16.json", '{"a": 1}'.encode("utf-16"), "auto", "file", (422,)),
        ("empty.json", b"", "auto", "file", (400, 422)),
        ("a.json", b"[]", "word-doc", "format", (400,)),
        ("a.json", b"[]", "", "format", (400,)),
    ]
    for name, content, format_id, field, statuses in files:
        body, content_type = _upload(name, content, format_id)
        label = f"{UPLOAD} upload {name} as {format_id or 'blank'}"
        yield BadInput(label, UPLOAD, body, content_type, statuses, field)
    yield BadInput(f"{UPLOAD} no file part", UPLOAD, *_no_file(), statuses=(400,), field="file")
    yield BadInput(
        f"{UPLOAD} truncated multipart",
        UPLOAD,
        _upload("a.json", b"[]")[0][:40],
        _upload("a.json", b"[]")[1],
        statuses=(400,),
    )
    yield BadInput(f"{UPLOAD} JSON instead of a form", UPLOAD, b"{}", statuses=(415,), field="body")


def _no_file() -> tuple[bytes, str]:
    form = _part('Content-Disposition: form-data; name="format"', b"umf")
    return form + f"--{BOUNDARY}--\r\n".encode(), MULTIPART


def _cost_cases() -> Iterator[BadInput]:
    """What one ordinary account could use to make the server or the operator's key pay
    (issue 21; bench/abuse.py sends the full-size ones): too many objects to read, a model
    the provider does not offer, answers multiplied by ``n``."""
    tiny = [{"role": "user", "content": "hi"}] * 250_000  # over UMF_MAX_REQUEST_OBJECTS
    yield BadInput(
        "import 250,000 tiny messages",
        IMPORT,
        _dump({"format": "umf", "payload": tiny}),
        statuses=(413,),
        field="body",
    )
    yield BadInput(
        "convert 250,000 tiny messages",
        CONVERT,
        _dump({"from": "umf", "to": "anthropic", "payload": tiny}),
        statuses=(413,),
        field="body",
    )
    yield BadInput(
        "replay against a model the provider does not list",
        REPLAYS,
        _dump({"provider": "echo", "model": "o1-pro"}),
        statuses=(422,),
        field="model",
    )
    yield BadInput(
        "replay asking for 128 answers",
        REPLAYS,
        _dump({"provider": "echo", "model": "echo-1", "parameters": {"n": 128}}),
        statuses=(422,),
        field="parameters.n",
    )


def huge_message_case() -> BadInput:
    """One 50 MB message: under the request cap, over what any string may be."""
    text = "x" * MESSAGE_BYTES
    body = _dump({"format": "umf", "payload": [{"role": "user", "content": text}]})
    return BadInput(
        "import a 50 MB message", IMPORT, body, statuses=(413,), field="payload[0].content"
    )


def corpus(*, include_huge: bool = True) -> list[BadInput]:
    """Every case; ``include_huge=False`` leaves out the 50 MB message."""
    cases: list[BadInput] = []
    for path in (IMPORT, BATCH, CONVERT, REPLAYS):
        cases.extend(_syntax_cases(path))
    cases.extend(_shape_cases())
    cases.extend(_format_cases())
    cases.extend(_upload_cases())
    cases.extend(_cost_cases())
    if include_huge:
        cases.append(huge_message_case())
    return cases
