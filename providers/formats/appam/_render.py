"""UMF conversation -> Appam payload: the shape it was read in, else an array of
``UnifiedMessage``; its blocks as ``UnifiedContentBlock`` values, with a warning for each
lossy step."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_field_dropped,
    report_message_metadata,
    report_no_room_for_request,
    report_thinking_dropped,
)
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import (
    report_signature_stripped,
    signature_portable,
    wire_finish_reason,
)
from providers.formats._message_lists.render import (
    ListContext,
    one_thread,
    render_context,
    report_foreign,
    report_invalid_arguments,
)
from providers.formats._message_lists.shapes import shaped_payload
from providers.formats.appam._constants import (
    DEFAULT_IMAGE_MEDIA_TYPE,
    DEFAULT_MEDIA_TYPES,
    DOCUMENT_TAGS,
    FORMAT_ID,
    LABEL,
    NS,
    STOP_REASONS,
    USAGE_COUNTS,
)
from providers.formats.appam._parse import parse_timestamp
from providers.formats.appam._rules import media_type as media_type_of
from providers.formats.appam._rules import role_and_blocks
from providers.formats.base import Rendered
from providers.umf import (
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)

_NO_MESSAGE_METADATA = "Appam messages have no models, finish reasons, usage or metadata; left out"
_WIRE_STOP_REASONS: dict[str, str] = {v: k for k, v in reversed(STOP_REASONS.items())}


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as Appam JSON (see the package docstring): the payload and
    a warning for each thing it could not carry."""
    ctx = render_context(FORMAT_ID, LABEL, faithful=False)
    shape = NS.hint(conversation.extra, "shape")
    report_foreign(conversation.extra, "", ctx)
    report_no_room_for_request(conversation, ctx.drift, holder="Appam messages carry")
    thread = one_thread(conversation, ctx)
    last = thread[-1][1] if thread else None
    exchange = shape == "exchange" and last is not None and last.role == "assistant"
    _report_metadata(thread, exchange, ctx)
    groups = [[render_message(message, index, ctx)] for index, message in thread]
    payload = shaped_payload(conversation, shape, thread, groups, NS, _answer_fields)
    return Rendered(payload, ctx.drift.warnings)


def _report_metadata(messages: list[tuple[int, Message]], exchange: bool, ctx: ListContext) -> None:
    """One note for the messages' models, finish reasons, usage and metadata: a
    UnifiedMessage holds only an id and a timestamp, an exchange the answer's model, usage
    and stop reason beside it."""
    if exchange:
        index, answer = messages[-1]
        kept = answer.model_copy(update={"model": None, "usage": None, "finish_reason": None})
        messages = [*messages[:-1], (index, kept)]
    report_message_metadata(messages, ctx.drift, _NO_MESSAGE_METADATA, held=("id", "timestamp"))


def render_message(message: Message, index: int, ctx: ListContext) -> dict[str, Any]:
    """One ``UnifiedMessage`` for UMF message ``index``."""
    path = item("messages", index)
    report_foreign(message.extra, path, ctx)
    role, blocks = role_and_blocks(message, path, ctx)
    content = []
    for block_path, block in blocks:
        body = render_block(block, block_path, ctx)
        if body is not None:
            content.append(body)
    out: dict[str, Any] = {"role": role, "content": content}
    if message.id is not None:
        out["id"] = message.id
    if message.timestamp is not None:
        out["timestamp"] = format_timestamp(message.timestamp, NS.hint(message.extra, "timestamp"))
    if message.reasoning is not None:
        out["reasoning"] = message.reasoning
    if message.reasoning_details is not None:
        out["reasoning_details"] = message.reasoning_details
    if message.name is not None:  # a tool message's too: Appam's results carry no name
        report_field_dropped(path, "name", message.name, ctx.drift, "Appam messages have no name")
    return NS.put(out, message.extra)


def format_timestamp(value: datetime, original: str | None) -> str:
    """The timestamp as read when it still says the same instant, else RFC 3339 in UTC."""
    if original is not None and parse_timestamp(original, "") == value:
        return original
    utc = value.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}" if utc.microsecond else ""
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def _answer_fields(answer: Message) -> dict[str, Any]:
    """An exchange's ``usage``, ``stop_reason`` and ``model`` beside the response."""
    out: dict[str, Any] = {}
    if answer.usage is not None:
        out["usage"] = _usage(answer.usage)
    stop_reason = wire_finish_reason(answer, _WIRE_STOP_REASONS)
    if stop_reason is not None:
        out["stop_reason"] = stop_reason
    if answer.model is not None:
        out["model"] = answer.model
    return out


