"""UMF images, documents and audio -> Anthropic content blocks: what the API takes inline or
by URL, and a warning for each one it cannot take."""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.media import (
    drop_media,
    report_filename,
    report_image_detail,
    unsendable,
)
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_block_dropped
from providers.formats._kit.extra import hint
from providers.formats._kit.wire import decoded_text, inline_media
from providers.formats.anthropic._constants import (
    FORMAT_ID,
    IMAGE_MEDIA_TYPES,
    PDF_MEDIA_TYPE,
)
from providers.umf import (
    DocumentBlock,
    ImageBlock,
)


def render_image(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _image_source(block, path, ctx)
    if source is None:
        return None
    if block.detail not in (None, "auto"):
        report_image_detail(block, path, ctx.drift, "Anthropic")
    return {"type": "image", "source": source}


def _image_source(block: ImageBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    inline = inline_media(source)
    if inline is not None:
        media_type, data = inline
        if media_type in IMAGE_MEDIA_TYPES:
            return {"type": "base64", "media_type": media_type, "data": data}
        return drop_media(path, block, f"Anthropic takes no {media_type} images", ctx.drift)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    return drop_media(path, block, unsendable(source, "Anthropic", "source"), ctx.drift)


def render_document(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _document_source(block, path, ctx)
    if source is None:
        return None
    body: dict[str, Any] = {"type": "document", "source": source}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        report_filename(block, path, ctx.drift, "Anthropic documents have a title but no file name")
    return body


def _document_source(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    inline = inline_media(source)
    if inline is not None:
        media_type, data = inline
        if media_type == PDF_MEDIA_TYPE:
            return {"type": "base64", "media_type": PDF_MEDIA_TYPE, "data": data}
        text = decoded_text(data) if media_type.startswith("text/") else None
        if text is not None:
            return {"type": "text", "media_type": "text/plain", "data": text}
        return drop_media(path, block, f"Anthropic takes no {media_type} documents", ctx.drift)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    if source.type == "text":
        return {"type": "text", "media_type": "text/plain", "data": source.data or ""}
    return drop_media(path, block, unsendable(source, "Anthropic", "source"), ctx.drift)


def verbatim_source(block: ImageBlock | DocumentBlock) -> dict[str, Any]:
    """The source exactly as this format read it (see the hints in ``_parse_blocks``)."""
    content_source = hint(block.extra, FORMAT_ID, "content_source")
    if content_source is not None:
        out: dict[str, Any] = {"type": "content", "content": content_source}
    else:
        source = block.source.model_dump(exclude_none=True)
        out = {"type": source.pop("type"), **source}
    out.update(hint(block.extra, FORMAT_ID, "source_fields", {}))
    return out


def render_audio(block: Any, path: str, ctx: RenderContext) -> None:
    report_block_dropped(block, path, ctx.drift, "Anthropic takes no audio; left out")
    return None
