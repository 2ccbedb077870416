"""Writing UMF messages as IR messages (``IRMessage``), with a warning for each lossy step.

Content is written as a string when it is one plain text block, unless it was read as an
array. Blocks the IR has no type for are sent as text (refusals, text documents) or left
out with a warning.
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import parse_arguments
from providers.umf import (
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

from ._shared import RenderContext, at, get_hint, item, put_fields, report_foreign_extra

Wire = dict[str, Any]


def render_message(message: Message, index: int, ctx: RenderContext) -> Wire:
    """The ``IRMessage`` for UMF message ``index``."""
    path = item("messages", index)
    report_foreign_extra(message.extra, path, ctx)
    role = _role(message, path, ctx)
    content: list[Wire] = []
    for block_path, block in _blocks_of(message, path):
        body = render_block(block, block_path, ctx)
        if body is not None:
            content.append(body)
    wire: Wire = {"role": role, "content": content}
    if get_hint(message.extra, "content") != "array" and _plain_text(content):
        wire["content"] = content[0]["text"] if content else ""
    if message.name is not None:
        wire["name"] = message.name
    if message.metadata or get_hint(message.extra, "metadata"):
        wire["metadata"] = message.metadata
    _report_reasoning(message, path, ctx)
    return put_fields(wire, message.extra)


def _plain_text(content: list[Wire]) -> bool:
    return (
        len(content) == 1 and content[0].keys() == {"type", "text"} and content[0]["type"] == "text"
    )


def _role(message: Message, path: str, ctx: RenderContext) -> str:
    if message.role != "developer":
        return message.role
    ctx.drift.add(
        "system-message-transformed",
        "the IR has no developer role; sent as a system message",
        field=at(path, "role"),
        original="developer",
        transformed="system",
    )
    return "system"


def _blocks_of(message: Message, path: str) -> list[tuple[str, Block]]:
    """The blocks to write with their UMF paths. A tool message holding its result as
    plain blocks (UMF's InternalMessage shape) becomes one tool_result block answering
    its ``tool_call_id``, at the message's own path (its content is the message's)."""
    plain = not any(isinstance(block, ToolResultBlock) for block in message.content)
    if message.role == "tool" and message.tool_call_id is not None and plain:
        result = ToolResultBlock(tool_use_id=message.tool_call_id, content=list(message.content))
        return [(path, result)]
    return [(item(at(path, "content"), i), block) for i, block in enumerate(message.content)]


def render_block(block: Block, path: str, ctx: RenderContext) -> Wire | None:
    """One IR content block, or None when the IR has no place for it (with a warning)."""
    report_foreign_extra(block.extra, path, ctx)
    if isinstance(block, TextBlock):
        return put_fields({"type": "text", "text": _text(block, path, ctx)}, block.extra)
    if isinstance(block, ImageBlock):
        return _image(block, path, ctx)
    if isinstance(block, ToolUseBlock):
        body = {"type": "tool_use", "id": block.id, "name": block.name}
        return put_fields({**body, "input": _input(block, path, ctx)}, block.extra)
    if isinstance(block, ToolResultBlock):
        return _tool_result(block, path, ctx)
    text = _as_text(block)
    if text is not None:
        ctx.drift.add(
            "content-type-unsupported",
            f"the IR has no {block.type} content; sent as text",
            field=path,
            original=block.type,
            transformed="text",
        )
        return {"type": "text", "text": text}
    if isinstance(block, ThinkingBlock):
        ctx.drift.add(
            "reasoning-dropped",
            "IR messages carry no reasoning",
            field=path,
            original=block.text or None,
            details={"redacted": block.redacted, "signed": bool(block.signature or block.data)},
        )
        return None
    _drop(block, path, ctx, f"IR content has no {block.type} of this kind")
    return None


def _as_text(block: Block) -> str | None:
    """The text of a block the IR takes as text: a refusal, a plain-text document."""
    if isinstance(block, RefusalBlock):
        return block.text
    if isinstance(block, DocumentBlock) and block.source.type == "text":
        return block.source.data
    return None


def _drop(block: Block, path: str, ctx: RenderContext, why: str) -> None:
    ctx.drift.add(
        "content-dropped",
        why,
        field=path,
        original=block.model_dump(mode="json", exclude={"extra"}, exclude_none=True),
    )


def _text(block: TextBlock, path: str, ctx: RenderContext) -> str:
    if block.citations:
        ctx.drift.add(
            "content-dropped",
            "IR text carries no citations",
            field=at(path, "citations"),
            original=block.citations,
        )
    return block.text


def _image(block: ImageBlock, path: str, ctx: RenderContext) -> Wire | None:
    source = block.source
    if source.type == "url" and source.url is not None:
        wire: Wire = {"type": "url", "url": source.url}
    elif source.type == "base64" and source.data is not None:
        media_type = source.media_type
        if media_type is None:
            media_type = "application/octet-stream"
            ctx.drift.add(
                "parameter-defaulted",
                "an IR base64 image needs a media type",
                field=at(path, "source.media_type"),
                transformed=media_type,
                severity="info",
            )
        wire = {"type": "base64", "mediaType": media_type, "data": source.data}
    else:
        _drop(block, path, ctx, "IR images are a URL or base64 data")
        return None
    if block.detail is not None:
        ctx.drift.add(
            "content-dropped",
            "IR images have no detail level",
            field=at(path, "detail"),
            original=block.detail,
            severity="info",
        )
    wire.update(get_hint(block.extra, "source", {}))
    return put_fields({"type": "image", "source": wire}, block.extra)


def _input(block: ToolUseBlock, path: str, ctx: RenderContext) -> Any:
    if block.raw_arguments is not None and not parse_arguments(block.raw_arguments)[1]:
        ctx.drift.add(
            "content-dropped",
            "the call's arguments were not valid JSON; the IR keeps only the parsed input",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=block.input,
        )
    if isinstance(block.input, dict):
        return block.input
    ctx.drift.add(
        "content-type-unsupported",
        "an IR tool input is an object; the value is wrapped",
        field=at(path, "input"),
        original=block.input,
        transformed={"input": block.input},
    )
    return {"input": block.input}


def _tool_result(block: ToolResultBlock, path: str, ctx: RenderContext) -> Wire:
    if isinstance(block.content, str):
        content: Any = block.content
    else:
        content = []
        for position, inner in enumerate(block.content):
            inner_path = item(at(path, "content"), position)
            body = render_block(inner, inner_path, ctx)
            if body is not None and body.get("type") == "text":
                content.append(body)
            elif body is not None:
                _drop(inner, inner_path, ctx, "an IR tool result holds text only")
    wire: Wire = {"type": "tool_result", "toolUseId": block.tool_use_id, "content": content}
    if block.is_error is not None:
        wire["isError"] = block.is_error
    return put_fields(wire, block.extra)


def _report_reasoning(message: Message, path: str, ctx: RenderContext) -> None:
    if message.reasoning:
        ctx.drift.add(
            "reasoning-dropped",
            "IR messages carry no reasoning",
            field=at(path, "reasoning"),
            original=message.reasoning,
        )
    if message.reasoning_details:
        ctx.drift.add(
            "reasoning-dropped",
            "IR messages carry no reasoning details",
            field=at(path, "reasoning_details"),
            details={"count": len(message.reasoning_details)},
        )
