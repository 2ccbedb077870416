"""Bedrock content blocks -> UMF blocks.

A Bedrock block is a tagged union: an object with exactly one member (``text``, ``image``,
``toolUse``...), not a ``type`` field. Members UMF has no block for (``cachePoint``,
``video``, ``searchResult``, guard images, and whatever the API adds next) are kept
verbatim, with their position, in the hint ``$opaque`` of the message (or tool result) that
holds them, so that rendering back to Bedrock puts them where they were; other formats never
see them as content. Text that arrives in another member (a tool result's ``json``,
``guardContent``, ``citationsContent``) becomes a text block hinted ``$member``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields, require_list, require_mapping, union_member
from providers.formats._kit.paths import at
from providers.formats.base import FormatError
from providers.formats.bedrock_converse._constants import (
    CONTENT_MEMBERS,
    DOCUMENT_MEDIA_TYPES,
    FORMAT_ID,
    RESULT_MEMBERS,
    SYSTEM_MEMBERS,
)
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

Parser = Callable[[Any, str], Block | None]


def parse_block_list(
    content: JSON, path: str, where: str
) -> tuple[list[Block], list[dict[str, Any]]]:
    """The blocks of a ``content`` array (``where``: ``message``, ``system`` or ``result``):
    UMF blocks, and the ``{"at", "block"}`` entries of the blocks kept verbatim."""
    parsers, allowed = _CONTEXTS[where]
    blocks: list[Block] = []
    opaque: list[dict[str, Any]] = []
    for index, raw in enumerate(require_list(content, path)):
        block_path = f"{path}[{index}]"
        name, value = union_member(raw, block_path, None)
        if name in (CONTENT_MEMBERS | RESULT_MEMBERS) - allowed:
            raise FormatError(f"a {where} content block cannot be {name!r}", field=block_path)
        parser = parsers.get(name)
        block = parser(value, at(block_path, name)) if parser is not None else None
        if block is None:
            opaque.append({"at": index, "block": raw})
        else:
            blocks.append(block)
    return blocks, opaque


def opaque_hint(opaque: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``$opaque`` hint for the verbatim blocks of a content array (if any)."""
    return {"$opaque": opaque} if opaque else {}


def _text(value: Any, path: str) -> Block:
    if not isinstance(value, str):
        raise FormatError("'text' must be a string", field=path)
    return TextBlock(text=value)


def _json(value: Any, path: str) -> Block:
    """A tool result's ``json`` member, as its compact JSON text (read back on render)."""
    try:
        text = orjson.dumps(value).decode()
    except orjson.JSONEncodeError as error:
        raise FormatError(f"'json' cannot be encoded: {error}", field=path) from None
    return TextBlock(text=text, extra=extra_of(FORMAT_ID, {"$member": "json"}))


def _guard_content(value: Any, path: str) -> Block | None:
    """Guarded text as a text block; a guarded image stays verbatim."""
    name, inner = union_member(value, path, frozenset({"text", "image"}))
    if name != "text":
        return None
    fields = Fields(inner, at(path, name))
    text = fields.string("text", required=True) or ""
    return TextBlock(text=text, extra=_extra(fields, member="guardContent"))


def _citations_content(value: Any, path: str) -> Block:
    """Generated text with its citations; ``$parts`` keeps a split the joined text loses."""
    fields = Fields(value, path)
    parts = fields.array("content")
    texts = []
    for index, part in enumerate(parts or []):
        text = require_mapping(part, f"{fields.at('content')}[{index}]").get("text")
        texts.append(text if isinstance(text, str) else "")
    joined = "".join(texts)
    citations = fields.array("citations")
    for index, citation in enumerate(citations or []):
        require_mapping(citation, f"{fields.at('citations')}[{index}]")
    kept_parts = "absent" if parts is None else None if parts == [{"text": joined}] else parts
    return TextBlock(
        text=joined,
        citations=citations,
        extra=_extra(fields, member="citationsContent", parts=kept_parts),
    )


def _image(value: Any, path: str) -> Block:
    fields = Fields(value, path)
    image_format = fields.string("format", required=True)
    source, hints = _source(fields, f"image/{image_format}", frozenset({"bytes", "s3Location"}))
    return ImageBlock(source=source, extra=_extra(fields, **hints))


def _audio(value: Any, path: str) -> Block:
    fields = Fields(value, path)
    audio_format = fields.string("format", required=True)
    source, hints = _source(fields, f"audio/{audio_format}", frozenset({"bytes", "s3Location"}))
    return AudioBlock(source=source, extra=_extra(fields, **hints))


