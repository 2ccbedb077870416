"""Anthropic content blocks -> UMF blocks.

Block types UMF has no name for (server tool calls and their results, ``search_result``,
``container_upload`` and whatever the API adds next) are kept verbatim, with their position,
in the extra field ``unmapped_blocks`` of the message (or tool result) that holds them, so
that rendering back to Anthropic puts them where they were. They produce no UMF block; other
formats report them among this format's fields they cannot carry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields, require_list, require_mapping
from providers.formats.anthropic._constants import FORMAT_ID, UNMAPPED_BLOCKS
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)


class AnthropicFields(Fields):
    """The kit's field reader, refusing a payload field named like the one this format
    keeps its unmapped blocks in."""

    def __init__(self, raw: JSON, path: str) -> None:
        super().__init__(raw, path, kept=(UNMAPPED_BLOCKS,))


# Blocks a tool result may hold that UMF can name; the rest of its content is opaque.
_RESULT_CONTENT = ("text", "image", "document")


def parse_content(content: JSON, path: str) -> tuple[list[Block], dict[str, Any]]:
    """A message's ``content`` (a string or an array of blocks) as UMF blocks, plus the
    fields that bring it back as it was (``$content`` and ``unmapped_blocks``)."""
    if isinstance(content, str):
        return [TextBlock(text=content)], {"$content": "string"}
    blocks, opaque = parse_block_list(content, path, None)
    hints: dict[str, Any] = {"$content": "blocks"}
    if opaque:
        hints[UNMAPPED_BLOCKS] = opaque
    return blocks, hints


def parse_block_list(
    content: JSON, path: str, allowed: tuple[str, ...] | None
) -> tuple[list[Block], list[dict[str, Any]]]:
    """The blocks of an array: UMF blocks, and the ``{"at", "block"}`` entries of the blocks
    kept verbatim. ``allowed`` limits which types become UMF blocks (None: all)."""
    if not isinstance(content, list):
        raise FormatError("content must be a string or an array of blocks", field=path)
    blocks: list[Block] = []
    opaque: list[dict[str, Any]] = []
    for index, raw in enumerate(content):
        block_path = f"{path}[{index}]"
        kind = require_mapping(raw, block_path).get("type")
        if not isinstance(kind, str):
            raise FormatError("a content block needs a string 'type'", field=f"{block_path}.type")
        parser = _PARSERS.get(kind)
        if parser is None or (allowed is not None and kind not in allowed):
            opaque.append({"at": index, "block": raw})
        else:
            blocks.append(parser(AnthropicFields(raw, block_path)))
    return blocks, opaque


def parse_text(fields: Fields) -> TextBlock:
    """A ``text`` block; citations in UMF's field, anything else (cache_control) in extra."""
    text = fields.string("text", required=True)
    citations = fields.array("citations")
    if citations is not None:
        for index, citation in enumerate(citations):
            require_mapping(citation, f"{fields.at('citations')}[{index}]")
    fields.rest.pop("type")
    return TextBlock(text=text or "", citations=citations, extra=_extra(fields))


def _parse_image(fields: Fields) -> ImageBlock:
    source, source_hint = _parse_source(fields, ("base64", "url", "file"))
    fields.rest.pop("type")
    return ImageBlock(source=source, extra=_extra(fields, **source_hint))


def _parse_document(fields: Fields) -> DocumentBlock:
    source, source_hint = _parse_source(fields, ("base64", "url", "text", "content", "file"))
    title = fields.string("title")
    fields.rest.pop("type")
    return DocumentBlock(source=source, title=title, extra=_extra(fields, **source_hint))


