"""UMF blocks -> content parts of a message (or of a function-call output), with a drift
warning for each block a part cannot carry (see :mod:`._parse_parts` for the hints)."""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import filename_for, media_uri, openai_file_id
from providers.formats._chat_completions.content import sent_as_text, write_refusal
from providers.formats._kit.drift import describe, report_block_dropped, report_citations_dropped
from providers.formats._kit.extra import put_fields
from providers.umf import AudioBlock, Block, DocumentBlock, ImageBlock, RefusalBlock, TextBlock

from ._constants import IMAGE_DETAILS, NS
from ._parse_parts import text_type
from ._rules import Context


def render_part(block: Block, path: str, ctx: Context, role: str) -> dict[str, Any] | None:
    """``block`` as a content part of a ``role`` message (or a function-call output, role
    ``tool``), or None (with a warning) when no part can carry it."""
    if isinstance(block, TextBlock):
        return _render_text(block, path, ctx, role)
    if isinstance(block, RefusalBlock):
        return write_refusal(block, path, ctx, role, text_type="input_text")
    if isinstance(block, ImageBlock):
        return _render_image(block, path, ctx)
    if isinstance(block, DocumentBlock):
        return _render_document(block, path, ctx)
    if isinstance(block, AudioBlock):
        report_block_dropped(block, path, ctx.drift, "OpenAI Responses takes no audio input")
        return None
    raise TypeError(f"{block.type} blocks are not content parts")  # callers sort these out


def _render_text(block: TextBlock, path: str, ctx: Context, role: str) -> dict[str, Any]:
    kind = NS.hint(block.extra, "type") or text_type(role)
    if not ctx.faithful:
        kind = text_type(role)  # only an assistant's own output is output_text
    out: dict[str, Any] = {"type": kind, "text": block.text}
    fields = NS.fields(block.extra)
    if kind == "output_text":
        if "annotations" not in fields and NS.hint(block.extra, "annotations") != "absent":
            out["annotations"] = block.citations or []
    elif block.citations:
        warn_citations(block, path, ctx)
    return put_fields(out, fields)


def warn_citations(block: TextBlock, path: str, ctx: Context) -> None:
    """Citations that only an assistant's ``output_text`` annotations could carry."""
    why = "OpenAI Responses carries citations only as annotations of its own answers"
    report_citations_dropped(block, path, ctx.drift, why)


def _render_image(block: ImageBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    out: dict[str, Any] = {"type": "input_image"}
    uri = media_uri(block.source, block.extra, NS)
    file_id = block.source.file_id
    if not ctx.faithful and not openai_file_id(file_id):
        file_id = None
    if uri is None and file_id is None:
        why = "OpenAI Responses takes images as a URL, base64 data or an OpenAI file id"
        report_block_dropped(block, path, ctx.drift, why)
        return None
    if block.detail is not None and (ctx.faithful or block.detail in IMAGE_DETAILS):
        out["detail"] = block.detail
    elif not ctx.faithful:
        out["detail"] = "auto"  # required by the API types; "auto" is what the API does anyway
    if uri is not None:
        out["image_url"] = uri
    if file_id is not None:
        out["file_id"] = file_id
    return NS.put(out, block.extra)


def _render_document(block: DocumentBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    source = block.source
    out: dict[str, Any] = {"type": "input_file"}
    if source.type == "base64" and source.data is not None:
        out["file_data"] = media_uri(source, block.extra, NS)
    elif source.type == "url" and source.url is not None:
        out["file_url"] = source.url
    elif source.type == "file" and (ctx.faithful or openai_file_id(source.file_id)):
        out["file_id"] = source.file_id
    elif source.type == "text" and source.data is not None:
        why = "OpenAI Responses files take no text source; sent as an input_text part"
        original = describe(block)
        return sent_as_text(source.data, path, ctx, why, original=original, text_type="input_text")
    else:
        report_block_dropped(
            block,
            path,
            ctx.drift,
            "OpenAI Responses takes files as data, a URL or an OpenAI file id",
        )
        return None
    has_data = "file_data" in out
    filename = block.filename if ctx.faithful else filename_for(block, path, ctx, has_data)
    if filename is not None:
        out["filename"] = filename
    return NS.put(out, block.extra)
