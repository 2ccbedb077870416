"""The media rules anthropic and bedrock-converse share, in the provider's words: an image's
detail hint has no place, a file id of another provider means nothing, and media the API
cannot take is left out with its summary (never its bytes)."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import report_block_dropped
from providers.formats.base import Drift
from providers.umf import AudioBlock, DocumentBlock, ImageBlock, MediaSource

Media = ImageBlock | DocumentBlock | AudioBlock


def report_image_detail(block: ImageBlock, path: str, drift: Drift, target: str) -> None:
    """The note for an image detail hint (other than ``auto``: the caller checks, most
    images have none) the API has no place for."""
    drift.add(
        "field-unknown",
        f"{target} images take no detail hint",
        field=f"{path}.detail",
        original=block.detail,
        severity="info",
    )


def unsendable(source: MediaSource, target: str, what: str) -> str:
    """Why a source the API has no member for cannot be sent (``what``: "source",
    "image source")."""
    if source.type == "file":
        return f"a file id of another provider means nothing to {target}"
    return f"{target} cannot take this {source.type} {what}"


def drop_media(path: str, block: Media, why: str, drift: Drift) -> dict[str, Any] | None:
    """Report media the API cannot take (shown as :func:`report_block_dropped` shows a
    block: its type and summary, never its bytes); None, to leave the block out."""
    report_block_dropped(block, path, drift, f"{why}; left out")
    return None


def report_filename(block: DocumentBlock, path: str, drift: Drift, note: str) -> None:
    """The note for a document's file name the API has no place for beside its title
    (the caller checks that there is one, other than the title)."""
    drift.add(
        "field-unknown", note, field=f"{path}.filename", original=block.filename, severity="info"
    )
