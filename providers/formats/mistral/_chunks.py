"""Content chunks <-> UMF blocks: ``text``, ``image_url``, ``document_url``, ``input_audio``,
``file`` and ``thinking``.

Where the provider's fields go: a chunk's unknown fields stay on the block verbatim, those
of an ``image_url`` object under ``$inner``. Hints: ``$uri`` a data URI the block's source
would not spell the same way; ``$image_url: object`` an image URL sent as ``{"url"}``
without a detail; ``$chunk: file`` a ``file`` chunk (a document block with a file id);
``$thinking`` the inner chunks of a ``thinking`` chunk when they are more than one text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._chatlike import (
    Context,
    at,
    decoded_text,
    describe,
    drop,
    drop_reasoning,
    item,
    media_uri,
    source_from_url,
    split,
)
from providers.formats._common import (
    parse_data_uri,
    require_list,
    require_mapping,
    require_str,
    signature_portable,
)
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
)

from ._shared import CHUNK_TYPES, NS, SYSTEM_CHUNK_TYPES, UNMAPPED_CHUNK_TYPES

# The first bytes of common audio files, as base64, for sources that only say "audio".
_AUDIO_MAGIC = {
    "UklGR": "audio/wav",
    "SUQz": "audio/mpeg",
    "//s": "audio/mpeg",
    "//u": "audio/mpeg",
    "T2dnUw": "audio/ogg",
    "ZkxhQw": "audio/flac",
}

# --------------------------------------------------------------------------- parse


def parse_chunk(raw: JSON, path: str, role: str) -> Block:
    """One chunk of a ``role`` message (not of the unmapped types); :class:`FormatError`
    for anything else."""
    chunk = require_mapping(raw, path)
    kind = chunk.get("type")
    allowed = SYSTEM_CHUNK_TYPES if role == "system" else CHUNK_TYPES
    parser = _PARSERS.get(kind) if isinstance(kind, str) and kind in allowed else None
    if parser is None:
        raise FormatError(
            f"a {role} content chunk has type {', '.join(allowed)}", field=at(path, "type")
        )
    return parser(chunk, path)


def is_unmapped(raw: JSON) -> bool:
    """Whether a chunk is of a type UMF has no block for (kept verbatim instead)."""
    return isinstance(raw, dict) and raw.get("type") in UNMAPPED_CHUNK_TYPES


def _parse_text(chunk: dict[str, Any], path: str) -> Block:
    text = require_str(chunk.get("text"), at(path, "text"))
    _, rest = split(chunk, (), handled=("type", "text"), path=path)
    return TextBlock(text=text, extra=NS.extra(rest))


def _parse_image(chunk: dict[str, Any], path: str) -> Block:
    value, value_path = chunk.get("image_url"), at(path, "image_url")
    detail, form = None, None
    rest: dict[str, Any] = {}
    if isinstance(value, dict):
        url = require_str(value.get("url"), at(value_path, "url"))
        fields, rest = split(value, ("detail",), handled=("url",), path=value_path)
        detail = require_str(fields["detail"], at(value_path, "detail")) if fields else None
        form = "object" if detail is None else None
    else:
        url = require_str(value, value_path)
    source, uri = source_from_url(url)
    _, outer = split(chunk, (), handled=("type", "image_url"), path=path)
    return ImageBlock(
        source=source,
        detail=detail,
        extra=NS.extra(outer, inner=rest or None, uri=uri, image_url=form),
    )


def _parse_document(chunk: dict[str, Any], path: str) -> Block:
    url = require_str(chunk.get("document_url"), at(path, "document_url"))
    fields, rest = split(chunk, ("document_name",), handled=("type", "document_url"), path=path)
    name = None
    if fields:
        name = require_str(fields["document_name"], at(path, "document_name"))
    source, uri = source_from_url(url)
    return DocumentBlock(source=source, filename=name, extra=NS.extra(rest, uri=uri))


def _parse_audio(chunk: dict[str, Any], path: str) -> Block:
    data = require_str(chunk.get("input_audio"), at(path, "input_audio"))
    parsed = parse_data_uri(data)
    if parsed is not None:
        source, uri = MediaSource(type="base64", media_type=parsed[0], data=parsed[1]), data
    else:
        source, uri = MediaSource(type="base64", media_type=_sniff_audio(data), data=data), None
    _, rest = split(chunk, (), handled=("type", "input_audio"), path=path)
    return AudioBlock(source=source, extra=NS.extra(rest, uri=uri))


def _sniff_audio(data: str) -> str | None:
    return next((kind for magic, kind in _AUDIO_MAGIC.items() if data.startswith(magic)), None)


def _parse_file(chunk: dict[str, Any], path: str) -> Block:
    file_id = require_str(chunk.get("file_id"), at(path, "file_id"))
    _, rest = split(chunk, (), handled=("type", "file_id"), path=path)
    source = MediaSource(type="file", file_id=file_id)
    return DocumentBlock(source=source, extra=NS.extra(rest, chunk="file"))


def _parse_thinking(chunk: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "thinking")
    inner = require_list(chunk.get("thinking"), inner_path)
    for index, part in enumerate(inner):
        require_mapping(part, item(inner_path, index))
    text = thinking_text(inner)
    plain = inner == [{"type": "text", "text": text}]
    fields, rest = split(chunk, ("signature",), handled=("type", "thinking"), path=path)
    signature = require_str(fields["signature"], at(path, "signature")) if fields else None
    return ThinkingBlock(
        text=text,
        signature=signature,
        provider=NS.format_id,
        extra=NS.extra(rest, thinking=None if plain else inner),
    )


def thinking_text(inner: list[Any]) -> str:
    """The readable text of a thinking chunk's inner chunks."""
    return "".join(
        part["text"]
        for part in inner
        if isinstance(part, dict)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
    )


