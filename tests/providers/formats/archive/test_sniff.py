"""The one sniff of a file's first bytes: what the archive reader, the upload check and the
import's format detection all decide by."""

from __future__ import annotations

import io
import zipfile

import pytest

from providers.formats._archive import SNIFF_BYTES, sniff


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("conversations.json", "[]")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "kind", "more_lines"),
    [
        (b"", "empty", False),
        (b'[{"a": 1}]', "array", False),
        (b'\xef\xbb\xbf  [{"a": 1}]', "array", False),
        (b'{"a": 1}', "lines", False),
        (b'{"a": 1}\n{"a": 2}\n', "lines", True),
        (b'{\n  "a": 1\n}\n', "object", False),
        (b"hello", "other", False),
        (b"PK\x03\x04 not a zip", "broken-zip", False),
    ],
)
def test_sniff_says_what_a_file_is(data: bytes, kind: str, more_lines: bool) -> None:
    sniffed = sniff(io.BytesIO(data))
    assert (sniffed.kind, sniffed.more_lines) == (kind, more_lines)


def test_sniff_reads_a_zip_as_a_zip_and_leaves_the_stream_where_it_was() -> None:
    stream = io.BytesIO(_zip())
    assert sniff(stream).kind == "zip"
    assert stream.tell() == 0


def test_sniff_says_whether_the_first_bytes_are_text() -> None:
    assert sniff(io.BytesIO('["é"]'.encode())).text
    assert not sniff(io.BytesIO(b"[\xff\xfe]")).text
    # A character cut by the end of the sample is not a reason to refuse the file.
    cut = b"[" + b"a" * (SNIFF_BYTES - 2) + "é".encode()
    assert sniff(io.BytesIO(cut)).text


def test_sniff_takes_a_first_line_longer_than_it_reads_for_no_whole_object() -> None:
    data = b'{"a": "' + b"x" * 100 + b'"}\n'
    assert sniff(io.BytesIO(data), line_bytes=10).kind == "object"
    assert sniff(io.BytesIO(data)).kind == "lines"
