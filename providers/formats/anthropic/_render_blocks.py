"""UMF blocks -> Anthropic content blocks, with a drift warning for each lossy step.

``faithful`` is set when the conversation was read from this format: blocks then come back
exactly as they were read. Otherwise each block is converted to what the API accepts.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import (
    hint,
    own_extra,
    parse_arguments,
    parse_data_uri,
    report_foreign_fields,
    signature_portable,
)
from providers.formats.anthropic._constants import (
    FORMAT_ID,
    IMAGE_MEDIA_TYPES,
    PDF_MEDIA_TYPE,
    UNMAPPED_BLOCKS,
)
from providers.formats.base import Drift
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    MediaSource,
    ToolResultBlock,
    ToolUseBlock,
)


@dataclass
class Context:
    """What one render needs everywhere: the warnings, and whether to be faithful."""

    drift: Drift
    faithful: bool


@dataclass
class Part:
    """One rendered content block and the UMF path it came from. ``moved`` marks a block
    already reported as moved, so that later steps do not report it twice."""

    body: dict[str, Any]
    path: str
    moved: bool = field(default=False)


def render_blocks(blocks: list[Block], path: str, extra: Extra, ctx: Context) -> list[Part]:
    """The blocks of a message (or tool result) at ``path``; blocks kept verbatim in the
    ``unmapped_blocks`` field go back to their original positions."""
    parts: list[Part] = []
    for index, block in enumerate(blocks):
        block_path = f"{path}.content[{index}]"
        body = render_block(block, block_path, ctx)
        if body is not None:
            parts.append(Part(body, block_path))
    _put_back_unmapped(parts, extra, path)
    return parts


def _put_back_unmapped(parts: list[Part], extra: Extra, path: str) -> None:
    for number, entry in enumerate(extra.get(FORMAT_ID, {}).get(UNMAPPED_BLOCKS, [])):
        entry_path = f"{path}.extra.{FORMAT_ID}.{UNMAPPED_BLOCKS}[{number}]"
        parts.insert(min(entry["at"], len(parts)), Part(entry["block"], entry_path))


def provider_fields(extra: Extra) -> dict[str, Any]:
    """This format's fields kept on a value (not its hints, not its unmapped blocks)."""
    return {k: v for k, v in own_extra(extra, FORMAT_ID).items() if k != UNMAPPED_BLOCKS}


def render_block(block: Block, path: str, ctx: Context) -> dict[str, Any] | None:
    """One block, or None when Anthropic cannot take it (a warning says so)."""
    renderer = RENDERERS[block.type]
    body = renderer(block, path, ctx)
    if body is not None:
        body.update(provider_fields(block.extra))
    warn_foreign_extra(block.extra, path, ctx)
    return body


