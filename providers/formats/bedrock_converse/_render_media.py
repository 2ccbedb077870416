"""UMF images, documents and audio -> Bedrock ``image`` / ``document`` / ``audio`` blocks.

Read back from this format (``faithful``), a block comes back exactly as read. From another
format: base64 bytes (or a ``data:`` URI) in a format Bedrock names are sent as ``bytes``;
an ``s3://`` URL or file id as ``s3Location``; an HTTP URL cannot be fetched during a
conversion, so it is sent as a text block naming it (``content-type-unsupported``); the rest
is left out (``content-dropped``). Inline data that is not base64 never gets here: the kit
leaves it out of every conversion (``providers.formats._kit.media``).
"""

from __future__ import annotations

import re
from typing import Any

from providers.formats._content_blocks.blocks import (
    Media,
    drop_media,
    report_filename,
    report_image_detail,
    unsendable,
)
from providers.formats._kit.context import RenderContext
from providers.formats._kit.extra import hint
from providers.formats._kit.wire import decoded_text, inline_media
from providers.formats.bedrock_converse._constants import (
    AUDIO_ALIASES,
    AUDIO_FORMATS,
    DOCUMENT_FORMATS,
    DOCUMENT_NAME_MAX,
    DOCUMENT_NAME_PATTERN,
    FORMAT_ID,
    IMAGE_ALIASES,
    IMAGE_FORMATS,
)
from providers.umf import AudioBlock, DocumentBlock, ImageBlock, MediaSource

_EXTENSIONS = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp"}
_DOCUMENT_EXTENSIONS = {name: name for name in DOCUMENT_FORMATS.values()}


