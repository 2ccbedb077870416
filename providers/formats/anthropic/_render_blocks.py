"""UMF blocks -> Anthropic content blocks, with a drift warning for each lossy step.

``faithful`` is set when the conversation was read from this format: blocks then come back
exactly as they were read. Otherwise each block is converted to what the API accepts
(images and documents: what it takes inline or by URL, audio never).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import methodcaller
from typing import Any

from providers.formats._content_blocks.blocks import (
    block_list_renderer,
    drop_media,
    nested_renderer,
    refusal_renderer,
    report_filename,
    report_image_detail,
    thinking_renderer,
    unsendable,
)
from providers.formats._content_blocks.drafts import (
    MISSING_RESULT_TEXT,
    Dialect,
    Part,
    drop_blank_text,
)
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_block_dropped,
    report_citations_dropped,
    report_foreign_extra,
)
from providers.formats._kit.extra import Namespace, hint, own_extra
from providers.formats._kit.wire import arguments_object, decoded_text, inline_media
from providers.formats.anthropic._constants import (
    FORMAT_ID,
    IMAGE_MEDIA_TYPES,
    PDF_MEDIA_TYPE,
    TOOL_ID_PATTERN,
    UNMAPPED_BLOCKS,
)
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    Message,
    ToolResultBlock,
)


def provider_fields(extra: Extra) -> dict[str, Any]:
    """This format's fields kept on a value (not its hints, not its unmapped blocks)."""
    return {k: v for k, v in own_extra(extra, FORMAT_ID).items() if k != UNMAPPED_BLOCKS}


