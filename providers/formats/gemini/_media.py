"""MIME types and summaries for media parts."""

from __future__ import annotations

import mimetypes
from typing import Any
from urllib.parse import urlsplit

from providers.umf import MediaSource

# Used (with a ``parameter-defaulted`` note) for base64 media whose source named no type.
_DEFAULT_MEDIA_TYPES = {"image": "image/png", "audio": "audio/wav", "document": "application/pdf"}


def default_media_type(block_type: str) -> str:
    """The MIME type assumed for inline media of a block type that named none."""
    return _DEFAULT_MEDIA_TYPES.get(block_type, "application/octet-stream")


def guess_media_type(uri: str) -> str | None:
    """The MIME type a URL's file extension suggests, or None."""
    guessed, _ = mimetypes.guess_type(urlsplit(uri).path)
    return guessed


def media_summary(source: MediaSource) -> dict[str, Any]:
    """What a warning says about dropped media (never the bytes themselves)."""
    summary = {"source": source.type, "media_type": source.media_type, "url": source.url}
    summary["file_id"] = source.file_id
    return {key: value for key, value in summary.items() if value is not None}