def _document(value: Any, path: str) -> Block:
    """A document; ``name`` is its title. A ``format`` missing from the media-type table is
    kept as the hint ``$format``."""
    fields = Fields(value, path)
    document_format = fields.string("format")
    name = fields.string("name", required=True)
    media_type = DOCUMENT_MEDIA_TYPES.get(document_format or "")
    kinds = frozenset({"bytes", "s3Location", "text", "content"})
    source, hints = _source(fields, media_type, kinds)
    if document_format is not None and media_type is None:
        hints["format"] = document_format
    return DocumentBlock(source=source, title=name, extra=_extra(fields, **hints))


def _source(
    fields: Fields, media_type: str | None, kinds: frozenset[str]
) -> tuple[MediaSource, dict[str, Any]]:
    """The ``source`` union: base64 ``bytes``, an ``s3Location`` (a UMF ``file`` whose id is
    the S3 URI), inline ``text`` or text ``content`` blocks (kept as ``$content_source``)."""
    path = fields.at("source")
    kind, value = union_member(fields.mapping("source", required=True), path, kinds)
    path = at(path, kind)
    hints: dict[str, Any] = {}
    if kind == "s3Location":
        location = Fields(value, path)
        uri = location.string("uri", required=True)
        if location.rest:
            hints["s3"] = location.rest
        return MediaSource(type="file", media_type=media_type, file_id=uri), hints
    if kind == "content":
        blocks = require_list(value, path)
        texts = [require_mapping(b, f"{path}[{i}]").get("text") for i, b in enumerate(blocks)]
        hints["content_source"] = blocks
        joined = "\n\n".join(text for text in texts if isinstance(text, str))
        return MediaSource(type="text", media_type=media_type, data=joined), hints
    if not isinstance(value, str):
        raise FormatError(f"{kind!r} must be a string", field=path)
    if kind == "bytes":
        return MediaSource(type="base64", media_type=media_type, data=value), hints
    return MediaSource(type="text", media_type=media_type, data=value), hints


def _tool_use(value: Any, path: str) -> Block:
    fields = Fields(value, path)
    tool_use_id = fields.string("toolUseId", required=True) or ""
    name = fields.string("name", required=True) or ""
    arguments = fields.take("input", required=True)
    return ToolUseBlock(id=tool_use_id, name=name, input=arguments, extra=_extra(fields))


_STATUS = {"success": False, "error": True}


def _tool_result(value: Any, path: str) -> Block:
    fields = Fields(value, path)
    tool_use_id = fields.string("toolUseId", required=True) or ""
    content, opaque = parse_block_list(
        fields.array("content", required=True), fields.at("content"), "result"
    )
    status = fields.string("status")
    if status is not None and status not in _STATUS:
        raise FormatError("status is 'success' or 'error'", field=fields.at("status"))
    return ToolResultBlock(
        tool_use_id=tool_use_id,
        content=content,
        is_error=_STATUS[status] if status is not None else None,
        extra=extra_of(FORMAT_ID, {**fields.rest, **opaque_hint(opaque)}),
    )


def _reasoning(value: Any, path: str) -> Block:
    name, inner = union_member(value, path, frozenset({"reasoningText", "redactedContent"}))
    if name == "redactedContent":
        if not isinstance(inner, str):
            raise FormatError("'redactedContent' must be a base64 string", field=at(path, name))
        return ThinkingBlock(redacted=True, data=inner, provider=FORMAT_ID)
    fields = Fields(inner, at(path, name))
    text = fields.string("text", required=True) or ""
    signature = fields.string("signature")
    return ThinkingBlock(text=text, signature=signature, provider=FORMAT_ID, extra=_extra(fields))


def _extra(fields: Fields, **hints: Any) -> dict[str, dict[str, Any]]:
    """The object's leftover fields plus ``$`` hints (None hints are left out)."""
    kept = {f"${key}": value for key, value in hints.items() if value is not None}
    return extra_of(FORMAT_ID, {**fields.rest, **kept})


_MESSAGE_PARSERS: dict[str, Parser] = {
    "text": _text,
    "image": _image,
    "document": _document,
    "audio": _audio,
    "toolUse": _tool_use,
    "toolResult": _tool_result,
    "reasoningContent": _reasoning,
    "guardContent": _guard_content,
    "citationsContent": _citations_content,
}
_RESULT_PARSERS: dict[str, Parser] = {
    "text": _text,
    "json": _json,
    "image": _image,
    "document": _document,
}
# Per context: the parsers, and the known members allowed there (others are an error).
_CONTEXTS: dict[str, tuple[dict[str, Parser], frozenset[str]]] = {
    "message": (_MESSAGE_PARSERS, CONTENT_MEMBERS),
    "system": ({"text": _text, "guardContent": _guard_content}, SYSTEM_MEMBERS),
    "result": (_RESULT_PARSERS, RESULT_MEMBERS),
}