def render_block(block: Block, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """One block, or None when Anthropic cannot take it (a warning says so)."""
    body = RENDERERS[block.type](block, path, ctx)
    if block.extra:  # most blocks carry no extra: nothing to put back or report
        if body is not None:
            body.update(provider_fields(block.extra))
        report_foreign_extra(block.extra, path, ctx)
    return body


def _text(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "text", "text": block.text}
    if block.citations is not None:
        if ctx.faithful:
            body["citations"] = block.citations
        else:
            why = "citations of another provider cannot be sent to Anthropic"
            report_citations_dropped(block, path, ctx.drift, why)
    return body


def _tool_use(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    arguments = block.input if ctx.faithful else arguments_object(block, path, ctx.drift)
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": arguments}


def _tool_result(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
    content = _result_content(block, path, ctx)
    if content is not None:
        body["content"] = content
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: RenderContext) -> JSON:
    if isinstance(block.content, str):
        absent = hint(block.extra, FORMAT_ID, "content") == "absent"
        return None if block.content == "" and (absent or not ctx.faithful) else block.content
    parts = _render_result_blocks(block.content, path, block.extra, ctx)
    if not ctx.faithful:
        parts = drop_blank_text(parts, ctx.drift, DIALECT)
        if not parts:
            return None
    return [part.body for part in parts]


def _signed(text: str, signature: str | None) -> dict[str, Any]:
    body = {"type": "thinking", "thinking": text}
    if signature is not None:
        body["signature"] = signature
    return body


def render_image(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _image_source(block, path, ctx)
    if source is None:
        return None
    if block.detail not in (None, "auto"):
        report_image_detail(block, path, ctx.drift, "Anthropic")
    return {"type": "image", "source": source}


def _image_source(block: ImageBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    inline = inline_media(source)
    if inline is not None:
        media_type, data = inline
        if media_type in IMAGE_MEDIA_TYPES:
            return {"type": "base64", "media_type": media_type, "data": data}
        return drop_media(path, block, f"Anthropic takes no {media_type} images", ctx.drift)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    return drop_media(path, block, unsendable(source, "Anthropic", "source"), ctx.drift)


def render_document(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = verbatim_source(block) if ctx.faithful else _document_source(block, path, ctx)
    if source is None:
        return None
    body: dict[str, Any] = {"type": "document", "source": source}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        report_filename(block, path, ctx.drift, "Anthropic documents have a title but no file name")
    return body


def _document_source(block: DocumentBlock, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    source = block.source
    inline = inline_media(source)
    if inline is not None:
        media_type, data = inline
        if media_type == PDF_MEDIA_TYPE:
            return {"type": "base64", "media_type": PDF_MEDIA_TYPE, "data": data}
        text = decoded_text(data) if media_type.startswith("text/") else None
        if text is not None:
            return {"type": "text", "media_type": "text/plain", "data": text}
        return drop_media(path, block, f"Anthropic takes no {media_type} documents", ctx.drift)
    if source.type == "url" and source.url:
        return {"type": "url", "url": source.url}
    if source.type == "text":
        return {"type": "text", "media_type": "text/plain", "data": source.data or ""}
    return drop_media(path, block, unsendable(source, "Anthropic", "source"), ctx.drift)


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


def render_audio(block: Any, path: str, ctx: RenderContext) -> None:
    report_block_dropped(block, path, ctx.drift, "Anthropic takes no audio; left out")
    return None


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, RenderContext], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": refusal_renderer("Anthropic", lambda text: {"type": "text", "text": text}),
    "image": render_image,
    "document": render_document,
    "audio": render_audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": thinking_renderer(
        FORMAT_ID,
        "Anthropic",
        redacted=lambda data: {"type": "redacted_thinking", "data": data},
        reasoning=_signed,
        needs_signature=True,
        unsendable="Anthropic refuses thinking without its signature",
    ),
}


# ``body.get("type")``, called in C: asked of every block rendered.
_kind: Callable[[dict[str, Any]], Any] = methodcaller("get", "type")


render_blocks = block_list_renderer(FORMAT_ID, UNMAPPED_BLOCKS, render_block, _kind)
_render_result_blocks = block_list_renderer(
    FORMAT_ID,
    UNMAPPED_BLOCKS,
    # A block inside a tool result: text, images and documents only.
    nested_renderer(
        render_block,
        refused=("tool_use", "tool_result", "thinking"),
        where="an Anthropic tool result",
    ),
    _kind,
)


def new_context(*, faithful: bool) -> RenderContext:
    """A fresh render context for this format."""
    return RenderContext.create(NAMESPACE, "Anthropic", faithful=faithful)


# The keys of a plain text block (a constant: a set literal is built at every test).
_TEXT_KEYS = frozenset({"type", "text"})


def content_payload(parts: list[Part], content_hint: str | None) -> JSON:
    """Blocks, or their text when ``content_hint`` allows a bare string: when the content
    was a string, or when a message from another format holds a single plain text block."""
    bodies = [part.body for part in parts]
    if content_hint != "blocks" and len(bodies) == 1:
        single = bodies[0]
        if single.keys() == _TEXT_KEYS and single["type"] == "text":
            return single["text"]
    return bodies


def _result_text(result: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    label = f"[tool result {result['tool_use_id']}{' (error)' if result.get('is_error') else ''}]"
    content = result.get("content") or ""
    blocks = content if isinstance(content, list) else []
    texts = [b["text"] for b in blocks if b.get("type") == "text"]
    text = "\n".join([label, *([content] if isinstance(content, str) else texts)])
    return text, [b for b in blocks if b.get("type") != "text"]


def _message_fields(message: Message) -> dict[str, Any]:
    # A response's own fields (stop_reason, usage...) do not belong in a request message.
    return {} if hint(message.extra, FORMAT_ID, "response") else provider_fields(message.extra)


NAMESPACE = Namespace(FORMAT_ID)

DIALECT: Dialect[RenderContext] = Dialect(
    name="Anthropic",
    turn="Anthropic messages",
    roles={
        "user": "user",
        "assistant": "assistant",
        "tool": "user",
        "system": "system",
        "developer": "system",
    },
    kind=_kind,
    nested=False,
    call_kind="tool_use",
    result_kind="tool_result",
    call_id="id",
    result_id="tool_use_id",
    media_kinds=("image", "document"),
    media_note=(
        "Anthropic takes images and documents from the user only; moved to the next user turn"
    ),
    text_body=lambda text: {"type": "text", "text": text},
    result_text=_result_text,
    content=content_payload,
    blank_note="Anthropic refuses empty text blocks; left out",
    render_blocks=render_blocks,
    render_block=render_block,
    message_fields=_message_fields,
    content_hint=lambda message: hint(message.extra, FORMAT_ID, "content"),
    id_pattern=TOOL_ID_PATTERN,
    make_id=lambda digest: f"toolu_{digest[:24]}",
    merge_note="Anthropic takes one message per turn; merged with the message before",
    reorder_note=(
        "Anthropic wants tool results first in the user turn; moved before the other content"
    ),
    missing_result=lambda call_id: {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": MISSING_RESULT_TEXT,
        "is_error": True,
    },
)
