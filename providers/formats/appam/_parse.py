"""Appam payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``):

* ``messages``: a JSON array of ``UnifiedMessage`` (a session's history, what Appam sends);
* ``message``: one ``UnifiedMessage`` object (a bare answer);
* ``exchange``: ``{"request": [UnifiedMessage...], "response": UnifiedMessage}`` with,
  optionally, the answer's ``usage`` (``UnifiedUsage``), ``stop_reason`` (``StopReason``)
  and ``model`` beside them; other envelope fields are kept verbatim.

Blocks (``UnifiedContentBlock``) have serde's shape, ``#[serde(tag = "type",
rename_all = "snake_case")]``: ``{"type": "text" | "image" | "document" | "tool_use" |
"tool_result" | "thinking", ...}``; image sources are ``base64`` / ``url``, document
sources ``base64_pdf`` / ``url_pdf`` / ``text``. A tool result's ``content`` is any JSON
value: a string stays a string, a list of blocks becomes blocks (``$content: blocks``),
anything else its JSON text (``$content: json``) so that it comes back as the same value.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from providers.formats._kit.fields import (
    require_bool,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.shapes import (
    json_text,
    parse_result,
    read_list,
    read_payload,
    read_role,
)
from providers.formats.appam._constants import (
    BLOCK_TYPES,
    DIALECT,
    DOCUMENT_SOURCES,
    FORMAT_ID,
    IMAGE_SOURCES,
    NS,
    ROLES,
    STOP_REASONS,
    USAGE_COUNTS,
    SourceKind,
)
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    Extra,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)

_MESSAGE_FIELDS = ("id", "timestamp", "reasoning", "reasoning_details")


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an array of UnifiedMessage, one UnifiedMessage or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    return parse_result(
        lambda: read_payload(payload, parse_message, DIALECT, _answer_fields), FORMAT_ID
    )


def parse_message(raw: JSON, path: str) -> Message:
    """One ``UnifiedMessage``; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    role = read_role(source, path, ROLES)
    if "content" not in source:
        raise FormatError("a message needs content", field=at(path, "content"))
    fields, rest = split(source, _MESSAGE_FIELDS, handled=("role", "content"), path=path)
    raw_timestamp = fields.get("timestamp")
    timestamp_path = at(path, "timestamp")
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=read_list(source["content"], at(path, "content"), parse_block),
        id=require_str(fields["id"], at(path, "id")) if "id" in fields else None,
        timestamp=None if raw_timestamp is None else parse_timestamp(raw_timestamp, timestamp_path),
        reasoning=_optional_str(fields, "reasoning", path),
        reasoning_details=_details(fields, path),
        extra=NS.extra(rest, timestamp=raw_timestamp),
    )


def parse_timestamp(value: JSON, path: str) -> datetime:
    """An RFC 3339 timestamp with an offset (what chrono's ``DateTime<Utc>`` writes)."""
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed
    raise FormatError("expected an RFC 3339 timestamp with a time zone", field=path)


def _optional_str(fields: dict[str, Any], key: str, path: str) -> str | None:
    return require_str(fields[key], at(path, key)) if key in fields else None


def _details(fields: dict[str, Any], path: str) -> list[dict[str, Any]] | None:
    if "reasoning_details" not in fields:
        return None
    return read_list(fields["reasoning_details"], at(path, "reasoning_details"), require_mapping)


def _answer_fields(body: dict[str, Any], conversation: Conversation) -> dict[str, Any]:
    """The answer's ``usage``, ``stop_reason`` and ``model`` beside the response, read
    onto it; the envelope's other fields."""
    answer = conversation.messages[-1]
    fields, rest = split(
        body, ("usage", "stop_reason", "model"), handled=("request", "response"), path=""
    )
    if "usage" in fields:
        answer.usage = _parse_usage(fields["usage"], "usage")
    if "stop_reason" in fields:
        reason = require_str(fields["stop_reason"], "stop_reason")
        answer.provider_finish_reason = reason
        answer.finish_reason = STOP_REASONS.get(reason)
    if "model" in fields:
        answer.model = require_str(fields["model"], "model")
    conversation.metadata.provider_response_id = answer.id
    return rest


def _parse_usage(raw: JSON, path: str) -> Usage:
    """``UnifiedUsage``: input/output counts (as the provider reported them) plus the cache
    and reasoning counts; the object itself is kept as ``raw``."""
    usage = require_mapping(raw, path)
    counts: dict[str, int | None] = {}
    for key in USAGE_COUNTS:
        value = usage.get(key)
        valid = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if key in usage and value is not None and not valid:
            raise FormatError("expected a non-negative integer", field=at(path, key))
        counts[key] = value if valid else None
    for key in ("input_tokens", "output_tokens"):
        if counts[key] is None:
            raise FormatError(f"usage needs {key}", field=at(path, key))
    prompt, completion = counts["input_tokens"], counts["output_tokens"]
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=(prompt or 0) + (completion or 0),
        cached_tokens=counts["cache_read_input_tokens"],
        cache_write_tokens=counts["cache_creation_input_tokens"],
        reasoning_tokens=counts["reasoning_tokens"],
        raw=dict(usage),
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
