"""Content parts <-> UMF blocks: ``text``, ``image_url``, ``document`` and ``thinking``.

Where the provider's fields go: a part's own unknown fields stay on the block verbatim; the
unknown fields of its inner object (``image_url``, ``document``) under ``$inner``. ``$uri``
keeps a data URI the block's source would not spell the same way; ``$id`` a document's id.
A document's ``data`` becomes a text source: JSON text (``application/json``) for an
object, the string itself (``text/plain``) when the API was sent a string.
"""

from __future__ import annotations

from typing import Any

import orjson

from providers.formats._chatlike import (
    Context,
    at,
    decoded_text,
    describe,
    drop,
    media_uri,
    require,
    source_from_url,
    split,
)
from providers.formats._common import require_mapping, require_str
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
)

from ._shared import IMAGE_DETAILS, NS, PART_TYPES

JSON_TEXT = "application/json"

# --------------------------------------------------------------------------- parse


def parse_part(raw: JSON, path: str, role: str) -> Block:
    """One content part of a ``role`` message; :class:`FormatError` for anything else."""
    part = require_mapping(raw, path)
    kind = part.get("type")
    allowed = PART_TYPES[role]
    if kind not in allowed:
        raise FormatError(
            f"a {role} content part has type {', '.join(allowed)}", field=at(path, "type")
        )
    if kind == "image_url":
        return _parse_image(part, path)
    if kind == "document":
        return _parse_document(part, path)
    key = "thinking" if kind == "thinking" else "text"
    text = require_str(part.get(key), at(path, key))
    _, rest = split(part, (), handled=("type", key), path=path)
    if kind == "thinking":
        return ThinkingBlock(text=text, provider=NS.format_id, extra=NS.extra(rest))
    return TextBlock(text=text, extra=NS.extra(rest))


def _parse_image(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "image_url")
    inner = require_mapping(part.get("image_url"), inner_path)
    url = require_str(inner.get("url"), at(inner_path, "url"))
    fields, rest = split(inner, ("detail",), handled=("url",), path=inner_path)
    detail = require_str(fields["detail"], at(inner_path, "detail")) if fields else None
    source, uri = source_from_url(url)
    _, outer = split(part, (), handled=("type", "image_url"), path=path)
    return ImageBlock(
        source=source, detail=detail, extra=NS.extra(outer, inner=rest or None, uri=uri)
    )


def _parse_document(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "document")
    inner = require_mapping(part.get("document"), inner_path)
    source, title = document_source(inner.get("data"), at(inner_path, "data"))
    fields, rest = split(inner, ("id",), handled=("data",), path=inner_path)
    doc_id = require_str(fields["id"], at(inner_path, "id")) if fields else None
    _, outer = split(part, (), handled=("type", "document"), path=path)
    return DocumentBlock(
        source=source, title=title, extra=NS.extra(outer, inner=rest or None, id=doc_id)
    )


def document_source(data: JSON, path: str) -> tuple[MediaSource, str | None]:
    """A document's ``data`` (an object, or a string) as a text source, and its title."""
    if isinstance(data, str):
        return MediaSource(type="text", media_type="text/plain", data=data), None
    mapping = require(data, lambda v: isinstance(v, dict), "an object or a string", path)
    try:
        text = orjson.dumps(mapping).decode()
    except orjson.JSONEncodeError:
        raise FormatError("document data holds a number too large", field=path) from None
    title = mapping.get("title")
    return MediaSource(type="text", media_type=JSON_TEXT, data=text), (
        title if isinstance(title, str) else None
    )


# --------------------------------------------------------------------------- render


def render_text(block: TextBlock, path: str, ctx: Context) -> dict[str, Any]:
    """A text part; citations of other formats are ``content-dropped``."""
    if block.citations and NS.hint(block.extra, "citations") is None:
        ctx.drift.add(
            "content-dropped",
            "citations of another format cannot be sent to Cohere",
            field=at(path, "citations"),
            original=block.citations,
        )
    return NS.put({"type": "text", "text": block.text}, block.extra)


def render_image(block: ImageBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``image_url`` part (a URL or a data URI), or None when the source cannot be sent."""
    url = media_uri(block.source, block.extra, NS)
    if url is None:
        drop(block, path, "Cohere takes images only as a URL or base64 data", ctx)
        return None
    inner: dict[str, Any] = {"url": url}
    if block.detail is not None and (ctx.faithful or block.detail in IMAGE_DETAILS):
        inner["detail"] = block.detail
    elif block.detail is not None:
        ctx.drift.add(
            "content-dropped",
            f"Cohere image detail is one of {', '.join(IMAGE_DETAILS)}",
            field=at(path, "detail"),
            original=block.detail,
            severity="info",
        )
    NS.put(inner, block.extra, "inner")
    return NS.put({"type": "image_url", "image_url": inner}, block.extra)


def document_data(block: DocumentBlock, path: str, ctx: Context, where: str) -> JSON | None:
    """The ``data`` of a Cohere document for ``block``: as read when this format read it,
    else text or a URL with the title (``content-type-unsupported``); None for bytes no
    text can be read from (``content-dropped``)."""
    source = block.source
    native = _native_data(source)
    if native is not None and ctx.faithful:
        return native
    data = _foreign_data(block)
    if data is None:
        drop(block, path, "Cohere takes documents as text; these bytes are not text", ctx)
        return None
    ctx.drift.add(
        "content-type-unsupported",
        "Cohere takes documents as data to read, not files; sent as document data",
        field=path,
        original=describe(block),
        transformed=where,
    )
    return data


def _native_data(source: MediaSource) -> JSON | None:
    if source.type != "text" or source.data is None:
        return None
    if source.media_type == JSON_TEXT:
        try:
            value = orjson.loads(source.data)
        except orjson.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None
    return source.data if source.media_type == "text/plain" else None


def _foreign_data(block: DocumentBlock) -> dict[str, Any] | None:
    source = block.source
    data: dict[str, Any] = {}
    if block.title is not None or block.filename is not None:
        data["title"] = block.title if block.title is not None else block.filename
    if source.type == "text" and source.data is not None:
        native = _native_data(source)
        return native if isinstance(native, dict) else {**data, "text": source.data}
    if source.type == "url" and source.url:
        return {**data, "url": source.url}
    text = decoded_text(source)
    return {**data, "text": text} if text is not None else None


def render_document_part(block: DocumentBlock, data: JSON) -> dict[str, Any]:
    """A ``document`` content part holding ``data``, with the fields it was read with."""
    inner: dict[str, Any] = {"data": data}
    doc_id = NS.hint(block.extra, "id")
    if doc_id is not None:
        inner["id"] = doc_id
    NS.put(inner, block.extra, "inner")
    return NS.put({"type": "document", "document": inner}, block.extra)
