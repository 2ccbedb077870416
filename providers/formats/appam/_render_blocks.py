"""UMF blocks -> Appam ``UnifiedContentBlock`` values, with a warning for each lossy step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_field_dropped,
    report_thinking_dropped,
)
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import report_signature_stripped, signature_portable
from providers.formats._message_lists.render import (
    ListContext,
    report_foreign,
    report_invalid_arguments,
)
from providers.formats.appam._constants import (
    DEFAULT_IMAGE_MEDIA_TYPE,
    DEFAULT_MEDIA_TYPES,
    DOCUMENT_TAGS,
    FORMAT_ID,
    LABEL,
    NS,
)
from providers.formats.appam._rules import media_type as media_type_of
from providers.umf import (
    Block,
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

Body = dict[str, Any]


def render_block(block: Block, path: str, ctx: ListContext) -> Body | None:
    """One block, or None when Appam has no place for it (a warning says so)."""
    report_foreign(block.extra, path, ctx)
    body = _RENDERERS[block.type](block, path, ctx)
    return None if body is None else NS.put(body, block.extra)


def _text(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, TextBlock)
    if block.citations:
        report_citations_dropped(block, path, ctx.drift, "Appam text blocks carry no citations")
    return {"type": "text", "text": block.text}


def _refusal(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, RefusalBlock)
    report_block_as_text(block, path, ctx.drift, "Appam has no refusal block; sent as text")
    return {"type": "text", "text": block.text}


def _image(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ImageBlock)
    source = block.source
    if source.type == "url" and source.url is not None:
        wire: Body = {"type": "url", "url": source.url}
    elif source.type == "base64" and source.data is not None:
        media_type = media_type_of(source, DEFAULT_IMAGE_MEDIA_TYPE, path, ctx)
        wire = {"type": "base64", "media_type": media_type, "data": source.data}
    else:
        report_block_dropped(block, path, ctx.drift, "Appam images are base64 data or a URL")
        return None
    body: Body = {"type": "image", "source": {**wire, **NS.hint(block.extra, "source", {})}}
    if block.detail is not None:
        body["detail"] = block.detail
    return body


def _document(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, DocumentBlock)
    source = block.source
    tag = DOCUMENT_TAGS.get(source.type)
    if tag == "url_pdf" and source.url is not None:
        wire: Body = {"type": tag, "url": source.url}
    elif tag in DEFAULT_MEDIA_TYPES and source.data is not None:
        default = DEFAULT_MEDIA_TYPES[tag]
        media_type = media_type_of(source, default, path, ctx)
        wire = {"type": tag, "media_type": media_type, "data": source.data}
    else:
        report_block_dropped(
            block, path, ctx.drift, "Appam documents are PDF data, a PDF URL or text"
        )
        return None
    body: Body = {"type": "document", "source": {**wire, **NS.hint(block.extra, "source", {})}}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        why = "Appam documents have a title but no file name"
        report_field_dropped(path, "filename", block.filename, ctx.drift, why)
    return body


def _audio(block: Block, path: str, ctx: ListContext) -> Body | None:
    report_block_dropped(block, path, ctx.drift, "Appam has no audio block")
    return None


def _tool_use(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ToolUseBlock)
    if block.raw_arguments is not None:
        report_invalid_arguments(block, path, ctx, LABEL)
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}


def _tool_result(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ToolResultBlock)
    body: Body = {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": _result_content(block, path, ctx),
    }
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: ListContext) -> Any:
    if isinstance(block.content, str):
        if NS.hint(block.extra, "content") == "json":
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


def _thinking(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ThinkingBlock)
    portable = signature_portable(block, FORMAT_ID)
    if not portable and not block.text:
        why = "reasoning with no readable text cannot travel to Appam"
        report_thinking_dropped(block, path, ctx.drift, why)
        return None
    body: Body = {"type": "thinking", "thinking": block.text}
    if portable and block.signature is not None:
        body["signature"] = block.signature
    elif block.signature or block.data:
        why = "the reasoning's signature belongs to another provider; the text is kept"
        report_signature_stripped(block, path, ctx.drift, why)
    if block.redacted or NS.hint(block.extra, "redacted") != "absent":
        body["redacted"] = block.redacted
    return body


_RENDERERS: dict[str, Callable[[Block, str, ListContext], Body | None]] = {
    "text": _text,
    "refusal": _refusal,
    "image": _image,
    "document": _document,
    "audio": _audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}
