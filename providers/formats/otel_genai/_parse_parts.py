"""OpenTelemetry GenAI message parts read as UMF blocks (written back by ``_render_parts``).

``text`` text, ``reasoning`` thinking, ``tool_call`` tool use, ``tool_call_response`` tool
result (``response`` any JSON; a string stays a string, anything else is carried as its
JSON text with the ``$response: json`` hint; the spec's own example says ``result``: read,
and written back where it was read), ``blob`` / ``uri`` / ``file`` an image, audio clip or
document by ``modality`` (``document`` or a PDF/text MIME type). Properties beside a part's
own stay in the block's ``extra``; parts UMF has no block for (``server_tool_call``,
video, generic parts) stay verbatim in the message's ``unmapped_parts`` with their place
(a message with a field of that name is refused).
"""

from __future__ import annotations

from typing import Any

import orjson

from providers.formats._kit.fields import require_mapping, require_str, unknown_fields
from providers.formats._kit.wire import parse_arguments
from providers.formats.base import FormatError
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

from ._constants import DOCUMENT_TYPES, MEDIA_PARTS, NS, SOURCE_KIND


def parse_part(part: dict[str, Any], kind: str, path: str) -> Block | None:
    """The block for one part, or None when UMF has no block for it."""
    if kind in ("text", "reasoning"):
        text = require_str(part.get("content"), f"{path}.content")
        rest = NS.extra(unknown_fields(part, ("type", "content"), path=path))
        if kind == "text":
            return TextBlock(text=text, extra=rest)
        return ThinkingBlock(text=text, extra=rest)
    if kind == "tool_call":
        return _parse_call(part, path)
    if kind == "tool_call_response":
        return _parse_response(part, path)
    if kind in MEDIA_PARTS:
        return _parse_media(part, kind, path)
    return None


def _parse_call(part: dict[str, Any], path: str) -> ToolUseBlock:
    name = require_str(part.get("name"), f"{path}.name")
    call_id = part.get("id")
    if call_id is not None:
        require_str(call_id, f"{path}.id")
    arguments = part.get("arguments")
    raw = None
    shape = None
    if "arguments" not in part:
        shape, arguments = "absent", {}
    elif isinstance(arguments, str):
        shape, raw = "string", arguments
        arguments, _ = parse_arguments(arguments)
    return ToolUseBlock(
        id=call_id or "",
        name=name,
        input=arguments,
        raw_arguments=raw,
        extra=NS.extra(
            unknown_fields(part, ("type", "name", "id", "arguments"), path=path), arguments=shape
        ),
    )


def _parse_response(part: dict[str, Any], path: str) -> ToolResultBlock:
    key = "response" if "response" in part or "result" not in part else "result"
    if key not in part:
        raise FormatError("a tool_call_response needs a response", field=f"{path}.response")
    response = part[key]
    is_error = part.get("is_error")
    rest = unknown_fields(part, ("type", "id", key), path=path)
    if isinstance(is_error, bool):
        rest.pop("is_error")
    content = response if isinstance(response, str) else orjson.dumps(response).decode()
    call_id = part.get("id")
    if call_id is not None:
        require_str(call_id, f"{path}.id")
    return ToolResultBlock(
        tool_use_id=call_id or "",
        content=content,
        is_error=is_error if isinstance(is_error, bool) else None,
        extra=NS.extra(
            rest,
            key="result" if key == "result" else None,
            response=None if isinstance(response, str) else "json",
        ),
    )


def _parse_media(part: dict[str, Any], kind: str, path: str) -> Block | None:
    modality = require_str(part.get("modality"), f"{path}.modality")
    value = require_str(part.get(MEDIA_PARTS[kind]), f"{path}.{MEDIA_PARTS[kind]}")
    mime = part.get("mime_type")
    if mime is not None:
        require_str(mime, f"{path}.mime_type")
    location = {"blob": "data", "uri": "url", "file": "file_id"}[kind]
    source = MediaSource.model_validate(
        {"type": SOURCE_KIND[kind], "media_type": mime, location: value}
    )
    # A null mime_type is no media type: it stays verbatim with the other fields.
    mapped = ("type", "modality", MEDIA_PARTS[kind], *(("mime_type",) if mime is not None else ()))
    rest = unknown_fields(part, mapped, path=path)
    if modality == "image":
        return ImageBlock(source=source, extra=NS.extra(rest))
    if modality == "audio":
        return AudioBlock(source=source, extra=NS.extra(rest))
    if modality == "document" or (mime or "").startswith(DOCUMENT_TYPES):
        names = {k: rest.pop(k) for k in ("title", "filename") if isinstance(rest.get(k), str)}
        hint_modality = None if modality == "document" else modality
        return DocumentBlock(source=source, **names, extra=NS.extra(rest, modality=hint_modality))
    return None  # video and other modalities: kept verbatim


def require_part(raw: JSON, path: str) -> tuple[dict[str, Any], str]:
    """A part and its type."""
    part = require_mapping(raw, path)
    return part, require_str(part.get("type"), f"{path}.type")
