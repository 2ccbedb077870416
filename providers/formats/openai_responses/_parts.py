"""Content parts <-> UMF blocks: ``input_text``, ``output_text``, ``refusal``, ``input_image``
and ``input_file`` (in messages and in function-call outputs).

Where the provider's fields go: a part's unknown fields stay on the block verbatim.
``$type`` keeps a text part type the role would not give (``input_text`` in an assistant
message), ``$annotations: absent`` an ``output_text`` sent without its annotations (non-empty
annotations are the block's citations), ``$uri`` a data URI (or bare base64 ``file_data``)
whose exact spelling the block's source would not give back. Of an ``input_file`` with
several sources, the first of ``file_data``, ``file_url``, ``file_id`` is the block's
source and the others stay verbatim.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from typing import Any

from providers.formats._common import data_uri, parse_data_uri, require_str, split
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

from ._shared import (
    RenderContext,
    add_hints,
    at,
    fields_of,
    get_hint,
    make_extra,
    plain,
    put_fields,
)

PART_TYPES = ("input_text", "output_text", "refusal", "input_image", "input_file")
IMAGE_DETAILS = ("low", "high", "auto", "original")


def text_type(role: str) -> str:
    """The text part type a role writes by default."""
    return "output_text" if role == "assistant" else "input_text"


# --------------------------------------------------------------------------- parse


def parse_part(raw: JSON, path: str, role: str) -> Block:
    """One content part as a UMF block; :class:`FormatError` for anything else."""
    part = plain(raw, path)
    kind = part.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise FormatError(
            f"unknown content part type {kind!r}; expected one of {', '.join(PART_TYPES)}",
            field=at(path, "type"),
        )
    block = parser(part, path)
    if isinstance(block, TextBlock) and kind != text_type(role):
        add_hints(block.extra, type=kind)
    return block


def _parse_text(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("text"), at(path, "text"))
    rest = {k: v for k, v in part.items() if k not in ("type", "text")}
    citations = None
    hints: dict[str, Any] = {}
    if part["type"] == "output_text":
        annotations = rest.get("annotations")
        if "annotations" not in rest:
            hints["annotations"] = "absent"
        elif annotations == []:
            del rest["annotations"]
        elif isinstance(annotations, list) and all(isinstance(a, dict) for a in annotations):
            citations = rest.pop("annotations")
    return TextBlock(text=text, citations=citations, extra=make_extra(rest, **hints))


def _parse_refusal(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("refusal"), at(path, "refusal"))
    rest = {k: v for k, v in part.items() if k not in ("type", "refusal")}
    return RefusalBlock(text=text, extra=make_extra(rest))


def _parse_image(part: dict[str, Any], path: str) -> Block:
    fields, rest = split(part, ("image_url", "file_id", "detail"), handled=("type",), path=path)
    for key, value in fields.items():
        require_str(value, at(path, key))
    uri = None
    if "image_url" in fields:
        source, uri = base64_source(fields["image_url"]) or (
            MediaSource(type="url", url=fields["image_url"]),
            None,
        )
        source.file_id = fields.get("file_id")
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields["file_id"])
    else:
        raise FormatError("an input_image needs image_url or file_id", field=path)
    return ImageBlock(source=source, detail=fields.get("detail"), extra=make_extra(rest, uri=uri))


def _parse_file(part: dict[str, Any], path: str) -> Block:
    keys = ("file_data", "file_url", "file_id", "filename")
    fields, rest = split(part, keys, handled=("type",), path=path)
    for key, value in fields.items():
        require_str(value, at(path, key))
    uri = None
    if "file_data" in fields:
        source, uri = _file_data_source(fields.pop("file_data"), fields.get("filename"))
    elif "file_url" in fields:
        source = MediaSource(type="url", url=fields.pop("file_url"))
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields.pop("file_id"))
    else:
        raise FormatError("an input_file needs file_data, file_url or file_id", field=path)
    filename = fields.pop("filename", None)
    rest.update(fields)  # the sources after the first travel verbatim
    return DocumentBlock(source=source, filename=filename, extra=make_extra(rest, uri=uri))


_PARSERS: dict[str, Callable[[dict[str, Any], str], Block]] = {
    "input_text": _parse_text,
    "output_text": _parse_text,
    "refusal": _parse_refusal,
    "input_image": _parse_image,
    "input_file": _parse_file,
}


def base64_source(uri: str) -> tuple[MediaSource, str | None] | None:
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
    found = base64_source(file_data)
    if found is not None:
        return found
    media_type = mimetypes.guess_type(filename)[0] if filename else None
    return MediaSource(type="base64", media_type=media_type, data=file_data), file_data


# --------------------------------------------------------------------------- render


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


def openai_file_id(file_id: str | None) -> bool:
    """Whether a file id is one of OpenAI's (``file-...``); other providers' ids
    (Anthropic's ``file_...``) mean nothing to OpenAI."""
    return file_id is not None and file_id.startswith("file-")


def render_part(block: Block, path: str, ctx: RenderContext, role: str) -> dict[str, Any] | None:
    """``block`` as a content part of a ``role`` message (or a function-call output, role
    ``tool``), or None (with a warning) when no part can carry it."""
    if isinstance(block, TextBlock):
        return _render_text(block, path, ctx, role)
    if isinstance(block, RefusalBlock):
        return _render_refusal(block, path, ctx, role)
    if isinstance(block, ImageBlock):
        return _render_image(block, path, ctx)
    if isinstance(block, DocumentBlock):
        return _render_document(block, path, ctx)
    if isinstance(block, AudioBlock):
        drop(ctx, block, path, "OpenAI Responses takes no audio input")
        return None
    raise TypeError(f"{block.type} blocks are not content parts")  # callers sort these out


def _render_text(block: TextBlock, path: str, ctx: RenderContext, role: str) -> dict[str, Any]:
    kind = get_hint(block.extra, "type") or text_type(role)
    if not ctx.faithful:
        kind = text_type(role)  # only an assistant's own output is output_text
    out: dict[str, Any] = {"type": kind, "text": block.text}
    fields = fields_of(block.extra)
    if kind == "output_text":
        if "annotations" not in fields and get_hint(block.extra, "annotations") != "absent":
            out["annotations"] = block.citations or []
    elif block.citations:
        warn_citations(block, path, ctx)
    return put_fields(out, fields)


def warn_citations(block: TextBlock, path: str, ctx: RenderContext) -> None:
    """Citations that only an assistant's ``output_text`` annotations could carry."""
    ctx.drift.add(
        "content-dropped",
        "OpenAI Responses carries citations only as annotations of its own answers",
        field=at(path, "citations"),
        original=block.citations,
    )


def _render_refusal(
    block: RefusalBlock, path: str, ctx: RenderContext, role: str
) -> dict[str, Any]:
    if role == "assistant" or ctx.faithful:
        return put_fields({"type": "refusal", "refusal": block.text}, fields_of(block.extra))
    ctx.drift.add(
        "content-type-unsupported",
        f"only assistant messages hold refusals; sent as text in a {role} message",
        field=path,
        original="refusal",
        transformed="input_text",
    )
    return {"type": "input_text", "text": block.text}


def _render_image(block: ImageBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    out: dict[str, Any] = {"type": "input_image"}
    uri = media_uri(block.source, block.extra)
    file_id = block.source.file_id
    if not ctx.faithful and not openai_file_id(file_id):
        file_id = None
    if uri is None and file_id is None:
        drop(
            ctx,
            block,
            path,
            "OpenAI Responses takes images as a URL, base64 data or an OpenAI file id",
        )
        return None
    if block.detail is not None and (ctx.faithful or block.detail in IMAGE_DETAILS):
        out["detail"] = block.detail
    elif not ctx.faithful:
        out["detail"] = "auto"  # required by the API types; "auto" is what the API does anyway
    if uri is not None:
        out["image_url"] = uri
    if file_id is not None:
        out["file_id"] = file_id
    return put_fields(out, fields_of(block.extra))


def _render_document(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    out: dict[str, Any] = {"type": "input_file"}
    if source.type == "base64" and source.data is not None:
        out["file_data"] = media_uri(source, block.extra)
    elif source.type == "url" and source.url is not None:
        out["file_url"] = source.url
    elif source.type == "file" and (ctx.faithful or openai_file_id(source.file_id)):
        out["file_id"] = source.file_id
    elif source.type == "text" and source.data is not None:
        return document_as_text(block, source.data, path, ctx)
    else:
        drop(ctx, block, path, "OpenAI Responses takes files as data, a URL or an OpenAI file id")
        return None
    filename = block.filename if ctx.faithful else _filename(block, path, ctx, "file_data" in out)
    if filename is not None:
        out["filename"] = filename
    return put_fields(out, fields_of(block.extra))


def _filename(block: DocumentBlock, path: str, ctx: RenderContext, has_data: bool) -> str | None:
    # OpenAI wants a filename with file_data; a title is the next best thing to one.
    filename = block.filename or block.title
    if block.title is not None and block.title != filename:
        ctx.drift.add(
            "content-dropped",
            "OpenAI Responses files have a filename but no title",
            field=at(path, "title"),
            original=block.title,
            severity="info",
        )
    if filename is None and has_data:
        extension = mimetypes.guess_extension(block.source.media_type or "") or ".bin"
        filename = f"document{extension}"
        ctx.drift.add(
            "parameter-defaulted",
            "OpenAI Responses wants a filename with file data",
            field=at(path, "filename"),
            transformed=filename,
            severity="info",
        )
    return filename


def document_as_text(
    block: DocumentBlock, text: str, path: str, ctx: RenderContext
) -> dict[str, Any]:
    """A plain-text document as an ``input_text`` part (files take bytes, URLs or ids)."""
    ctx.drift.add(
        "content-type-unsupported",
        "OpenAI Responses files take no text source; sent as an input_text part",
        field=path,
        original=describe(block),
        transformed="input_text",
    )
    return {"type": "input_text", "text": text}


def drop(ctx: RenderContext, block: Block, path: str, message: str) -> None:
    """Warn that a media block is left out."""
    ctx.drift.add("content-dropped", message, field=path, original=describe(block))