_PARSERS: dict[str, Callable[[dict[str, Any], str], Block]] = {
    "text": _parse_text,
    "image_url": _parse_image,
    "document_url": _parse_document,
    "input_audio": _parse_audio,
    "file": _parse_file,
    "thinking": _parse_thinking,
}


# --------------------------------------------------------------------------- render


def render_text(block: TextBlock, path: str, ctx: Context) -> dict[str, Any]:
    """A text chunk; citations of other formats are ``content-dropped``."""
    if block.citations:
        ctx.drift.add(
            "content-dropped",
            "citations of another format cannot be sent to Mistral",
            field=at(path, "citations"),
            original=block.citations,
        )
    return NS.put({"type": "text", "text": block.text}, block.extra)


def render_image(block: ImageBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``image_url`` chunk (a URL string, or ``{url, detail}``), or None (warned)."""
    url = media_uri(block.source, block.extra, NS)
    if url is None:
        drop(block, path, "Mistral takes images only as a URL or base64 data", ctx)
        return None
    inner: dict[str, Any] = {"url": url}
    if block.detail is not None:
        inner["detail"] = block.detail
    NS.put(inner, block.extra, "inner")
    if inner.keys() == {"url"} and NS.hint(block.extra, "image_url") != "object":
        return NS.put({"type": "image_url", "image_url": url}, block.extra)
    return NS.put({"type": "image_url", "image_url": inner}, block.extra)


def render_document(block: DocumentBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """A ``document_url`` (or ``file``) chunk; text as a text chunk; None (warned) for
    bytes, which Mistral needs uploaded or hosted first."""
    source = block.source
    if ctx.faithful and source.type == "file" and NS.hint(block.extra, "chunk") == "file":
        return NS.put({"type": "file", "file_id": source.file_id}, block.extra)
    if source.type == "url" or (ctx.faithful and source.type == "base64"):
        chunk: dict[str, Any] = {
            "type": "document_url",
            "document_url": media_uri(source, block.extra, NS),
        }
        name = block.filename if ctx.faithful else block.filename or block.title
        if name is not None:
            chunk["document_name"] = name
        return NS.put(chunk, block.extra)
    text = source.data if source.type == "text" else decoded_text(source)
    if text is None:
        why = (
            "Mistral takes documents by URL; these bytes would need an upload first"
            if source.type == "base64"
            else "a file id of another provider means nothing to Mistral"
        )
        drop(block, path, why, ctx)
        return None
    ctx.drift.add(
        "content-type-unsupported",
        "Mistral has no text documents; sent as a text chunk",
        field=path,
        original=describe(block),
        transformed="text",
    )
    return {"type": "text", "text": text}


def render_audio(block: AudioBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``input_audio`` chunk (base64 audio), or None (warned)."""
    source = block.source
    if source.type != "base64" or source.data is None:
        drop(block, path, "Mistral takes audio only as base64 data", ctx)
        return None
    original = NS.hint(block.extra, "uri")
    same = isinstance(original, str) and parse_data_uri(original) == (
        source.media_type,
        source.data,
    )
    data = original if same else source.data
    return NS.put({"type": "input_audio", "input_audio": data}, block.extra)


def render_thinking(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """A ``thinking`` chunk; the signature only back to Mistral (``signature-stripped``
    otherwise); None (``reasoning-dropped``) when there is no readable text to send."""
    if not ctx.faithful and (block.redacted or not block.text):
        drop_reasoning(block, path, "Mistral takes only readable reasoning", ctx)
        return None
    kept = NS.hint(block.extra, "thinking")
    inner = kept if isinstance(kept, list) and thinking_text(kept) == block.text else None
    inner = inner if inner is not None else [_text(block.text)]
    chunk: dict[str, Any] = {"type": "thinking", "thinking": inner}
    portable = ctx.faithful or signature_portable(block, NS.format_id)
    if block.signature is not None and portable:
        chunk["signature"] = block.signature
    elif block.signature is not None or block.data is not None:
        ctx.drift.add(
            "signature-stripped",
            "the signature belongs to another provider; the text is sent without it",
            field=path,
            original=block.provider,
        )
    return NS.put(chunk, block.extra)


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