def _parse_source(fields: Fields, kinds: tuple[str, ...]) -> tuple[MediaSource, dict[str, Any]]:
    """The block's ``source``, and hints for what MediaSource cannot name: the source's
    unknown fields (``$source_fields``) and a ``content`` source (``$content_source``)."""
    source = AnthropicFields(fields.mapping("source", required=True), fields.at("source"))
    kind = source.string("type", required=True)
    if kind not in kinds:
        raise FormatError(f"unknown source type {kind!r}", field=source.at("type"))
    hints: dict[str, Any] = {}
    if kind == "content":
        hints["$content_source"] = _content_source(source)
        media = MediaSource(type="text", data=_joined_text(hints["$content_source"]))
    else:
        media = _media_source(source, kind)
    if source.rest:
        hints["$source_fields"] = source.rest
    return media, hints


def _media_source(source: Fields, kind: Any) -> MediaSource:
    if kind == "base64":
        media_type = source.string("media_type", required=True)
        return MediaSource(
            type=kind, media_type=media_type, data=source.string("data", required=True)
        )
    if kind == "url":
        return MediaSource(type=kind, url=source.string("url", required=True))
    if kind == "file":
        return MediaSource(type=kind, file_id=source.string("file_id", required=True))
    media_type = source.string("media_type")
    return MediaSource(
        type="text", media_type=media_type, data=source.string("data", required=True)
    )


def _content_source(source: Fields) -> JSON:
    """A ``content`` document source: a string or text/image blocks, kept verbatim."""
    content = source.take("content", required=True)
    if isinstance(content, str):
        return content
    for index, block in enumerate(require_list(content, source.at("content"))):
        require_mapping(block, f"{source.at('content')}[{index}]")
    return content


def _joined_text(content: JSON) -> str:
    """What other formats see of a ``content`` source: its text, one block a paragraph."""
    if isinstance(content, str):
        return content
    texts = [
        b["text"] for b in content if b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n\n".join(texts)


def _parse_tool_use(fields: Fields) -> ToolUseBlock:
    block_id = fields.string("id", required=True)
    name = fields.string("name", required=True)
    arguments = fields.mapping("input", required=True)
    fields.rest.pop("type")
    return ToolUseBlock(id=block_id or "", name=name or "", input=arguments, extra=_extra(fields))


def _parse_tool_result(fields: Fields) -> ToolResultBlock:
    tool_use_id = fields.string("tool_use_id", required=True)
    hints: dict[str, Any] = {}
    content: str | list[Block] = ""
    if "content" not in fields.rest:
        hints["$content"] = "absent"
    raw = fields.take("content")
    if isinstance(raw, str):
        content = raw
    elif raw is not None:
        content, opaque = parse_block_list(raw, fields.at("content"), _RESULT_CONTENT)
        if opaque:
            hints[UNMAPPED_BLOCKS] = opaque
    is_error = fields.boolean("is_error")
    fields.rest.pop("type")
    return ToolResultBlock(
        tool_use_id=tool_use_id or "",
        content=content,
        is_error=is_error,
        extra=_extra(fields, **hints),
    )


def _parse_thinking(fields: Fields) -> ThinkingBlock:
    text = fields.string("thinking", required=True)
    signature = fields.string("signature")
    fields.rest.pop("type")
    return ThinkingBlock(
        text=text or "", signature=signature, provider=FORMAT_ID, extra=_extra(fields)
    )


def _parse_redacted_thinking(fields: Fields) -> ThinkingBlock:
    data = fields.string("data", required=True)
    fields.rest.pop("type")
    return ThinkingBlock(redacted=True, data=data, provider=FORMAT_ID, extra=_extra(fields))


def _extra(fields: Fields, **hints: Any) -> dict[str, dict[str, Any]]:
    return extra_of(FORMAT_ID, {**fields.rest, **hints})


_PARSERS: dict[str, Callable[[Fields], Block]] = {
    "text": parse_text,
    "image": _parse_image,
    "document": _parse_document,
    "tool_use": _parse_tool_use,
    "tool_result": _parse_tool_result,
    "thinking": _parse_thinking,
    "redacted_thinking": _parse_redacted_thinking,
}