def _usage(usage: Usage) -> dict[str, Any]:
    if usage.raw is not None and {"input_tokens", "output_tokens"} <= usage.raw.keys():
        return usage.raw
    counts = {
        "input_tokens": usage.prompt_tokens or 0,
        "output_tokens": usage.completion_tokens or 0,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cached_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
    }
    return {key: counts[key] for key in USAGE_COUNTS if counts[key] is not None}


Body = dict[str, Any]


def render_block(block: Block, path: str, ctx: ListContext) -> Body | None:
    """One block, or None when Appam has no place for it (a warning says so)."""
    report_foreign(block.extra, path, ctx)
    body = _RENDERERS[block.type](block, path, ctx)
    return None if body is None else NS.put(body, block.extra)


def _text(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, TextBlock)
    if block.citations:
        report_citations_dropped(block, path, ctx.drift, "Appam text blocks carry no citations")
    return {"type": "text", "text": block.text}


def _refusal(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, RefusalBlock)
    report_block_as_text(block, path, ctx.drift, "Appam has no refusal block; sent as text")
    return {"type": "text", "text": block.text}


def _image(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ImageBlock)
    source = block.source
    if source.type == "url" and source.url is not None:
        wire: Body = {"type": "url", "url": source.url}
    elif source.type == "base64" and source.data is not None:
        media_type = media_type_of(source, DEFAULT_IMAGE_MEDIA_TYPE, path, ctx)
        wire = {"type": "base64", "media_type": media_type, "data": source.data}
    else:
        report_block_dropped(block, path, ctx.drift, "Appam images are base64 data or a URL")
        return None
    body: Body = {"type": "image", "source": {**wire, **NS.hint(block.extra, "source", {})}}
    if block.detail is not None:
        body["detail"] = block.detail
    return body


def _document(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, DocumentBlock)
    source = block.source
    tag = DOCUMENT_TAGS.get(source.type)
    if tag == "url_pdf" and source.url is not None:
        wire: Body = {"type": tag, "url": source.url}
    elif tag in DEFAULT_MEDIA_TYPES and source.data is not None:
        default = DEFAULT_MEDIA_TYPES[tag]
        media_type = media_type_of(source, default, path, ctx)
        wire = {"type": tag, "media_type": media_type, "data": source.data}
    else:
        report_block_dropped(
            block, path, ctx.drift, "Appam documents are PDF data, a PDF URL or text"
        )
        return None
    body: Body = {"type": "document", "source": {**wire, **NS.hint(block.extra, "source", {})}}
    title = block.title if block.title is not None else block.filename
    if title is not None:
        body["title"] = title
    if block.title is not None and block.filename not in (None, block.title):
        why = "Appam documents have a title but no file name"
        report_field_dropped(path, "filename", block.filename, ctx.drift, why)
    return body


def _audio(block: Block, path: str, ctx: ListContext) -> Body | None:
    report_block_dropped(block, path, ctx.drift, "Appam has no audio block")
    return None


def _tool_use(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ToolUseBlock)
    if block.raw_arguments is not None:
        report_invalid_arguments(block, path, ctx, LABEL)
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}


def _tool_result(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ToolResultBlock)
    body: Body = {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": _result_content(block, path, ctx),
    }
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: ListContext) -> Any:
    if isinstance(block.content, str):
        if NS.hint(block.extra, "content") == "json":
            try:
                return json.loads(block.content)
            except ValueError:
                return block.content  # edited into plain text since: a string now
        return block.content
    content_path = at(path, "content")
    inner = []
    for index, nested in enumerate(block.content):
        nested_path = item(content_path, index)
        if nested.type in ("tool_use", "tool_result", "thinking"):
            ctx.drift.add(
                "content-dropped",
                f"a tool result cannot hold a {nested.type} block",
                field=nested_path,
                original=nested.type,
            )
            continue
        body = render_block(nested, nested_path, ctx)
        if body is not None:
            inner.append(body)
    return inner


def _thinking(block: Block, path: str, ctx: ListContext) -> Body | None:
    assert isinstance(block, ThinkingBlock)
    portable = signature_portable(block, FORMAT_ID)
    if not portable and not block.text:
        why = "reasoning with no readable text cannot travel to Appam"
        report_thinking_dropped(block, path, ctx.drift, why)
        return None
    body: Body = {"type": "thinking", "thinking": block.text}
    if portable and block.signature is not None:
        body["signature"] = block.signature
    elif block.signature or block.data:
        why = "the reasoning's signature belongs to another provider; the text is kept"
        report_signature_stripped(block, path, ctx.drift, why)
    if block.redacted or NS.hint(block.extra, "redacted") != "absent":
        body["redacted"] = block.redacted
    return body


_RENDERERS: dict[str, Callable[[Block, str, ListContext], Body | None]] = {
    "text": _text,
    "refusal": _refusal,
    "image": _image,
    "document": _document,
    "audio": _audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}
