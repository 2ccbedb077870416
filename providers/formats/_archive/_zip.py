"""Zip archives opened only after their entries, names and sizes have been checked."""

from __future__ import annotations

import mimetypes
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import filetype
import orjson

from providers.formats.base import FormatError

from ._common import Entry, Limits
from ._json import json_entries

_DRIVE = re.compile(r"^[A-Za-z]:")


class SafeZip:
    """A zip archive checked before anything is read from it: entry count, names (no
    absolute paths, no ``..``), declared sizes, compression ratios, no encryption."""

    def __init__(self, stream: BinaryIO, limits: Limits) -> None:
        self.limits = limits
        try:
            _check_directory(stream, limits)
            self.zip = zipfile.ZipFile(stream)
            infos = self.zip.infolist()
        except FormatError:
            raise
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
            raise FormatError(f"not a readable zip archive: {error}", field="file") from None
        self._check(infos)
        self.infos = [info for info in infos if not info.is_dir()]
        self._assets: dict[str, list[zipfile.ZipInfo]] | None = None
        self._asset_names: dict[str, str] | None = None

    def _check(self, infos: list[zipfile.ZipInfo]) -> None:
        limits = self.limits
        if len(infos) > limits.max_zip_entries:
            raise FormatError(f"zip holds more than {limits.max_zip_entries} entries", field="file")
        total = packed = 0
        for info in infos:
            name = info.filename
            parts = name.replace("\\", "/").split("/")
            if name.startswith(("/", "\\")) or _DRIVE.match(name) or ".." in parts or "\0" in name:
                raise FormatError("zip entry with an unsafe path", field=f"zip:{name}")
            if info.flag_bits & 0x1:
                raise FormatError("encrypted zip entries are not read", field=f"zip:{name}")
            total += info.file_size
            packed += info.compress_size
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > limits.ratio_floor and ratio > limits.max_zip_ratio:
                raise FormatError(
                    f"zip entry compressed {ratio:.0f}:1, more than {limits.max_zip_ratio}:1",
                    field=f"zip:{name}",
                )
        if total > limits.max_zip_total_bytes:
            raise FormatError(
                f"zip expands to more than {limits.max_zip_total_bytes} bytes", field="file"
            )
        ratio = total / max(packed, 1)
        if total > limits.ratio_floor and ratio > limits.max_zip_total_ratio:
            raise FormatError(
                f"zip expands {ratio:.0f}:1 in all ({total} bytes from {packed}), more than "
                f"{limits.max_zip_total_ratio}:1",
                field="file",
            )

    def open(self, info: zipfile.ZipInfo) -> BinaryIO:
        """A stream of one member (never more than its declared, checked size)."""
        return self.zip.open(info)  # type: ignore[return-value]

    def asset(self, file_id: str) -> tuple[str, bytes] | None:
        """``(media type, bytes)`` of the member named after ``file_id`` (``file-AbC``
        matches ``file-AbC-photo.png`` anywhere in the archive), or None."""
        if self._assets is None:
            self._assets = {}
            for info in self.infos:
                key = _asset_key(posixpath.basename(info.filename))
                self._assets.setdefault(key, []).append(info)
        for info in self._assets.get(file_id, []):
            base = posixpath.basename(info.filename)
            if base == file_id or base.startswith((f"{file_id}-", f"{file_id}.")):
                return self._read_asset(info)
        return None

    def _read_asset(self, info: zipfile.ZipInfo) -> tuple[str, bytes] | None:
        if info.file_size > self.limits.max_asset_bytes:
            return None
        try:
            with self.zip.open(info) as member:
                data = member.read(self.limits.max_asset_bytes + 1)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError):
            return None
        return self._media_type(info.filename, data), data

    def _media_type(self, filename: str, data: bytes) -> str:
        # ChatGPT names files file-<id>.dat and says their names in an index: the index's
        # name first, then the member's own, then the bytes (magic numbers).
        if self._asset_names is None:
            self._asset_names = self._read_asset_names()
        base = posixpath.basename(filename)
        for name in (self._asset_names.get(_asset_key(base)), base):
            guessed = mimetypes.guess_type(name)[0] if name else None
            if guessed is not None:
                return guessed
        return filetype.guess_mime(data) or "application/octet-stream"

    def _read_asset_names(self) -> dict[str, str]:
        """The original names of the assets, from ``conversation_asset_file_names.json``
        (a map of file id to name, or a list of objects naming both), when there is one."""
        for info in self.infos:
            if posixpath.basename(info.filename) != ASSET_NAMES or (
                info.file_size > self.limits.max_entry_bytes
            ):
                continue
            try:
                with self.zip.open(info) as member:
                    index = orjson.loads(member.read())
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, orjson.JSONDecodeError):
                return {}
            return asset_names(index)
        return {}


