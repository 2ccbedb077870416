"""The mapping between UMF values and table rows, both ways, with no queries of its own.

Services call :func:`conversation_rows` (a new conversation) and :func:`add_messages`
(messages added to a stored one) to turn UMF into unsaved rows; selectors call
:func:`conversation_from_rows` to turn fetched rows back into the same UMF conversation.
The pair is exact: what one writes, the other reads back equal.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import orjson
from django.contrib.auth.models import User

from conversations import models
from conversations.search_syntax import cjk_terms
from conversations.source_dates import conversation_dates
from providers import formats, umf

# Titles made from a conversation's first question are cut to this many characters.
TITLE_LENGTH = 80

_TEXT_BLOCKS = {"text", "refusal", "thinking"}
_MEDIA_BLOCKS = {"image", "document", "audio"}


Row = dict[str, Any]


@dataclass
class Rows:
    """Unsaved rows for one conversation, in insert order. Messages, blocks and tool calls
    (the many) are plain dicts by field attname for :func:`bulk_insert`; the few are models."""

    conversation: models.Conversation
    messages: list[Row] = field(default_factory=list)
    blocks: list[Row] = field(default_factory=list)
    attachments: dict[str, models.Attachment] = field(default_factory=dict)
    tools: list[models.ToolDefinition] = field(default_factory=list)
    tool_calls: list[Row] = field(default_factory=list)
    warnings: list[models.DriftWarning] = field(default_factory=list)
    provenance: list[models.Provenance] = field(default_factory=list)
    # Set when the rows are a replay's answer: the messages belong to that run.
    replay_run_id: uuid.UUID | None = None


def content_hash(format_id: str, document: umf.JSON) -> str:
    """The identity of an import: the same format and the same document (JSON compared
    with sorted keys), the same hash. It depends on the source document, not on how this
    version of the parser reads it, so an upgrade never makes a re-import a duplicate."""
    body = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(format_id.encode() + b"\n" + body).hexdigest()


def canonical_base64(data: str) -> bytes | None:
    """The bytes behind ``data`` if encoding them again gives ``data`` back exactly."""
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if base64.b64encode(raw).decode() == data else None


def block_row(block: umf.Block, rows: Rows, message_id: uuid.UUID, index: int) -> Row:
    """Add the row for one block (and its attachment) to ``rows``, and return it."""
    payload: dict[str, Any] = block.model_dump(mode="json", exclude_defaults=True)
    del payload["type"]
    text: str | None = None
    if block.type in _TEXT_BLOCKS:
        text = payload.pop("text", None)
    elif block.type == "tool_result" and isinstance(payload.get("content"), str):
        text = payload.pop("content")
    attachment = _attachment_for(payload, rows) if block.type in _MEDIA_BLOCKS else None
    row = {
        "id": models.uuid7(),
        "message_id": message_id,
        "index": index,
        "type": block.type,
        "text": text,
        "payload": payload,
        "attachment_id": attachment,
    }
    rows.blocks.append(row)
    return row


def _attachment_for(payload: dict[str, Any], rows: Rows) -> str | None:
    """Move base64 media bytes out of the payload into an attachment; its key, or None."""
    source = payload.get("source", {})
    data = source.get("data")
    if source.get("type") != "base64" or not data:
        return None
    raw = canonical_base64(data)
    if raw is None:
        return None
    digest = hashlib.sha256(raw).hexdigest()
    attachment = rows.attachments.get(digest)
    if attachment is None:
        attachment = models.Attachment(
            sha256=digest,
            media_type=source.get("media_type") or "application/octet-stream",
            size=len(raw),
            data=raw,
        )
        rows.attachments[digest] = attachment
    del source["data"]
    return digest


def block_data(
    block_type: str, text: str | None, payload: dict[str, Any], attachment_data: bytes | None
) -> dict[str, Any]:
    """The UMF block (as JSON data) that a block row holds, with its media bytes if any."""
    data = {**payload, "type": block_type}
    if text is not None:
        data["content" if block_type == "tool_result" else "text"] = text
    if attachment_data is not None:
        data["source"] = {**data["source"], "data": base64.b64encode(attachment_data).decode()}
    return data


def search_text(message: umf.Message) -> str:
    """Everything a search should find in a message: visible text, reasoning, tool names,
    arguments and results; nothing for hidden context, which no search may reveal."""
    if message.hidden:
        return ""
    parts: list[str] = []
    for block in message.content:
        parts.extend(_block_search_parts(block))
    if message.reasoning:
        parts.append(message.reasoning)
    return "\n".join(part for part in parts if part)


def _block_search_parts(block: umf.Block) -> Iterable[str]:
    if isinstance(block, umf.TextBlock | umf.RefusalBlock | umf.ThinkingBlock):
        yield block.text
    elif isinstance(block, umf.ToolUseBlock):
        yield block.name
        yield block.raw_arguments or orjson.dumps(block.input).decode()
    elif isinstance(block, umf.ToolResultBlock):
        if isinstance(block.content, str):
            yield block.content
        else:
            for inner in block.content:
                yield from _block_search_parts(inner)
    elif isinstance(block, umf.DocumentBlock):
        if block.title:
            yield block.title
        if block.source.type == "text" and block.source.data:
            yield block.source.data


# Message columns that hold a UMF message field of the same meaning: (column, UMF key).
MESSAGE_COLUMNS = (
    ("role", "role"),
    ("name", "name"),
    ("tool_call_id", "tool_call_id"),
    ("source_id", "id"),
    ("source_parent_id", "parent_id"),
    ("timestamp", "timestamp"),
    ("model", "model"),
    ("finish_reason", "finish_reason"),
    ("provider_finish_reason", "provider_finish_reason"),
    ("usage", "usage"),
    ("reasoning", "reasoning"),
    ("reasoning_details", "reasoning_details"),
    ("hidden", "hidden"),
    ("metadata", "metadata"),
    ("extra", "extra"),
)


def message_row(message: umf.Message, conversation_id: uuid.UUID, position: int) -> Row:
    """The row of one message (the caller sets ``parent_id``)."""
    timestamp = message.timestamp
    if timestamp is not None and timestamp.tzinfo is None:
        timestamp = timestamp.replace(tzinfo=UTC)
    text = search_text(message)
    return {
        "id": models.uuid7(),
        "conversation_id": conversation_id,
        "position": position,
        "role": message.role,
        "name": message.name,
        "tool_call_id": message.tool_call_id,
        "source_id": message.id,
        "source_parent_id": message.parent_id,
        "model": message.model,
        "timestamp": timestamp,
        "finish_reason": message.finish_reason,
        "provider_finish_reason": message.provider_finish_reason,
        "usage": message.usage.model_dump(mode="json", exclude_none=True)
        if message.usage
        else None,
        "reasoning": message.reasoning,
        "reasoning_details": message.reasoning_details,
        "hidden": message.hidden,
        "metadata": message.metadata,
        "extra": message.extra,
        "search_text": text,
        "search_cjk": cjk_terms(text),
        "provider": "",
    }


def message_data(columns: Sequence[Any], blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """The UMF message (as JSON data) of a row fetched as ``MESSAGE_COLUMNS`` values."""
    data = {key: value for (_, key), value in zip(MESSAGE_COLUMNS, columns, strict=True)}
    data["content"] = blocks
    return data


def warning_row(
    warning: umf.DriftWarning,
    conversation: models.Conversation,
    stage: str,
    position: int,
    message: models.Message | None = None,
) -> models.DriftWarning:
    """The row of one drift warning."""
    return models.DriftWarning(
        conversation=conversation,
        message=message,
        position=position,
        stage=stage,
        category=warning.category,
        severity=warning.severity,
        text=warning.message,
        field=warning.field,
        original_value=warning.original_value,
        transformed_value=warning.transformed_value,
        source=warning.source,
        details=warning.details,
    )


def warning_from_row(row: models.DriftWarning) -> umf.DriftWarning:
    """The UMF drift warning a row holds."""
    return umf.DriftWarning(
        category=row.category,  # type: ignore[arg-type]
        severity=row.severity,  # type: ignore[arg-type]
        message=row.text,
        field=row.field,
        original_value=row.original_value,
        transformed_value=row.transformed_value,
        source=row.source,
        details=row.details,
    )


def add_messages(
    rows: Rows,
    messages: Sequence[umf.Message],
    *,
    start_position: int = 0,
    parent_id: uuid.UUID | None = None,
    known_parents: dict[str, uuid.UUID] | None = None,
) -> None:
    """Add rows for ``messages`` (and their blocks and tool calls) to ``rows``.

    Each message's parent is the one its ``parent_id`` names, else the one before it; the
    first one's is ``parent_id`` (a fork point, for replies added to a stored thread).
    ``known_parents`` maps source ids of messages stored earlier to their rows.
    """
    by_source_id: dict[str, Row] = {
        key: {"id": value} for key, value in (known_parents or {}).items()
    }
    previous: Row | None = {"id": parent_id} if parent_id is not None else None
    calls: dict[str, Row] = {}
    for offset, message in enumerate(messages):
        row = message_row(message, rows.conversation.pk, start_position + offset)
        row["replay_run_id"] = rows.replay_run_id
        parent = by_source_id[message.parent_id] if message.parent_id is not None else previous
        row["parent_id"] = parent["id"] if parent is not None else None
        if message.id is not None:
            by_source_id.setdefault(message.id, row)
        rows.messages.append(row)
        for index, block in enumerate(message.content):
            block_record = block_row(block, rows, row["id"], index)
            _link_tool_call(block, block_record, row, rows, calls)
        previous = row


def _link_tool_call(
    block: umf.Block, block_record: Row, message: Row, rows: Rows, calls: dict[str, Row]
) -> None:
    """A tool_use becomes a ToolCall row; a tool_result fills in the call it answers."""
    if isinstance(block, umf.ToolUseBlock):
        call = {
            "conversation_id": rows.conversation.pk,
            "message_id": message["id"],
            "block_id": block_record["id"],
            "call_id": block.id,
            "name": block.name,
            "arguments": block.input,
            "result_block_id": None,
            "is_error": None,
        }
        calls[block.id] = call
        rows.tool_calls.append(call)
    elif isinstance(block, umf.ToolResultBlock) and block.tool_use_id in calls:
        answered = calls[block.tool_use_id]
        answered["result_block_id"] = block_record["id"]
        answered["is_error"] = block.is_error


def _title(conversation: umf.Conversation, title: str | None) -> str:
    if title:
        return title[:300]
    if conversation.metadata.title:
        return conversation.metadata.title[:300]
    for message in conversation.messages:
        # Never hidden context: the person's profile is no title.
        if message.role == "user" and not message.hidden:
            text = " ".join(umf.extract_text(message).split())
            if text:
                return text if len(text) <= TITLE_LENGTH else text[: TITLE_LENGTH - 1] + "…"
    return "Untitled conversation"


def _model_of(conversation: umf.Conversation) -> str:
    if conversation.parameters.model:
        return conversation.parameters.model
    for message in reversed(conversation.messages):
        if message.model:
            return message.model
    return ""


def conversation_fields(
    conversation: umf.Conversation, title: str | None, format_id: str
) -> dict[str, Any]:
    """The columns of a conversation row that its UMF conversation (read as ``format_id``)
    decides; a newer export of it decides them again (see ``services.merge``)."""
    metadata = conversation.metadata.model_dump(mode="json", exclude_defaults=True)
    metadata.pop("warnings", None)
    started_at, last_message_at = conversation_dates(conversation, format_id)
    return {
        "started_at": started_at,
        "last_message_at": last_message_at,
        "title": _title(conversation, title),
        "model": _model_of(conversation)[:200],
        "tool_choice": (
            conversation.tool_choice.model_dump(mode="json", exclude_defaults=True)
            if conversation.tool_choice
            else None
        ),
        "parameters": conversation.parameters.model_dump(mode="json", exclude_defaults=True),
        "metadata": metadata,
        "extra": conversation.extra,
    }


def conversation_rows(
    owner: User, item: formats.ParseResult, fmt: formats.Format, digest: str, title: str | None
) -> Rows:
    """Unsaved rows for a new conversation of ``owner`` read by ``fmt`` (its source
    document's hash ``digest``, its title ``title`` unless None)."""
    conversation, warnings, format_id = item.conversation, item.warnings, fmt.id
    row = models.Conversation(
        owner=owner,
        source_format=format_id,
        source_key=item.key,
        provider=fmt.provider or "",
        content_hash=digest,
        message_count=len(conversation.messages),
        warning_count=len(warnings) + len(conversation.metadata.warnings),
        **conversation_fields(conversation, title, format_id),
    )
    rows = Rows(conversation=row)
    add_messages(rows, conversation.messages)
    rows.provenance.append(
        models.Provenance(
            conversation=row, frontend=format_id, backend=row.provider, model=row.model
        )
    )
    rows.tools.extend(_tool_rows(conversation, rows.conversation))
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.RECORD, i)
        for i, w in enumerate(conversation.metadata.warnings)
    )
    rows.warnings.extend(
        warning_row(w, row, models.DriftWarning.Stage.IMPORT, i) for i, w in enumerate(warnings)
    )
    return rows


