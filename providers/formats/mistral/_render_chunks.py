"""UMF blocks -> Mistral content chunks: ``text``, ``image_url``, ``document_url`` (or
``file``), ``input_audio`` and ``thinking``, each block's verbatim fields and hints (see
:mod:`._parse_messages`) put back.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import (
    image_url,
    media_uri,
    same_bytes,
)
from providers.formats._chat_completions.content import sent_as_text
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import describe, report_block_dropped, report_thinking_dropped
from providers.formats._kit.wire import base64_text, report_signature_stripped, signature_portable
from providers.umf import AudioBlock, DocumentBlock, ImageBlock, ThinkingBlock

from ._constants import NS
from ._parse_messages import thinking_text


def render_image(block: ImageBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``image_url`` chunk (a URL string, or ``{url, detail}``), or None (warned)."""
    inner = image_url(block, path, ctx, NS)
    if inner is None:
        return None
    if inner.keys() == {"url"} and NS.hint(block.extra, "image_url") != "object":
        return NS.put({"type": "image_url", "image_url": inner["url"]}, block.extra)
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
    text = source.data if source.type == "text" else base64_text(source)
    if text is None:
        why = (
            "Mistral takes documents by URL; these bytes would need an upload first"
            if source.type == "base64"
            else "a file id of another provider means nothing to Mistral"
        )
        report_block_dropped(block, path, ctx.drift, why)
        return None
    why = "Mistral has no text documents; sent as a text chunk"
    return sent_as_text(text, path, ctx, why, original=describe(block))


def render_audio(block: AudioBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``input_audio`` chunk (base64 audio), or None (warned)."""
    source = block.source
    if source.type != "base64" or source.data is None:
        report_block_dropped(block, path, ctx.drift, "Mistral takes audio only as base64 data")
        return None
    original = NS.hint(block.extra, "uri")
    data = original if same_bytes(original, source) else source.data
    return NS.put({"type": "input_audio", "input_audio": data}, block.extra)


def render_thinking(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """A ``thinking`` chunk; the signature only back to Mistral (``signature-stripped``
    otherwise); None (``reasoning-dropped``) when there is no readable text to send."""
    if not ctx.faithful and (block.redacted or not block.text):
        report_thinking_dropped(block, path, ctx.drift, "Mistral takes only readable reasoning")
        return None
    kept = NS.hint(block.extra, "thinking")
    inner = kept if isinstance(kept, list) and thinking_text(kept) == block.text else None
    inner = inner if inner is not None else [_text(block.text)]
    chunk: dict[str, Any] = {"type": "thinking", "thinking": inner}
    portable = ctx.faithful or signature_portable(block, NS.format_id)
    if block.signature is not None and portable:
        chunk["signature"] = block.signature
    elif block.signature is not None or block.data is not None:
        why = "the signature belongs to another provider; the text is sent without it"
        report_signature_stripped(block, path, ctx.drift, why)
    return NS.put(chunk, block.extra)


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
