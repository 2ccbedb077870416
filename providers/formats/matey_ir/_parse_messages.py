"""Reading IR messages (``IRMessage``) and their content blocks.

Blocks are seed 001's ``MessageContent``: ``text``, ``image`` (``url`` or ``base64`` with
camelCase ``mediaType``), ``tool_use`` (``input`` an object) and ``tool_result``
(camelCase ``toolUseId``, ``content`` a string or text blocks, ``isError``). Content is a
string or an array; an array that holds one plain text block (which would be written back
as a string) is remembered (``$content: array``), and so is an explicit empty ``metadata``
(``$metadata``).
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    require_bool,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.shapes import read_role
from providers.formats.base import FormatError
from providers.formats.matey_ir._constants import BLOCK_TYPES, NS, ROLES
from providers.umf import (
    JSON,
    Block,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)


def parse_message(raw: JSON, path: str) -> Message:
    """One ``IRMessage``; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    role = read_role(source, path, ROLES)
    fields, rest = split(source, ("name", "metadata"), handled=("role", "content"), path=path)
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
        extra=NS.extra(
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
            text=require_str(block.get("text"), at(path, "text")),
            extra=_block_extra(block, path, "text"),
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


def _block_extra(block: dict[str, Any], path: str, *known: str, **hints: Any) -> Any:
    return NS.extra(unknown_fields(block, ("type", *known), path=path), **hints)


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
    source_rest = unknown_fields(source, known, path=source_path)
    return ImageBlock(
        source=media, extra=_block_extra(block, path, "source", source=source_rest or None)
    )


def _parse_tool_use(block: dict[str, Any], path: str) -> Block:
    value = block.get("input")
    if not isinstance(value, dict):
        raise FormatError("a tool_use input is an object", field=at(path, "input"))
    return ToolUseBlock(
        id=require_str(block.get("id"), at(path, "id")),
        name=require_str(block.get("name"), at(path, "name")),
        input=value,
        extra=_block_extra(block, path, "id", "name", "input"),
    )


def _parse_tool_result(block: dict[str, Any], path: str) -> Block:
    fields, rest = split(block, ("isError",), handled=("type", "toolUseId", "content"), path=path)
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
        extra=NS.extra(rest),
    )


def _text_content(raw: JSON, path: str) -> Block:
    part = require_mapping(raw, path)
    if part.get("type") != "text":
        raise FormatError("a tool result holds text blocks only", field=at(path, "type"))
    return TextBlock(
        text=require_str(part.get("text"), at(path, "text")), extra=_block_extra(part, path, "text")
    )
