"""UMF blocks -> Appam ``UnifiedContentBlock`` values, with a warning for each lossy step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from providers.formats._common import parse_arguments, signature_portable
from providers.umf import (
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._shared import FORMAT_ID, RenderContext, at, get_hint, item, put_fields, report_foreign_extra

Body = dict[str, Any]
_DOCUMENT_TAGS = {"base64": "base64_pdf", "url": "url_pdf", "text": "text"}
_DEFAULT_MEDIA_TYPES = {"base64_pdf": "application/pdf", "text": "text/plain"}


def render_block(block: Block, path: str, ctx: RenderContext) -> Body | None:
    """One block, or None when Appam has no place for it (a warning says so)."""
    report_foreign_extra(block.extra, path, ctx)
    body = _RENDERERS[block.type](block, path, ctx)
    return None if body is None else put_fields(body, block.extra)


def _text(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, TextBlock)
    if block.citations:
        ctx.drift.add(
            "content-dropped",
            "Appam text blocks carry no citations",
            field=at(path, "citations"),
            original=block.citations,
        )
    return {"type": "text", "text": block.text}


def _refusal(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, RefusalBlock)
    ctx.drift.add(
        "content-type-unsupported",
        "Appam has no refusal block; sent as text",
        field=path,
        original="refusal",
        transformed="text",
    )
    return {"type": "text", "text": block.text}


def _image(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, ImageBlock)
    source = block.source
    if source.type == "url" and source.url is not None:
        wire: Body = {"type": "url", "url": source.url}
    elif source.type == "base64" and source.data is not None:
        media_type = _media_type(source, "image/png", at(path, "source.media_type"), ctx)
        wire = {"type": "base64", "media_type": media_type, "data": source.data}
    else:
        _drop(block, path, ctx, "Appam images are base64 data or a URL")
        return None
    body: Body = {"type": "image", "source": {**wire, **get_hint(block.extra, "source", {})}}
    if block.detail is not None:
        body["detail"] = block.detail
    return body


def _document(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, DocumentBlock)
    source = block.source
    tag = _DOCUMENT_TAGS.get(source.type)
    if tag == "url_pdf" and source.url is not None:
        wire: Body = {"type": tag, "url": source.url}
    elif tag in _DEFAULT_MEDIA_TYPES and source.data is not None:
        default = _DEFAULT_MEDIA_TYPES[tag]
        media_type = _media_type(source, default, at(path, "source.media_type"), ctx)
        wire = {"type": tag, "media_type": media_type, "data": source.data}
    else:
        _drop(block, path, ctx, "Appam documents are PDF data, a PDF URL or text")
        return None
    body: Body = {"type": "document", "source": {**wire, **get_hint(block.extra, "source", {})}}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        ctx.drift.add(
            "content-dropped",
            "Appam documents have a title but no file name",
            field=at(path, "filename"),
            original=block.filename,
            severity="info",
        )
    return body


def _media_type(source: MediaSource, default: str, path: str, ctx: RenderContext) -> str:
    if source.media_type is not None:
        return source.media_type
    ctx.drift.add(
        "parameter-defaulted",
        "Appam needs a media type; none was given",
        field=path,
        transformed=default,
        severity="info",
    )
    return default


def _drop(block: Block, path: str, ctx: RenderContext, why: str) -> None:
    ctx.drift.add(
        "content-dropped",
        why,
        field=path,
        original=block.model_dump(mode="json", exclude={"extra"}, exclude_none=True),
    )


def _audio(block: Block, path: str, ctx: RenderContext) -> Body | None:
    _drop(block, path, ctx, "Appam has no audio block")
    return None


def _tool_use(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, ToolUseBlock)
    if block.raw_arguments is not None and not parse_arguments(block.raw_arguments)[1]:
        ctx.drift.add(
            "content-dropped",
            "the call's arguments were not valid JSON; Appam keeps only the parsed input",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=block.input,
        )
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}


def _tool_result(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, ToolResultBlock)
    body: Body = {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": _result_content(block, path, ctx),
    }
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: RenderContext) -> Any:
    if isinstance(block.content, str):
        if get_hint(block.extra, "content") == "json":
            try:
                return json.loads(block.content)
            except ValueError:
                return block.content  # edited into plain text since: a string now
        return block.content
    content_path = at(path, "content")
    inner = []
    for index, nested in enumerate(block.content):
        nested_path = item(content_path, index)
        if nested.type in ("tool_use", "tool_result", "thinking"):
            ctx.drift.add(
                "content-dropped",
                f"a tool result cannot hold a {nested.type} block",
                field=nested_path,
                original=nested.type,
            )
            continue
        body = render_block(nested, nested_path, ctx)
        if body is not None:
            inner.append(body)
    return inner


def _thinking(block: Block, path: str, ctx: RenderContext) -> Body | None:
    assert isinstance(block, ThinkingBlock)
    portable = signature_portable(block, FORMAT_ID)
    if not portable and not block.text:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning with no readable text cannot travel to Appam",
            field=path,
            details={"redacted": block.redacted, "signed": bool(block.signature or block.data)},
        )
        return None
    body: Body = {"type": "thinking", "thinking": block.text}
    if portable and block.signature is not None:
        body["signature"] = block.signature
    elif block.signature or block.data:
        ctx.drift.add(
            "signature-stripped",
            "the reasoning's signature belongs to another provider; the text is kept",
            field=path,
            original=block.provider,
        )
    if block.redacted or get_hint(block.extra, "redacted") != "absent":
        body["redacted"] = block.redacted
    return body


_RENDERERS: dict[str, Callable[[Block, str, RenderContext], Body | None]] = {
    "text": _text,
    "refusal": _refusal,
    "image": _image,
    "document": _document,
    "audio": _audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}
