"""Images: Ollama sends bare base64 strings, with no media type and no URLs.

Reading, the media type is sniffed from the first bytes (PNG, JPEG, GIF, WebP) and the
block is marked ``$sniffed`` so a reader knows it was inferred, not sent. Writing, a
base64 image or data URI travels as its data; an ``http(s)`` URL cannot be fetched during a
conversion (no network), so it is kept as text naming the URL (``content-type-unsupported``);
a provider file id means nothing to Ollama and is dropped (``content-dropped``).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from providers.formats._common import is_base64, parse_data_uri
from providers.formats.base import Drift, FormatError
from providers.umf import ImageBlock, MediaSource

from ._shared import FORMAT_ID

# Enough base64 characters to hold the 12 bytes the longest signature (WebP) needs.
_PREFIX_CHARS = 16
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"WEBP", 8, "image/webp"),
)


def sniff_media_type(data: str) -> str | None:
    """The image media type the base64 ``data`` starts with, or None when unknown."""
    try:
        head = base64.b64decode(data[:_PREFIX_CHARS], validate=True)
    except (binascii.Error, ValueError):
        return None
    for signature, offset, media_type in _SIGNATURES:
        riff = media_type != "image/webp" or head.startswith(b"RIFF")
        if head[offset : offset + len(signature)] == signature and riff:
            return media_type
    return None


def parse_image(value: Any, path: str) -> ImageBlock:
    """One entry of ``images``: a base64 string."""
    if not isinstance(value, str) or not is_base64(value):
        raise FormatError("an image is a base64 string", field=path)
    media_type = sniff_media_type(value)
    extra = {FORMAT_ID: {"$sniffed": True}} if media_type else {}
    source = MediaSource(type="base64", media_type=media_type, data=value)
    return ImageBlock(source=source, extra=extra)


def media_summary(source: MediaSource) -> dict[str, Any]:
    """What a warning says about media (never the bytes themselves)."""
    summary = {
        "source": source.type,
        "media_type": source.media_type,
        "url": None if source.url and source.url.startswith("data:") else source.url,
        "file_id": source.file_id,
    }
    return {key: value for key, value in summary.items() if value is not None}


def image_data(block: ImageBlock, path: str, drift: Drift) -> str | None:
    """The base64 data Ollama takes for an image, or None (with a warning) when there is
    none to give; an unfetchable URL is reported here and sent as text by the caller."""
    source = block.source
    data = source.data if source.type == "base64" else None
    if source.type == "url" and source.url and source.url.startswith("data:"):
        decoded = parse_data_uri(source.url)
        data = decoded[1] if decoded else None
    if data is not None and is_base64(data):
        return data
    if source.type == "url" and source.url and not source.url.startswith("data:"):
        return None
    drift.add(
        "content-dropped",
        "Ollama takes images as base64 bytes only; this one has none to send",
        field=path,
        original={"type": "image", **media_summary(source)},
    )
    return None


def image_url_text(block: ImageBlock, path: str, drift: Drift) -> str | None:
    """The text standing in for an image URL Ollama cannot fetch, or None for no URL."""
    url = block.source.url
    if block.source.type != "url" or not url or url.startswith("data:"):
        return None
    text = f"[image: {url}]"
    drift.add(
        "content-type-unsupported",
        "Ollama cannot fetch image URLs (and conversion does not download); "
        "the URL is sent as text",
        field=path,
        original={"type": "image", "url": url},
        transformed=text,
    )
    return text
