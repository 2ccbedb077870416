"""UMF blocks written as GenAI message parts: ``text``, ``reasoning``, ``tool_call``,
``tool_call_response`` and ``blob`` / ``uri`` / ``file`` parts (see ``_parse_parts`` for
how they are read), with a warning for what another format's blocks lose."""

from __future__ import annotations

from typing import Any

import orjson

from providers.formats._archive.foreign import cited_text, thinking_text
from providers.formats._archive.values import put_back
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import report_block_dropped
from providers.formats._kit.wire import parse_arguments
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import MEDIA_PARTS, NS, UNMAPPED


def render_parts(message: Message, index: int, ctx: Context) -> list[Any]:
    """The parts of a message (its unmapped parts back at their places)."""
    parts: list[Any] = []
    for position, block in enumerate(message.content):
        part = render_block(block, f"messages[{index}].content[{position}]", ctx)
        if part is not None:
            parts.append(part)
    return put_back(parts, message.extra.get(NS.format_id, {}).get(UNMAPPED))


def render_block(block: Block, path: str, ctx: Context) -> dict[str, Any] | None:
    """The part for one block (None, with a warning, when it cannot be written)."""
    if isinstance(block, TextBlock):
        text = block.text
        if not ctx.faithful:
            text = cited_text(block, path, ctx.drift, "GenAI text parts have no citations")
        return {"type": "text", "content": text, **NS.fields(block.extra)}
    if isinstance(block, RefusalBlock):
        _as_another(block, path, "text", "a refusal is written as text", ctx)
        return {"type": "text", "content": block.text}
    if isinstance(block, ThinkingBlock):
        return _reasoning(block, path, ctx)
    if isinstance(block, ToolUseBlock):
        return render_call(block)
    if isinstance(block, ToolResultBlock):
        return _result(block, path, ctx)
    return _media(block, path, ctx)


def _as_another(block: Block, path: str, kind: str, why: str, ctx: Context) -> None:
    ctx.drift.add(
        "content-type-unsupported",
        f"GenAI messages have no {block.type} part; {why}",
        field=path,
        original=block.type,
        transformed=kind,
        severity="info" if kind in ("blob", "uri", "file") else "warning",
    )


def _reasoning(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    text = thinking_text(block, path, ctx.drift, "GenAI reasoning parts carry no signature")
    if text is None:
        return None
    return {"type": "reasoning", "content": text, **NS.fields(block.extra)}


def _result(block: ToolResultBlock, path: str, ctx: Context) -> dict[str, Any]:
    if ctx.faithful or isinstance(block.content, str):
        response: JSON = response_value(block)
    elif all(isinstance(inner, TextBlock) for inner in block.content):
        response = "\n".join(inner.text for inner in block.content if isinstance(inner, TextBlock))
    else:
        response = [
            part
            for position, inner in enumerate(block.content)
            if (part := render_block(inner, f"{path}.content[{position}]", ctx)) is not None
        ]
    if block.is_error and not ctx.faithful:
        ctx.drift.add(
            "capability-unsupported",
            "GenAI tool responses have no error flag; it is kept as the property is_error",
            field=f"{path}.is_error",
            original=True,
            severity="info",
        )
    return render_response(block, response)


def _media(
    block: ImageBlock | AudioBlock | DocumentBlock, path: str, ctx: Context
) -> dict[str, Any] | None:
    if isinstance(block, DocumentBlock) and block.source.type == "text":
        _as_another(block, path, "text", "a plain-text document is written as text", ctx)
        return {"type": "text", "content": block.source.data or ""}
    part = render_media(block)
    if part is None:
        report_block_dropped(block, path, ctx.drift, "the media has no data")
    elif isinstance(block, DocumentBlock) and not ctx.faithful:
        _as_another(block, path, part["type"], "a document is a part with modality document", ctx)
    return part


def render_call(block: ToolUseBlock) -> dict[str, Any]:
    """A ``tool_call`` part."""
    part: dict[str, Any] = {"type": "tool_call"}
    if NS.hint(block.extra, "id") is None:
        part["id"] = block.id
    part["name"] = block.name
    shape = NS.hint(block.extra, "arguments")
    if shape == "string" or (shape is None and _invalid(block.raw_arguments)):
        part["arguments"] = block.raw_arguments
    elif shape != "absent":
        part["arguments"] = block.input
    return {**part, **NS.fields(block.extra)}


def _invalid(raw: str | None) -> bool:
    return raw is not None and not parse_arguments(raw)[1]


def render_response(block: ToolResultBlock, response: JSON) -> dict[str, Any]:
    """A ``tool_call_response`` part holding ``response``."""
    part: dict[str, Any] = {"type": "tool_call_response"}
    if NS.hint(block.extra, "id") is None:
        part["id"] = block.tool_use_id
    part[NS.hint(block.extra, "key") or "response"] = response
    if block.is_error is not None:
        part["is_error"] = block.is_error
    return {**part, **NS.fields(block.extra)}


def response_value(block: ToolResultBlock) -> JSON:
    """The ``response`` a result read from this format held (its JSON text decoded)."""
    if isinstance(block.content, str) and NS.hint(block.extra, "response") == "json":
        return orjson.loads(block.content)
    return block.content


def render_media(block: ImageBlock | AudioBlock | DocumentBlock) -> dict[str, Any] | None:
    """A ``blob``, ``uri`` or ``file`` part, or None when the source has no value."""
    source = block.source
    kind = {"base64": "blob", "url": "uri", "file": "file"}.get(source.type)
    value = {"blob": source.data, "uri": source.url, "file": source.file_id}.get(kind or "")
    if kind is None or value is None:
        return None
    modality = NS.hint(block.extra, "modality")  # "" is a modality too
    if modality is None:
        modality = {"image": "image", "audio": "audio"}.get(block.type, "document")
    part: dict[str, Any] = {"type": kind, "modality": modality}
    if source.media_type is not None:
        part["mime_type"] = source.media_type
    part[MEDIA_PARTS[kind]] = value
    if isinstance(block, DocumentBlock):
        names = (("title", block.title), ("filename", block.filename))
        part.update({key: name for key, name in names if name is not None})  # "" too
    return {**part, **NS.fields(block.extra)}
