"""Appam ``UnifiedContentBlock`` values <-> UMF blocks.

The serde shape: ``#[serde(tag = "type", rename_all = "snake_case")]``, so a block is
``{"type": "text" | "image" | "document" | "tool_use" | "tool_result" | "thinking", ...}``;
image sources are ``base64`` / ``url``, document sources ``base64_pdf`` / ``url_pdf`` /
``text``. A tool result's ``content`` is any JSON value: a string stays a string, a list of
blocks becomes blocks (``$content: blocks``), anything else its JSON text
(``$content: json``) so that it comes back as the same value.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    require_bool,
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.shapes import json_text
from providers.formats.appam._constants import (
    BLOCK_TYPES,
    DOCUMENT_SOURCES,
    FORMAT_ID,
    IMAGE_SOURCES,
    NS,
    SourceKind,
)
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)


def parse_block(raw: JSON, path: str) -> Block:
    """One content block; :class:`FormatError` naming the field when it is not one."""
    block = require_mapping(raw, path)
    kind = block.get("type")
    if kind not in BLOCK_TYPES:
        raise FormatError(
            f"unknown block type {kind!r}; Appam blocks are {', '.join(BLOCK_TYPES)}",
            field=at(path, "type"),
        )
    return _PARSERS[kind](block, path)


def _text(block: dict[str, Any], path: str) -> Block:
    text = require_str(block.get("text"), at(path, "text"))
    return TextBlock(text=text, extra=NS.extra(unknown_fields(block, ("type", "text"), path=path)))


def _image(block: dict[str, Any], path: str) -> Block:
    source, detail, extra = _media(block, path, "detail", IMAGE_SOURCES)
    return ImageBlock(source=source, detail=detail, extra=extra)


def _document(block: dict[str, Any], path: str) -> Block:
    source, title, extra = _media(block, path, "title", DOCUMENT_SOURCES)
    return DocumentBlock(source=source, title=title, extra=extra)


def _media(
    block: dict[str, Any],
    path: str,
    name: str,
    kinds: dict[str, tuple[SourceKind, tuple[str, ...]]],
) -> tuple[MediaSource, str | None, Extra]:
    """A media block's source (one of ``kinds``), its optional string field ``name``
    (``detail``, ``title``) and its extra."""
    fields, rest = split(block, (name,), handled=("type", "source"), path=path)
    source, source_rest = _source(block.get("source"), at(path, "source"), kinds)
    value = require_str(fields[name], at(path, name)) if name in fields else None
    return source, value, NS.extra(rest, source=source_rest or None)


def _source(
    raw: JSON, path: str, kinds: dict[str, tuple[SourceKind, tuple[str, ...]]]
) -> tuple[MediaSource, dict[str, Any]]:
    source = require_mapping(raw, path)
    kind = source.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        raise FormatError(f"source type must be one of {', '.join(kinds)}", field=at(path, "type"))
    umf_kind, keys = kinds[kind]
    values = {key: require_str(source.get(key), at(path, key)) for key in keys}
    return MediaSource(type=umf_kind, **values), unknown_fields(source, ("type", *keys), path=path)


def _tool_use(block: dict[str, Any], path: str) -> Block:
    if "input" not in block:
        raise FormatError("a tool_use block needs input", field=at(path, "input"))
    return ToolUseBlock(
        id=require_str(block.get("id"), at(path, "id")),
        name=require_str(block.get("name"), at(path, "name")),
        input=block["input"],
        extra=NS.extra(unknown_fields(block, ("type", "id", "name", "input"), path=path)),
    )


def _tool_result(block: dict[str, Any], path: str) -> Block:
    fields, rest = split(
        block, ("is_error",), handled=("type", "tool_use_id", "content"), path=path
    )
    if "content" not in block:
        raise FormatError("a tool_result block needs content", field=at(path, "content"))
    content, kind = _result_content(block["content"], at(path, "content"))
    is_error = None
    if "is_error" in fields:
        is_error = require_bool(fields["is_error"], at(path, "is_error"))
    return ToolResultBlock(
        tool_use_id=require_str(block.get("tool_use_id"), at(path, "tool_use_id")),
        content=content,
        is_error=is_error,
        extra=NS.extra(rest, content=kind),
    )


def _result_content(value: JSON, path: str) -> tuple[str | list[Block], str | None]:
    if isinstance(value, str):
        return value, None
    if _is_block_list(value):
        return [parse_block(inner, item(path, i)) for i, inner in enumerate(value)], "blocks"
    # Structured JSON output: kept as its JSON text (stdlib json: any integer size).
    return json_text(value), "json"


def _is_block_list(value: JSON) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(inner, dict) and inner.get("type") in ("text", "image", "document")
            for inner in value
        )
    )


def _thinking(block: dict[str, Any], path: str) -> Block:
    fields, rest = split(block, ("signature",), handled=("type", "thinking", "redacted"), path=path)
    text = require_str(block.get("thinking"), at(path, "thinking"))
    signature = None
    if "signature" in fields:
        signature = require_str(fields["signature"], at(path, "signature"))
    # serde's #[serde(default)]: an absent flag reads as false (remembered, to write it
    # back absent); null is no bool and serde refuses it.
    absent = "redacted" not in block
    redacted = False if absent else require_bool(block["redacted"], at(path, "redacted"))
    return ThinkingBlock(
        text=text,
        signature=signature,
        redacted=redacted,
        provider=FORMAT_ID,
        extra=NS.extra(rest, redacted="absent" if absent else None),
    )


_PARSERS = {
    "text": _text,
    "image": _image,
    "document": _document,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}


def parse_blocks(raw: JSON, path: str) -> list[Block]:
    """The ``content`` array of a message."""
    blocks = require_list(raw, path)
    return [parse_block(block, item(path, index)) for index, block in enumerate(blocks)]