def render_image(block: ImageBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """An ``image`` block, a text block naming an HTTP URL, or None (dropped, warned)."""
    if ctx.faithful:
        read_format = (block.source.media_type or "").removeprefix("image/")
        return {"image": {"format": read_format, "source": verbatim_source(block)}}
    if block.detail not in (None, "auto"):
        report_image_detail(block, path, ctx.drift, "Bedrock")
    image_format = _wire_format(block.source, "image/", IMAGE_FORMATS, IMAGE_ALIASES)
    return _media("image", image_format, block, path, ctx)


def render_audio(block: AudioBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """An ``audio`` block, a text block naming an HTTP URL, or None (dropped, warned)."""
    if ctx.faithful:
        read_format = (block.source.media_type or "").removeprefix("audio/")
        return {"audio": {"format": read_format, "source": verbatim_source(block)}}
    audio_format = _wire_format(block.source, "audio/", AUDIO_FORMATS, AUDIO_ALIASES)
    return _media("audio", audio_format, block, path, ctx)


def render_document(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """A ``document`` block (its ``name`` is the title), a text block naming an HTTP URL, or
    None (dropped, warned)."""
    if ctx.faithful:
        body: dict[str, Any] = {"name": block.title}
        document_format = hint(block.extra, FORMAT_ID, "format")
        if document_format is None:
            document_format = DOCUMENT_FORMATS.get(block.source.media_type or "")
        if document_format is not None:
            body["format"] = document_format
        return {"document": {**body, "source": verbatim_source(block)}}
    source = _document_source(block, path, ctx)
    if source is None or "text" in source:
        return source
    return {"document": {**source, "name": _document_name(block, path, ctx)}}


def _document_source(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """``{"format", "source"}`` of a document, a text block naming its URL, or None."""
    source = block.source
    if source.type == "text":
        return {"format": _text_format(source.media_type), "source": {"text": source.data or ""}}
    inline = inline_media(source)
    if inline is not None:
        media_type, data = inline
        if media_type in DOCUMENT_FORMATS:
            return {"format": DOCUMENT_FORMATS[media_type], "source": {"bytes": data}}
        return _text_document(inline, block, path, ctx)
    document_format = DOCUMENT_FORMATS.get(source.media_type or "") or _extension(
        source.url or source.file_id, _DOCUMENT_EXTENSIONS
    )
    media = _media("document", document_format, block, path, ctx)
    if media is None or "text" in media:
        return media
    document: dict[str, Any] = media["document"]
    return document


def _text_document(
    inline: tuple[str, str], block: DocumentBlock, path: str, ctx: RenderContext
) -> dict[str, Any] | None:
    """A ``text/*`` document Bedrock has no format for, sent as plain text."""
    media_type, data = inline
    text = decoded_text(data) if media_type.startswith("text/") else None
    if text is None:
        return drop_media(path, block, f"Bedrock takes no {media_type} documents", ctx.drift)
    ctx.drift.add(
        "content-type-unsupported",
        f"Bedrock has no {media_type} document format; sent as a plain-text document",
        field=path,
        original=media_type,
        transformed="txt",
        severity="info",
    )
    return {"format": "txt", "source": {"text": text}}


def _text_format(media_type: str | None) -> str:
    return DOCUMENT_FORMATS.get(media_type or "", "txt")


def _media(
    member: str, wire_format: str | None, block: Media, path: str, ctx: RenderContext
) -> dict[str, Any] | None:
    source = block.source
    inline = inline_media(source)
    location = source.url if source.type == "url" else source.file_id
    if inline is not None and wire_format is not None:
        return {member: {"format": wire_format, "source": {"bytes": inline[1]}}}
    if inline is not None:
        return drop_media(path, block, f"Bedrock takes no {inline[0]} {member}s", ctx.drift)
    if location and location.startswith("s3://") and wire_format is not None:
        return {member: {"format": wire_format, "source": {"s3Location": {"uri": location}}}}
    if source.type == "url" and source.url and re.match(r"https?://", source.url):
        return _url_as_text(member, source.url, path, ctx)
    return drop_media(path, block, unsendable(source, "Bedrock", f"{member} source"), ctx.drift)


def _url_as_text(member: str, url: str, path: str, ctx: RenderContext) -> dict[str, Any]:
    text = f"[{member}: {url}]"
    ctx.drift.add(
        "content-type-unsupported",
        f"Bedrock cannot fetch {member} URLs (and a conversion fetches nothing); "
        "sent as text naming the URL",
        field=path,
        original=url,
        transformed=text,
    )
    return {"text": text}


def _wire_format(
    source: MediaSource, prefix: str, accepted: frozenset[str], aliases: dict[str, str]
) -> str | None:
    """The Bedrock format name for the source's media type (or its URL's extension)."""
    inline = inline_media(source)
    media_type = inline[0] if inline is not None else source.media_type
    if media_type is not None:
        name = aliases.get(media_type, media_type.removeprefix(prefix))
        return name if media_type.startswith(prefix) and name in accepted else None
    extensions = _EXTENSIONS if prefix == "image/" else {name: name for name in accepted}
    return _extension(source.url or source.file_id, extensions)


def _extension(location: str | None, names: dict[str, str]) -> str | None:
    if not location or "." not in location:
        return None
    return names.get(location.rsplit(".", 1)[1].lower())


def _document_name(block: DocumentBlock, path: str, ctx: RenderContext) -> str:
    """The title (or file name) in the characters Bedrock allows, or a numbered default."""
    original = block.title if block.title is not None else block.filename
    where = "title" if block.title is not None else "filename"
    name = re.sub(r"[^a-zA-Z0-9\-()\[\]]+", " ", original or "")
    name = " ".join(name.split())[:DOCUMENT_NAME_MAX].strip()
    if not DOCUMENT_NAME_PATTERN.fullmatch(name):
        name = f"document-{ctx.number('document')}"
        ctx.drift.add(
            "parameter-defaulted",
            "Bedrock documents need a name; a numbered default was used",
            field=f"{path}.{where}",
            original=original,
            transformed=name,
            severity="info",
        )
    elif name != original:
        ctx.drift.add(
            "parameter-normalized",
            "Bedrock document names allow letters, digits, single spaces, hyphens, "
            "parentheses and brackets only",
            field=f"{path}.{where}",
            original=original,
            transformed=name,
            severity="info",
        )
    if block.title is not None and block.filename not in (None, block.title):
        report_filename(
            block, path, ctx.drift, "Bedrock documents have a name but no separate file name"
        )
    return name


def verbatim_source(block: ImageBlock | DocumentBlock | AudioBlock) -> dict[str, Any]:
    """The ``source`` union exactly as this format read it (see ``_parse_blocks``)."""
    source = block.source
    content_source = hint(block.extra, FORMAT_ID, "content_source")
    if content_source is not None:
        return {"content": content_source}
    if source.type == "file":
        return {"s3Location": {"uri": source.file_id, **hint(block.extra, FORMAT_ID, "s3", {})}}
    return {"bytes" if source.type == "base64" else source.type: source.data}