def _tool_rows(
    conversation: umf.Conversation, row: models.Conversation
) -> list[models.ToolDefinition]:
    return [
        models.ToolDefinition(
            conversation=row,
            position=position,
            name=tool.name,
            description=tool.description,
            parameters=tool.parameters,
            extra=tool.extra,
        )
        for position, tool in enumerate(conversation.tools)
    ]


def messages_data(
    messages: Sequence[Sequence[Any]],
    blocks: Sequence[Sequence[Any]],
    attachments: dict[str, bytes],
) -> list[dict[str, Any]]:
    """The UMF messages (as JSON data) that fetched rows hold: ``messages`` as (id, then
    ``MESSAGE_COLUMNS``) in order, ``blocks`` as (message id, type, text, payload,
    attachment key) in order within each message, with the bytes of the attachments."""
    blocks_by_message: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for message_id, block_type, text, payload, attachment_id in blocks:
        data = attachments.get(attachment_id) if attachment_id else None
        blocks_by_message[message_id].append(block_data(block_type, text, payload, data))
    return [message_data(m[1:], blocks_by_message[m[0]]) for m in messages]


def conversation_from_rows(
    row: models.Conversation,
    messages: Sequence[Sequence[Any]],
    blocks: Sequence[Sequence[Any]],
    tools: list[dict[str, Any]],
    warnings: Sequence[models.DriftWarning],
    attachments: dict[str, bytes],
) -> tuple[umf.Conversation, list[umf.DriftWarning]]:
    """The UMF conversation that fetched rows hold, and the warnings recorded when it was
    imported: ``messages`` as (id, then ``MESSAGE_COLUMNS``) in order, ``blocks`` as
    (message id, type, text, payload, attachment key) in order within each message,
    ``tools`` as dicts of their columns, ``warnings`` in order, and the bytes of the
    attachments the blocks name. Validated in one msgspec call: a model instance per row
    would cost more than the queries."""
    recorded = [w for w in warnings if w.stage == models.DriftWarning.Stage.RECORD]
    document = {
        "messages": messages_data(messages, blocks, attachments),
        "tools": tools,
        "tool_choice": row.tool_choice,
        "parameters": row.parameters,
        "metadata": {
            **row.metadata,
            "warnings": [warning_from_row(w).model_dump(mode="json") for w in recorded],
        },
        "extra": row.extra,
    }
    imported = [
        warning_from_row(w) for w in warnings if w.stage == models.DriftWarning.Stage.IMPORT
    ]
    return umf.Conversation.model_validate(document), imported
