"""UMF images, documents and audio -> Gemini ``inlineData`` / ``fileData`` parts: MIME types,
URLs Gemini can fetch, and a warning for each one it cannot take."""

from __future__ import annotations

import base64
import mimetypes
import re
from typing import Any
from urllib.parse import urlsplit

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_block_dropped, report_defaulted
from providers.formats._kit.wire import is_base64, parse_data_uri
from providers.formats.gemini._constants import FETCHABLE_SCHEMES, GEMINI_FILE_PREFIXES
from providers.umf import MediaSource

# Used (with a ``parameter-defaulted`` note) for base64 media whose source named no type.
_DEFAULT_MEDIA_TYPES = {"image": "image/png", "audio": "audio/wav", "document": "application/pdf"}

# ``scheme://host/path?query#fragment`` in ASCII without spaces, controls or brackets in
# the host: its path, as urlsplit reads it, runs from the host to the first ``?`` or ``#``.
# urlsplit cleans and checks any URL first, which cost 29k instructions per URL (2% of
# bench/convert_instructions.py's gemini figure); other URLs still go through it.
_PLAIN_URL = re.compile(
    r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#\[\]\x00-\x20\x7f]*"
    r"(?P<path>/[^?#\x00-\x20\x7f]*)?(?:[?#][^\x00-\x20\x7f]*)?"
)


def url_path(uri: str) -> str:
    """The path of a URL, as ``urllib.parse.urlsplit`` reads it."""
    plain = _PLAIN_URL.fullmatch(uri) if uri.isascii() else None
    if plain is None:
        return urlsplit(uri).path
    return plain["path"] or ""


def render_media(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source: MediaSource = block.source
    uri = source.url if source.type == "url" else source.file_id if source.type == "file" else None
    if ctx.faithful and source.type == "base64" and source.data is not None:
        return _inline(source.media_type, source.data, block, path, ctx)
    if ctx.faithful and uri is not None:
        return {"fileData": _file_data(uri, source.media_type)}
    _warn_media_fields(block, path, ctx)
    if source.type == "base64" and source.data is not None:
        return _inline(_inline_type(block, path, ctx), source.data, block, path, ctx)
    if source.type == "url" and uri and uri.startswith("data:"):
        inline = parse_data_uri(uri)
        if inline is not None:
            return _inline(inline[0], inline[1], block, path, ctx)
    if source.type == "text" and source.data is not None:
        encoded = base64.b64encode(source.data.encode()).decode()
        return {"inlineData": {"mimeType": source.media_type or "text/plain", "data": encoded}}
    if uri and uri.startswith(GEMINI_FILE_PREFIXES):
        return {"fileData": _file_data(uri, source.media_type)}
    if uri and source.type == "url" and uri.startswith(FETCHABLE_SCHEMES):
        return _url_as_file(block, uri, path, ctx)
    why = "a file id of another provider" if source.type == "file" else "this source"
    report_block_dropped(block, path, ctx.drift, f"Gemini cannot take {why}; left out")
    return None


def _inline_type(block: Any, path: str, ctx: RenderContext) -> str:
    """The MIME type of base64 media: its own, else the block type's default (noted)."""
    if block.source.media_type is not None:
        return str(block.source.media_type)
    media_type = _DEFAULT_MEDIA_TYPES.get(block.type, "application/octet-stream")
    why = "Gemini needs a MIME type for inline data; a default was used"
    report_defaulted(f"{path}.source.media_type", media_type, ctx.drift, why)
    return media_type


def _inline(
    media_type: str | None, data: str, block: Any, path: str, ctx: RenderContext
) -> dict[str, Any] | None:
    if not ctx.faithful and not is_base64(data):
        why = "inline data that is not base64 cannot be sent to Gemini; left out"
        report_block_dropped(block, path, ctx.drift, why)
        return None
    blob: dict[str, Any] = {"data": data}
    if media_type is not None:
        blob = {"mimeType": media_type, **blob}
    return {"inlineData": blob}


def _file_data(uri: str, media_type: str | None) -> dict[str, Any]:
    return {"fileUri": uri} if media_type is None else {"mimeType": media_type, "fileUri": uri}


def _url_as_file(block: Any, uri: str, path: str, ctx: RenderContext) -> dict[str, Any]:
    """A web URL as ``fileData`` (its type, if the source names none, guessed from its file
    extension): Gemini fetches only some URLs (no download here)."""
    media_type = block.source.media_type or mimetypes.guess_type(url_path(uri))[0]
    body = {"fileData": _file_data(uri, media_type)}
    ctx.drift.add(
        "content-type-unsupported",
        "Gemini takes media URLs as fileData, which it fetches only for supported (public "
        "HTTPS, Cloud Storage) URIs; the URL was not downloaded",
        field=path,
        original=uri,
        transformed=body,
    )
    return body


def _warn_media_fields(block: Any, path: str, ctx: RenderContext) -> None:
    """UMF media fields a Gemini part has no place for."""
    names = {"image": ("detail",), "document": ("title", "filename")}.get(block.type, ())
    for name in names:
        value = getattr(block, name)
        if value is not None and value != "auto":
            ctx.drift.add(
                "field-unknown",
                f"Gemini parts have no {name}; left out",
                field=f"{path}.{name}",
                original=value,
                severity="info",
            )
