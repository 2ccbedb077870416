"""IR messages (``IRMessage``) and their content blocks, both ways.

Blocks are seed 001's ``MessageContent``: ``text``, ``image`` (``url`` or ``base64`` with
camelCase ``mediaType``), ``tool_use`` (``input`` an object) and ``tool_result``
(camelCase ``toolUseId``, ``content`` a string or text blocks, ``isError``). Content is a
string or an array; it is written back as a string when it is one plain text block,
unless it was read as an array (``$content: array``). An explicit empty ``metadata`` is
remembered (``$metadata``).
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import parse_arguments, require_list, require_mapping, require_str
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._shared import (
    ROLES,
    RenderContext,
    at,
    get_hint,
    item,
    make_extra,
    put_fields,
    report_foreign_extra,
    require_bool,
    split,
)

BLOCK_TYPES = ("text", "image", "tool_use", "tool_result")
Wire = dict[str, Any]


# --------------------------------------------------------------------------- reading


def parse_messages(raw: JSON, path: str) -> list[Message]:
    """The messages of an array at ``path``."""
    messages = require_list(raw, path or "payload")
    return [parse_message(message, item(path, index)) for index, message in enumerate(messages)]


def parse_message(raw: JSON, path: str) -> Message:
    """One ``IRMessage``; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    fields, rest = split(source, ("name", "metadata"), handled=("role", "content"))
    content = source.get("content")
    if isinstance(content, str):
        blocks: list[Block] = [TextBlock(text=content)]
    elif isinstance(content, list):
        blocks = [
            parse_block(block, item(at(path, "content"), i)) for i, block in enumerate(content)
        ]
    else:
        raise FormatError(
            "content must be a string or an array of blocks", field=at(path, "content")
        )
    metadata = (
        require_mapping(fields["metadata"], at(path, "metadata")) if "metadata" in fields else {}
    )
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=blocks,
        name=require_str(fields["name"], at(path, "name")) if "name" in fields else None,
        metadata=dict(metadata),
        extra=make_extra(
            rest,
            content="array" if isinstance(content, list) and _reads_as_string(blocks) else None,
            metadata=True if "metadata" in fields and not metadata else None,
        ),
    )


def _reads_as_string(blocks: list[Block]) -> bool:
    """Whether the default writing of these blocks is a string content."""
    return (
        len(blocks) == 1
        and isinstance(blocks[0], TextBlock)
        and not blocks[0].extra
        and not blocks[0].citations
    )


def parse_block(raw: JSON, path: str) -> Block:
    """One content block of an IR message."""
    block = require_mapping(raw, path)
    kind = block.get("type")
    if kind == "text":
        return TextBlock(
            text=require_str(block.get("text"), at(path, "text")), extra=_block_extra(block, "text")
        )
    if kind == "image":
        return _parse_image(block, path)
    if kind == "tool_use":
        return _parse_tool_use(block, path)
    if kind == "tool_result":
        return _parse_tool_result(block, path)
    raise FormatError(
        f"unknown content type {kind!r}; IR content is {', '.join(BLOCK_TYPES)}",
        field=at(path, "type"),
    )


def _block_extra(block: dict[str, Any], *known: str, **hints: Any) -> Any:
    return make_extra({k: v for k, v in block.items() if k != "type" and k not in known}, **hints)


def _parse_image(block: dict[str, Any], path: str) -> Block:
    source_path = at(path, "source")
    source = require_mapping(block.get("source"), source_path)
    kind = source.get("type")
    if kind == "url":
        media = MediaSource(type="url", url=require_str(source.get("url"), at(source_path, "url")))
        known: tuple[str, ...] = ("type", "url")
    elif kind == "base64":
        media = MediaSource(
            type="base64",
            media_type=require_str(source.get("mediaType"), at(source_path, "mediaType")),
            data=require_str(source.get("data"), at(source_path, "data")),
        )
        known = ("type", "mediaType", "data")
    else:
        raise FormatError("an image source is url or base64", field=at(source_path, "type"))
    source_rest = {k: v for k, v in source.items() if k not in known}
    return ImageBlock(source=media, extra=_block_extra(block, "source", source=source_rest or None))


def _parse_tool_use(block: dict[str, Any], path: str) -> Block:
    value = block.get("input")
    if not isinstance(value, dict):
        raise FormatError("a tool_use input is an object", field=at(path, "input"))
    return ToolUseBlock(
        id=require_str(block.get("id"), at(path, "id")),
        name=require_str(block.get("name"), at(path, "name")),
        input=value,
        extra=_block_extra(block, "id", "name", "input"),
    )


def _parse_tool_result(block: dict[str, Any], path: str) -> Block:
    fields, rest = split(block, ("isError",), handled=("type", "toolUseId", "content"))
    content = block.get("content")
    content_path = at(path, "content")
    if isinstance(content, list):
        result: str | list[Block] = [
            _text_content(part, item(content_path, i)) for i, part in enumerate(content)
        ]
    elif isinstance(content, str):
        result = content
    else:
        raise FormatError("a tool result's content is a string or text blocks", field=content_path)
    is_error = require_bool(fields["isError"], at(path, "isError")) if "isError" in fields else None
    return ToolResultBlock(
        tool_use_id=require_str(block.get("toolUseId"), at(path, "toolUseId")),
        content=result,
        is_error=is_error,
        extra=make_extra(rest),
    )


def _text_content(raw: JSON, path: str) -> Block:
    part = require_mapping(raw, path)
    if part.get("type") != "text":
        raise FormatError("a tool result holds text blocks only", field=at(path, "type"))
    return TextBlock(
        text=require_str(part.get("text"), at(path, "text")), extra=_block_extra(part, "text")
    )


# --------------------------------------------------------------------------- writing


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
        return put_fields(
            {
                "type": "tool_use",
                "id": block.id,
                "name": block.name,
                "input": _input(block, path, ctx),
            },
            block.extra,
        )
    if isinstance(block, ToolResultBlock):
        return _tool_result(block, path, ctx)
    if isinstance(block, RefusalBlock) or _text_document(block):
        text = block.text if isinstance(block, RefusalBlock) else block.source.data  # type: ignore[union-attr]
        ctx.drift.add(
            "content-type-unsupported",
            f"the IR has no {block.type} content; sent as text",
            field=path,
            original=block.type,
            transformed="text",
        )
        return {"type": "text", "text": text or ""}
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


def _text_document(block: Block) -> bool:
    return (
        isinstance(block, DocumentBlock)
        and block.source.type == "text"
        and block.source.data is not None
    )


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
