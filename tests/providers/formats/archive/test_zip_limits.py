"""The whole zip is bounded as well as each member (issue 21): a bomb split into members
under the per-member ratio floor is refused by the archive's total ratio, at once."""

from __future__ import annotations

import io
import os
import struct
import time
import zipfile
import zlib

import orjson

from providers import formats
from providers.formats.base import FormatError
from tests.providers.sdk.archive import results

MEMBER_BYTES = 1024 * 1024 - 1  # under the floor the per-member ratio applies from


def split_bomb(members: int, size: int = MEMBER_BYTES) -> bytes:
    """A zip of ``members`` members of ``size`` zero bytes each, deflated, written by hand
    (the same compressed bytes for every member: zipfile would compress each again)."""
    data = b"\0" * size
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(data) + packer.flush()
    crc = zlib.crc32(data)
    out, directory = io.BytesIO(), io.BytesIO()
    for index in range(members):
        name = f"conversations-{index:04}.json".encode()
        offset = out.tell()
        out.write(
            struct.pack(
                "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), size, len(name), 0
            )
        )
        out.write(name + packed)
        directory.write(
            struct.pack(
                "<IHHHHHHIIIHHHHHII",
                0x02014B50,
                20,
                20,
                0,
                8,
                0,
                0,
                crc,
                len(packed),
                size,
                len(name),
                0,
                0,
                0,
                0,
                0,
                offset,
            )
            + name
        )
    start, listing = out.tell(), directory.getvalue()
    out.write(listing)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, members, members, len(listing), start, 0))
    return out.getvalue()


def test_the_split_bomb_is_refused_in_under_a_second() -> None:
    bomb = split_bomb(3000)  # 3 GB from about 3.4 MB, as in issue 21
    start = time.process_time()
    found = results(formats.get("chatgpt-export"), bomb)
    elapsed = time.process_time() - start
    [error] = found
    assert isinstance(error, FormatError) and error.field == "file"
    assert "in all" in error.message and "more than 100:1" in error.message
    assert elapsed < 1.0


def test_a_zip_of_many_members_that_expands_as_json_does_is_read() -> None:
    # 2 MB in all (past the floor) of JSON text that compresses about 2:1.
    entry = [{"title": "t", "mapping": {}, "note": os.urandom(32 * 1024).hex()}]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(32):
            archive.writestr(f"conversations-{index}.json", orjson.dumps(entry))
    found = results(formats.get("chatgpt-export"), buffer.getvalue())
    assert len(found) == 32
    assert not any(isinstance(item, FormatError) and "in all" in item.message for item in found)