# Bytes one central-directory entry takes, at most, for the names we accept.
_DIRECTORY_ENTRY_BYTES = 46 + 1024 + 1024


def _check_directory(stream: BinaryIO, limits: Limits) -> None:
    """Refuse, from the end record alone, an archive whose directory lists too many
    entries: ``ZipFile`` reads the whole directory into memory before we could count."""
    # zipfile's reader of the end record is private, but it is what ZipFile itself uses.
    end_record = getattr(zipfile, "_EndRecData")(stream)  # noqa: B009
    stream.seek(0)
    if end_record is None:
        raise zipfile.BadZipFile("no end of central directory record")
    entries, size = end_record[4], end_record[5]  # zipfile's _ECD_ENTRIES_TOTAL, _ECD_SIZE
    if entries > limits.max_zip_entries or size > limits.max_zip_entries * _DIRECTORY_ENTRY_BYTES:
        raise FormatError(f"zip holds more than {limits.max_zip_entries} entries", field="file")


ASSET_NAMES = "conversation_asset_file_names.json"
_ID_KEYS = ("file_id", "id", "asset_pointer", "file")
_NAME_KEYS = ("file_name", "name", "filename", "original_name")


def asset_names(index: Any) -> dict[str, str]:
    """File id -> original name, from the shapes the index is seen in: ``{id: name}``,
    ``{id: {"name": ...}}`` or ``[{"file_id": ..., "file_name": ...}]``."""
    pairs: list[tuple[Any, Any]] = []
    if isinstance(index, dict):
        pairs = [
            (key, _first(value, _NAME_KEYS) if isinstance(value, dict) else value)
            for key, value in index.items()
        ]
    elif isinstance(index, list):
        pairs = [
            (_first(item, _ID_KEYS), _first(item, _NAME_KEYS))
            for item in index
            if isinstance(item, dict)
        ]
    return {
        _asset_key(file_id.split("://", 1)[-1]): name
        for file_id, name in pairs
        if isinstance(file_id, str) and isinstance(name, str)
    }


def _first(item: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((item[key] for key in keys if isinstance(item.get(key), str)), None)


def _asset_key(base: str) -> str:
    # "file-AbC-photo.png" -> "file-AbC"; "file_00ab-x.png" -> "file_00ab".
    match = re.match(r"file[-_][A-Za-z0-9]+", base)
    return match.group(0) if match else base


def zip_entries(
    stream: BinaryIO, members: Callable[[str], bool], limits: Limits
) -> Iterator[Entry]:
    """The entries of the conversation files of a zip (``members`` says which),
    streamed one by one; the archive is checked first."""
    try:
        archive = SafeZip(stream, limits)
    except FormatError as error:
        yield Entry("file", error=error)
        return
    chosen = sorted((i for i in archive.infos if members(i.filename)), key=_natural)
    if not chosen:
        message = "the zip archive holds no conversations file"
        yield Entry("file", error=FormatError(message, field="file"))
        return
    for info in chosen:
        try:
            with archive.open(info) as member:
                for entry in json_entries(member, info.filename, limits):
                    entry.archive = archive
                    yield entry
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError) as error:
            message = f"zip member cannot be read: {error}"
            yield Entry(info.filename, error=FormatError(message, field=info.filename))


def _natural(info: zipfile.ZipInfo) -> tuple[Any, ...]:
    # conversations-2.json before conversations-10.json.
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", info.filename))
