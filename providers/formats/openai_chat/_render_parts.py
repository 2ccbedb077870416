"""UMF blocks -> content parts, and what every openai-chat render carries (its context).

A block's verbatim fields go back on the part, those of its inner object from the
``$inner`` hint; a data URI comes back as it was spelled (``$uri``) when it still holds the
same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.blocks import filename_for, image_part, media_uri
from providers.formats._chat_completions.content import sent_as_text, write_refusal, write_text
from providers.formats._kit.context import RenderContext as KitContext
from providers.formats._kit.drift import describe, report_block_dropped, report_foreign_fields
from providers.formats._kit.ids import ToolIdMap, call_id_from_hash
from providers.formats.base import Drift
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    RefusalBlock,
    TextBlock,
)

from ._constants import (
    FORMAT_ID,
    LABEL,
    NAMESPACE,
    valid_tool_call_id,
    wire_audio_format,
)

_ACCEPTED_AUDIO = ("wav", "mp3")


@dataclass
class RenderContext(KitContext):
    """One render: where warnings go, whether to write the conversation as the document it
    was (``faithful``: an openai-chat payload read back, kept exactly even where OpenAI
    would refuse it) or as a request OpenAI accepts, and the tool-call ids rewritten."""

    ids: ToolIdMap = field(init=False)

    def __post_init__(self) -> None:
        self.ids = ToolIdMap(self.drift, valid_tool_call_id, call_id_from_hash)


def new_context(*, faithful: bool) -> RenderContext:
    """A fresh context with its own warnings and tool-call id map."""
    return RenderContext(NAMESPACE, LABEL, Drift(FORMAT_ID), faithful)


def report_foreign_extra(extra: Extra, path: str, drift: Drift) -> None:
    """One ``field-unknown`` (info) warning per other format's fields on a value: they
    belong to that format and never travel into an OpenAI request."""
    report_foreign_fields(extra, path, drift, FORMAT_ID, LABEL, with_empty=True)


def render_part(block: Block, path: str, ctx: RenderContext, role: str) -> dict[str, Any] | None:
    """``block`` as a content part, or None (with a warning) when no part can carry it.

    Refusals outside assistant messages become text unless the conversation is rendered
    as the openai-chat document it was read from."""
    if isinstance(block, TextBlock):
        return write_text(block, path, ctx, "OpenAI Chat requests carry no citations")
    if isinstance(block, RefusalBlock):
        return write_refusal(block, path, ctx, role)
    if isinstance(block, ImageBlock):
        return image_part(block, path, ctx, NAMESPACE)
    if isinstance(block, AudioBlock):
        return _render_audio(block, path, ctx)
    if isinstance(block, DocumentBlock):
        return _render_document(block, path, ctx)
    raise TypeError(f"{block.type} blocks are not content parts")  # callers sort these out


def _render_audio(block: AudioBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    audio_format = NAMESPACE.hint(block.extra, "format") or wire_audio_format(
        block.source.media_type
    )
    data = block.source.data if block.source.type == "base64" else None
    accepted = ctx.faithful or audio_format in _ACCEPTED_AUDIO
    if data is None or audio_format is None or not accepted:
        report_block_dropped(
            block, path, ctx.drift, "OpenAI Chat takes audio only as base64 wav or mp3"
        )
        return None
    inner = NAMESPACE.put({"data": data, "format": audio_format}, block.extra, "inner")
    return NAMESPACE.put({"type": "input_audio", "input_audio": inner}, block.extra)


def _render_document(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    file: dict[str, Any] = {}
    uri = media_uri(source, block.extra, NAMESPACE) if source.type == "base64" else None
    if uri is not None:
        file["file_data"] = uri
    if source.file_id is not None and source.type in ("base64", "file"):
        file["file_id"] = source.file_id
    if not file:
        return _document_as_text(block, path, ctx)
    filename = block.filename if ctx.faithful else filename_for(block, path, ctx, uri is not None)
    if filename is not None:
        file["filename"] = filename
    NAMESPACE.put(file, block.extra, "inner")
    return NAMESPACE.put({"type": "file", "file": file}, block.extra)


def _document_as_text(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    # OpenAI's file part takes only bytes or a file id: plain text and URLs become text.
    text = block.source.data if block.source.type == "text" else block.source.url
    if text is None:
        report_block_dropped(
            block, path, ctx.drift, "OpenAI Chat takes documents only as base64 data or a file id"
        )
        return None
    why = f"OpenAI Chat files take no {block.source.type} source; sent as a text part"
    return sent_as_text(text, path, ctx, why, original=describe(block))