def warn_foreign_extra(extra: Extra, path: str, ctx: Context) -> None:
    """One ``field-unknown`` note per other format's fields: they do not travel. Fields
    that hold nothing (null, empty) are not worth a note."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, "Anthropic", tail=" and are not sent")


def is_blank_text(body: dict[str, Any]) -> bool:
    """A text block the API refuses: empty or whitespace only."""
    return body.get("type") == "text" and not str(body.get("text", "")).strip()


def drop_blank_text(parts: list[Part], ctx: Context) -> list[Part]:
    """``parts`` without blank text blocks (each dropped one noted as info)."""
    kept = []
    for part in parts:
        if is_blank_text(part.body):
            ctx.drift.add(
                "content-dropped",
                "Anthropic refuses empty text blocks; left out",
                field=part.path,
                original=part.body.get("text"),
                severity="info",
            )
        else:
            kept.append(part)
    return kept


def _text(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "text", "text": block.text}
    if block.citations is not None:
        if ctx.faithful:
            body["citations"] = block.citations
        else:
            ctx.drift.add(
                "content-dropped",
                "citations of another provider cannot be sent to Anthropic",
                field=f"{path}.citations",
                original=block.citations,
            )
    return body


def _refusal(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    ctx.drift.add(
        "content-type-unsupported",
        "Anthropic has no refusal block; sent as text",
        field=path,
        original="refusal",
        transformed="text",
    )
    return {"type": "text", "text": block.text}


def _image(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _image_source(block.source, path, ctx)
    if source is None:
        return None
    if block.detail not in (None, "auto"):
        ctx.drift.add(
            "field-unknown",
            "Anthropic images take no detail hint",
            field=f"{path}.detail",
            original=block.detail,
            severity="info",
        )
    return {"type": "image", "source": source}


def _image_source(source: MediaSource, path: str, ctx: Context) -> dict[str, Any] | None:
    inline = _inline(source)
    if inline is not None:
        media_type, data = inline
        if media_type in IMAGE_MEDIA_TYPES:
            return {"type": "base64", "media_type": media_type, "data": data}
        return _drop_media(path, source, f"Anthropic takes no {media_type} images", ctx)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    return _drop_media(path, source, _unsendable(source), ctx)


def _document(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _document_source(block.source, path, ctx)
    if source is None:
        return None
    body: dict[str, Any] = {"type": "document", "source": source}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        ctx.drift.add(
            "field-unknown",
            "Anthropic documents have a title but no file name",
            field=f"{path}.filename",
            original=block.filename,
            severity="info",
        )
    return body


def _document_source(source: MediaSource, path: str, ctx: Context) -> dict[str, Any] | None:
    inline = _inline(source)
    if inline is not None:
        media_type, data = inline
        if media_type == PDF_MEDIA_TYPE:
            return {"type": "base64", "media_type": PDF_MEDIA_TYPE, "data": data}
        text = _decoded_text(data) if media_type.startswith("text/") else None
        if text is not None:
            return {"type": "text", "media_type": "text/plain", "data": text}
        return _drop_media(path, source, f"Anthropic takes no {media_type} documents", ctx)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    if source.type == "text":
        return {"type": "text", "media_type": "text/plain", "data": source.data or ""}
    return _drop_media(path, source, _unsendable(source), ctx)


def _inline(source: MediaSource) -> tuple[str, str] | None:
    """``(media type, base64 data)`` of base64 bytes, whether given as such or a data URI."""
    if source.type == "base64" and source.data is not None:
        return source.media_type or "application/octet-stream", source.data
    if source.type == "url" and source.url and source.url.startswith("data:"):
        return parse_data_uri(source.url)
    return None


def _decoded_text(data: str) -> str | None:
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _unsendable(source: MediaSource) -> str:
    if source.type == "file":
        return "a file id of another provider means nothing to Anthropic"
    return f"Anthropic cannot take this {source.type} source"


def _drop_media(path: str, source: MediaSource, why: str, ctx: Context) -> dict[str, Any] | None:
    """Report media Anthropic cannot take; None, to leave the block out."""
    ctx.drift.add("content-dropped", f"{why}; left out", field=path, original=media_summary(source))
    return None


def media_summary(source: MediaSource) -> dict[str, Any]:
    """What a warning says about dropped media (never the bytes themselves)."""
    summary = {"source": source.type, "media_type": source.media_type, "url": source.url}
    summary["file_id"] = source.file_id
    return {key: value for key, value in summary.items() if value is not None}


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


def _audio(block: Any, path: str, ctx: Context) -> None:
    ctx.drift.add(
        "content-dropped",
        "Anthropic takes no audio; left out",
        field=path,
        original={"type": "audio", **media_summary(block.source)},
    )
    return None


def _tool_use(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    arguments = block.input if ctx.faithful else _tool_input(block, path, ctx)
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": arguments}


def _tool_input(block: ToolUseBlock, path: str, ctx: Context) -> dict[str, Any]:
    """The call's arguments as the object Anthropic requires; ``{}`` (and a warning that the
    arguments were lost) when the source only had an argument string that is not an object."""
    if isinstance(block.input, dict) and (block.input or block.raw_arguments is None):
        return block.input
    if block.raw_arguments is not None:
        decoded, ok = parse_arguments(block.raw_arguments)
        if ok and isinstance(decoded, dict):
            return decoded
        original, where = block.raw_arguments, "raw_arguments"
    else:
        original, where = block.input, "input"
    ctx.drift.add(
        "content-dropped",
        "tool call arguments are not a JSON object; sent as {}",
        field=f"{path}.{where}",
        original=original,
        transformed={},
    )
    return {}


def _tool_result(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
    content = _result_content(block, path, ctx)
    if content is not None:
        body["content"] = content
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: Context) -> JSON:
    if isinstance(block.content, str):
        absent = hint(block.extra, FORMAT_ID, "content") == "absent"
        return None if block.content == "" and (absent or not ctx.faithful) else block.content
    parts: list[Part] = []
    for index, inner in enumerate(block.content):
        inner_path = f"{path}.content[{index}]"
        body = _nested(inner, inner_path, ctx)
        if body is not None:
            parts.append(Part(body, inner_path))
    _put_back_unmapped(parts, block.extra, path)
    if not ctx.faithful:
        parts = drop_blank_text(parts, ctx)
        if not parts:
            return None
    return [part.body for part in parts]


def _nested(block: Block, path: str, ctx: Context) -> dict[str, Any] | None:
    """A block inside a tool result: text, images and documents only."""
    if block.type in ("tool_use", "tool_result", "thinking"):
        ctx.drift.add(
            "content-dropped",
            f"an Anthropic tool result cannot hold a {block.type} block; left out",
            field=path,
            original=block.model_dump(mode="json", exclude={"extra"}),
        )
        return None
    return render_block(block, path, ctx)


def _thinking(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    if signature_portable(block, FORMAT_ID):
        if block.redacted and block.data is not None:
            return {"type": "redacted_thinking", "data": block.data}
        if not block.redacted and (block.signature is not None or ctx.faithful):
            body = {"type": "thinking", "thinking": block.text}
            if block.signature is not None:
                body["signature"] = block.signature
            return body
        why = "Anthropic refuses thinking without its signature"
    else:
        why = "reasoning of another provider (or of unknown origin) cannot be replayed to Anthropic"
    ctx.drift.add(
        "reasoning-dropped",
        f"{why}; left out",
        field=path,
        original=block.text or None,
        details={"provider": block.provider, "redacted": block.redacted},
    )
    return None


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, Context], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": _refusal,
    "image": _image,
    "document": _document,
    "audio": _audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}
