"""Content parts <-> UMF blocks: ``text``, ``image_url``, ``input_audio``, ``file``, ``refusal``.

Where the provider's fields go: a part's own unknown fields stay on the block verbatim; the
unknown fields of its inner object (``image_url``, ``input_audio``, ``file``) under the
``$inner`` hint. ``$uri`` keeps a data URI (or bare base64 ``file_data``) whose exact
spelling the block's source would not give back, ``$format`` an audio format that the
media type would not give back.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from typing import Any

from providers.formats._common import (
    data_uri,
    parse_arguments,
    parse_data_uri,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
)

from ._shared import RenderContext, at, get_hint, make_extra, put_fields

PART_TYPES = ("text", "image_url", "input_audio", "file", "refusal")

# Audio formats by media type, for sources that spell the type the IANA way.
_AUDIO_FORMATS = {"audio/mpeg": "mp3", "audio/x-wav": "wav", "audio/wave": "wav"}
_ACCEPTED_AUDIO = ("wav", "mp3")


# --------------------------------------------------------------------------- parse


def parse_part(raw: JSON, path: str) -> Block:
    """One content part as a UMF block; :class:`FormatError` for anything else."""
    part = require_mapping(raw, path)
    kind = part.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise FormatError(
            f"unknown content part type {kind!r}; expected one of {', '.join(PART_TYPES)}",
            field=at(path, "type"),
        )
    return parser(part, path)


def _parse_text(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("text"), at(path, "text"))
    return TextBlock(text=text, extra=make_extra(unknown_fields(part, ("type", "text"), path=path)))


def _parse_refusal(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("refusal"), at(path, "refusal"))
    return RefusalBlock(
        text=text, extra=make_extra(unknown_fields(part, ("type", "refusal"), path=path))
    )


def _parse_image(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "image_url")
    inner = require_mapping(part.get("image_url"), inner_path)
    url = require_str(inner.get("url"), at(inner_path, "url"))
    fields, rest = split(inner, ("detail",), handled=("url",), path=inner_path)
    detail = require_str(fields["detail"], at(inner_path, "detail")) if fields else None
    source, uri = _base64_source(url) or (MediaSource(type="url", url=url), None)
    outer = unknown_fields(part, ("type", "image_url"), path=path)
    return ImageBlock(
        source=source, detail=detail, extra=make_extra(outer, inner=rest or None, uri=uri)
    )


def _parse_audio(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "input_audio")
    inner = require_mapping(part.get("input_audio"), inner_path)
    data = require_str(inner.get("data"), at(inner_path, "data"))
    audio_format = require_str(inner.get("format"), at(inner_path, "format"))
    media_type = f"audio/{audio_format}"
    format_hint = None if wire_audio_format(media_type) == audio_format else audio_format
    rest = unknown_fields(inner, ("data", "format"), path=inner_path)
    return AudioBlock(
        source=MediaSource(type="base64", media_type=media_type, data=data),
        extra=make_extra(
            unknown_fields(part, ("type", "input_audio"), path=path),
            inner=rest or None,
            format=format_hint,
        ),
    )


def _parse_file(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "file")
    inner = require_mapping(part.get("file"), inner_path)
    fields, rest = split(inner, ("file_data", "file_id", "filename"), path=inner_path)
    for key, value in fields.items():
        require_str(value, at(inner_path, key))
    uri = None
    if "file_data" in fields:
        source, uri = _file_data_source(fields["file_data"], fields.get("filename"))
        source.file_id = fields.get("file_id")
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields["file_id"])
    else:
        raise FormatError("a file part needs file_data or file_id", field=inner_path)
    outer = unknown_fields(part, ("type", "file"), path=path)
    return DocumentBlock(
        source=source,
        filename=fields.get("filename"),
        extra=make_extra(outer, inner=rest or None, uri=uri),
    )


_PARSERS: dict[str, Callable[[dict[str, Any], str], Block]] = {
    "text": _parse_text,
    "image_url": _parse_image,
    "input_audio": _parse_audio,
    "file": _parse_file,
    "refusal": _parse_refusal,
}


def _base64_source(uri: str) -> tuple[MediaSource, str | None] | None:
    """A base64 source for a ``data:`` URI, with the URI itself when the source would
    not spell it the same way again (extra parameters, no media type)."""
    parsed = parse_data_uri(uri)
    if parsed is None:
        return None
    media_type, data = parsed
    source = MediaSource(type="base64", media_type=media_type, data=data)
    return source, None if data_uri(media_type, data) == uri else uri


def _file_data_source(file_data: str, filename: str | None) -> tuple[MediaSource, str | None]:
    # file_data is a data URI in OpenAI's examples, but bare base64 is accepted too.
    found = _base64_source(file_data)
    if found is not None:
        return found
    media_type = mimetypes.guess_type(filename)[0] if filename else None
    return MediaSource(type="base64", media_type=media_type, data=file_data), file_data


def parse_custom_input(text: str) -> JSON:
    """The ``input`` of a custom tool call: the object it spells, else ``{}`` (the text
    itself travels as ``raw_arguments``)."""
    value, ok = parse_arguments(text)
    return value if ok and isinstance(value, dict) else {}


# --------------------------------------------------------------------------- render


def wire_audio_format(media_type: str | None) -> str | None:
    """The ``input_audio.format`` for a media type (``audio/mpeg`` -> ``mp3``)."""
    if media_type is None or not media_type.startswith("audio/"):
        return None
    return _AUDIO_FORMATS.get(media_type, media_type.removeprefix("audio/"))


def media_uri(source: MediaSource, extra: Extra) -> str | None:
    """The URL or data URI that carries ``source``, spelled as it came in when it did."""
    if source.type == "url":
        return source.url
    if source.type != "base64" or source.data is None:
        return None
    original = get_hint(extra, "uri")
    if isinstance(original, str) and _same_bytes(original, source):
        return original
    return data_uri(source.media_type, source.data)


def _same_bytes(original: str, source: MediaSource) -> bool:
    parsed = parse_data_uri(original)
    if parsed is None:
        return original == source.data
    return parsed == (source.media_type, source.data)


def describe(block: Block) -> dict[str, Any]:
    """What a warning says about a dropped or converted media block (never its bytes)."""
    out: dict[str, Any] = {"type": block.type}
    source = getattr(block, "source", None)
    if isinstance(source, MediaSource):
        out["source"] = source.model_dump(exclude_none=True, exclude={"data"})
    for key in ("title", "filename"):
        if getattr(block, key, None) is not None:
            out[key] = getattr(block, key)
    return out


def render_part(block: Block, path: str, ctx: RenderContext, role: str) -> dict[str, Any] | None:
    """``block`` as a content part, or None (with a warning) when no part can carry it.

    Refusals outside assistant messages become text unless the conversation is rendered
    as the openai-chat document it was read from."""
    if isinstance(block, TextBlock):
        return _render_text(block, path, ctx)
    if isinstance(block, RefusalBlock):
        return _render_refusal(block, path, ctx, role)
    if isinstance(block, ImageBlock):
        return _render_image(block, path, ctx)
    if isinstance(block, AudioBlock):
        return _render_audio(block, path, ctx)
    if isinstance(block, DocumentBlock):
        return _render_document(block, path, ctx)
    raise TypeError(f"{block.type} blocks are not content parts")  # callers sort these out


def _render_text(block: TextBlock, path: str, ctx: RenderContext) -> dict[str, Any]:
    if block.citations and get_hint(block.extra, "citations") is None:
        ctx.drift.add(
            "content-dropped",
            "OpenAI Chat requests carry no citations",
            field=at(path, "citations"),
            original=block.citations,
        )
    return put_fields({"type": "text", "text": block.text}, block.extra)


def _render_refusal(
    block: RefusalBlock, path: str, ctx: RenderContext, role: str
) -> dict[str, Any]:
    if role == "assistant" or ctx.faithful:
        return put_fields({"type": "refusal", "refusal": block.text}, block.extra)
    ctx.drift.add(
        "content-type-unsupported",
        f"only assistant messages hold refusals; sent as text in a {role} message",
        field=path,
        original="refusal",
        transformed="text",
    )
    return {"type": "text", "text": block.text}


def _render_image(block: ImageBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    url = media_uri(block.source, block.extra)
    if url is None:
        _drop(ctx, block, path, "OpenAI Chat takes images only as a URL or base64 data")
        return None
    inner: dict[str, Any] = {"url": url}
    if block.detail is not None:
        inner["detail"] = block.detail
    put_fields(inner, block.extra, "inner")
    return put_fields({"type": "image_url", "image_url": inner}, block.extra)


def _render_audio(block: AudioBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    audio_format = get_hint(block.extra, "format") or wire_audio_format(block.source.media_type)
    data = block.source.data if block.source.type == "base64" else None
    accepted = ctx.faithful or audio_format in _ACCEPTED_AUDIO
    if data is None or audio_format is None or not accepted:
        _drop(ctx, block, path, "OpenAI Chat takes audio only as base64 wav or mp3")
        return None
    inner = put_fields({"data": data, "format": audio_format}, block.extra, "inner")
    return put_fields({"type": "input_audio", "input_audio": inner}, block.extra)


def _render_document(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    file: dict[str, Any] = {}
    uri = media_uri(source, block.extra) if source.type == "base64" else None
    if uri is not None:
        file["file_data"] = uri
    if source.file_id is not None and source.type in ("base64", "file"):
        file["file_id"] = source.file_id
    if not file:
        return _document_as_text(block, path, ctx)
    filename = block.filename if ctx.faithful else _filename(block, path, ctx, uri is not None)
    if filename is not None:
        file["filename"] = filename
    put_fields(file, block.extra, "inner")
    return put_fields({"type": "file", "file": file}, block.extra)


def _filename(block: DocumentBlock, path: str, ctx: RenderContext, has_data: bool) -> str | None:
    # OpenAI wants a filename with file_data; a title is the next best thing to one.
    filename = block.filename or block.title
    if block.title is not None and block.title != filename:
        ctx.drift.add(
            "content-dropped",
            "OpenAI Chat files have a filename but no title",
            field=at(path, "title"),
            original=block.title,
            severity="info",
        )
    if filename is None and has_data:
        extension = mimetypes.guess_extension(block.source.media_type or "") or ".bin"
        filename = f"document{extension}"
        ctx.drift.add(
            "parameter-defaulted",
            "OpenAI Chat wants a filename with file data",
            field=at(path, "filename"),
            transformed=filename,
            severity="info",
        )
    return filename


def _document_as_text(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    # OpenAI's file part takes only bytes or a file id: plain text and URLs become text.
    text = block.source.data if block.source.type == "text" else block.source.url
    if text is None:
        _drop(ctx, block, path, "OpenAI Chat takes documents only as base64 data or a file id")
        return None
    ctx.drift.add(
        "content-type-unsupported",
        f"OpenAI Chat files take no {block.source.type} source; sent as a text part",
        field=path,
        original=describe(block),
        transformed="text",
    )
    return {"type": "text", "text": text}


def _drop(ctx: RenderContext, block: Block, path: str, message: str) -> None:
    ctx.drift.add("content-dropped", message, field=path, original=describe(block))
