"""UMF conversation -> Cohere payload, in the shape it was read in (default: a request),
by the family's render (:func:`providers.formats._chat_completions.render.render_chat`), its
turns written as Cohere v2 messages.

What each role holds: system text; user text, images and (read from Cohere) documents;
assistant text and thinking content, ``tool_plan``, ``tool_calls`` and ``citations``; tool
messages text and documents. When converting, an assistant's text beside tool calls is its
``tool_plan``; documents go to the request's ``documents`` (tool results keep them as
``document`` parts); whatever a role cannot hold is a warning (see the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from providers.formats._chat_completions.blocks import (
    image_part,
    leave_out_empty,
    sendable,
    write_tool,
)
from providers.formats._chat_completions.calls import write_call
from providers.formats._chat_completions.content import (
    refusal_as_text,
    write_content,
    write_result_content,
    write_text,
)
from providers.formats._chat_completions.parameters import default_model, write_parameters
from providers.formats._chat_completions.render import render_chat
from providers.formats._chat_completions.turns import Located, Turn, locate, mark_error
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import describe, report_block_dropped, report_thinking_dropped
from providers.formats._kit.paths import item
from providers.formats._kit.wire import (
    base64_text,
    report_signature_stripped,
    signature_portable,
    wire_finish_reason,
)
from providers.formats.base import Rendered
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)

from ._constants import DEFAULT_MODEL, IMAGE_DETAILS, JSON_TEXT, NS, PARAMETERS, WIRE_FINISH_REASONS
from ._rules import DIALECT, tool_choice


@dataclass
class _Pieces:
    """A turn's blocks sorted by where they go on the wire."""

    parts: list[dict[str, Any]] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, Any]] | None = None


class TurnWriter:
    """Writes turns as messages; documents that have no place in a message are gathered in
    :attr:`documents` for the request's top-level ``documents``."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.documents: list[dict[str, Any]] = []

    def messages(self, turns: list[Turn]) -> list[dict[str, Any]]:
        """The messages for ``turns`` (a turn left with nothing to send is left out)."""
        return [wire for turn in turns if (wire := self.turn(turn)) is not None]

    def answer(self, turn: Turn) -> dict[str, Any]:
        """The message of a response."""
        return self.turn(turn) or {}

    def turn(self, turn: Turn) -> dict[str, Any] | None:
        """One message, or None when nothing of the turn can be sent."""
        if turn.role == "tool":
            return self._tool(turn)
        pieces = _Pieces()
        for entry in turn.blocks:
            self._place(entry, turn, pieces)
        if not self.ctx.faithful and not (sendable(pieces.parts) or pieces.plan or pieces.calls):
            leave_out_empty(turn, self.ctx)
            return None
        return self._message(turn, pieces)

    def _message(self, turn: Turn, pieces: _Pieces) -> dict[str, Any]:
        if not self.ctx.faithful and pieces.calls and not pieces.plan:
            # The text an assistant writes before calling tools is its plan.
            texts = [part for part in pieces.parts if part["type"] == "text"]
            pieces.plan = [part["text"] for part in texts]
            pieces.parts = [part for part in pieces.parts if part["type"] != "text"]
        out: dict[str, Any] = {"role": turn.role}
        extra = turn.message.extra if turn.message is not None else {}
        write_content(out, pieces.parts, turn.role, NS.hint(extra, "content"))
        if pieces.plan:
            out["tool_plan"] = "\n".join(pieces.plan)
        if pieces.calls:
            out["tool_calls"] = pieces.calls
        if pieces.citations is not None:
            out["citations"] = pieces.citations
        return NS.put(out, extra)

    def _place(self, entry: Located, turn: Turn, pieces: _Pieces) -> None:
        block, path, role = entry.block, entry.path, turn.role
        if isinstance(block, TextBlock) and role == "assistant":
            if NS.hint(block.extra, "field") == "tool_plan":
                pieces.plan.append(block.text)
                return
            if NS.hint(block.extra, "citations") == "message":
                pieces.citations = block.citations
        if isinstance(block, ThinkingBlock) and role == "assistant":
            self._thinking(block, path, pieces)
        elif isinstance(block, ToolUseBlock) and role == "assistant":
            pieces.calls.append(write_call(block, turn.call_ids.get(path, block.id), self.ctx))
        elif (part := self.part(block, path, role)) is not None:
            pieces.parts.append(part)

    def _thinking(self, block: ThinkingBlock, path: str, pieces: _Pieces) -> None:
        if block.redacted or not (block.text or self.ctx.faithful):
            report_thinking_dropped(
                block, path, self.ctx.drift, "Cohere takes only readable reasoning"
            )
            return
        if (block.signature or block.data) and not signature_portable(block, NS.format_id):
            why = "Cohere reasoning carries no signature; the text is sent without it"
            report_signature_stripped(block, path, self.ctx.drift, why)
        pieces.parts.append(NS.put({"type": "thinking", "thinking": block.text}, block.extra))

    def part(self, block: Block, path: str, role: str) -> dict[str, Any] | None:
        """A content part for ``block`` in a ``role`` message, or None (warned) when it has
        none there."""
        if isinstance(block, TextBlock):
            return write_text(block, path, self.ctx)
        if isinstance(block, ThinkingBlock):
            report_thinking_dropped(
                block, path, self.ctx.drift, f"Cohere takes no reasoning in a {role} message"
            )
            return None
        if isinstance(block, RefusalBlock):
            return refusal_as_text(block, path, self.ctx)
        if isinstance(block, ImageBlock) and role == "user":
            return image_part(block, path, self.ctx, NS, IMAGE_DETAILS)
        if isinstance(block, DocumentBlock):
            return self._document(block, path, role)
        why = {
            "image": f"Cohere takes images in user messages only, not in a {role} message",
            "audio": "Cohere takes no audio",
        }.get(block.type, f"a {role} message cannot hold a {block.type} block")
        report_block_dropped(block, path, self.ctx.drift, why)
        return None

    def _document(self, block: DocumentBlock, path: str, role: str) -> dict[str, Any] | None:
        in_place = role == "tool" or (role == "user" and self.ctx.faithful)
        where = "document" if in_place else f"documents[{len(self.documents)}]"
        data = document_data(block, path, self.ctx, where)
        if data is None:
            return None
        if in_place:
            return render_document_part(block, data)
        self.documents.append({"data": data})
        return None

    def _tool(self, turn: Turn) -> dict[str, Any]:
        assert turn.result is not None
        result, path = turn.result.block, turn.result.path
        assert isinstance(result, ToolResultBlock)
        content: Any = result.content
        if not isinstance(content, str):
            parts = [self.part(entry.block, entry.path, "tool") for entry in locate(content, path)]
            content = [part for part in parts if part is not None]
        if result.is_error:
            content = mark_error(content, path, self.ctx)
        wire: dict[str, Any] = {"role": "tool", "tool_call_id": turn.call_id}
        extra = turn.message.extra if turn.message is not None else {}
        write_result_content(wire, content, NS.hint(extra, "content"))
        return NS.put(wire, extra)


# --------------------------------------------------------------------------- parts


def document_data(block: DocumentBlock, path: str, ctx: Context, where: str) -> JSON | None:
    """The ``data`` of a Cohere document for ``block``: as read when this format read it,
    else text or a URL with the title (``content-type-unsupported``); None for bytes no
    text can be read from (``content-dropped``)."""
    source = block.source
    native = _native_data(source)
    if native is not None and ctx.faithful:
        return native
    data = _foreign_data(block)
    if data is None:
        report_block_dropped(
            block, path, ctx.drift, "Cohere takes documents as text; these bytes are not text"
        )
        return None
    ctx.drift.add(
        "content-type-unsupported",
        "Cohere takes documents as data to read, not files; sent as document data",
        field=path,
        original=describe(block),
        transformed=where,
    )
    return data


def _native_data(source: MediaSource) -> JSON | None:
    if source.type != "text" or source.data is None:
        return None
    if source.media_type == JSON_TEXT:
        try:
            value = orjson.loads(source.data)
        except orjson.JSONDecodeError:
            return None
        return value if isinstance(value, dict) else None
    return source.data if source.media_type == "text/plain" else None


def _foreign_data(block: DocumentBlock) -> dict[str, Any] | None:
    source = block.source
    data: dict[str, Any] = {}
    if block.title is not None or block.filename is not None:
        data["title"] = block.title if block.title is not None else block.filename
    if source.type == "text" and source.data is not None:
        native = _native_data(source)
        return native if isinstance(native, dict) else {**data, "text": source.data}
    if source.type == "url" and source.url:
        return {**data, "url": source.url}
    text = base64_text(source)
    return {**data, "text": text} if text is not None else None


def render_document_part(block: DocumentBlock, data: JSON) -> dict[str, Any]:
    """A ``document`` content part holding ``data``, with the fields it was read with."""
    inner: dict[str, Any] = {"data": data}
    doc_id = NS.hint(block.extra, "id")
    if doc_id is not None:
        inner["id"] = doc_id
    NS.put(inner, block.extra, "inner")
    return NS.put({"type": "document", "document": inner}, block.extra)


# --------------------------------------------------------------------------- payloads


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as a Cohere payload (see the package docstring)."""
    return render_chat(conversation, DIALECT, _Writer)


class _Writer(TurnWriter):
    def request(self, conversation: Conversation, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``POST /v2/chat`` body: parameters, model, messages, tools, documents."""
        ctx = self.ctx
        out = write_parameters(conversation.parameters, PARAMETERS, conversation.extra, ctx)
        model = default_model(conversation.parameters, DEFAULT_MODEL, ctx)
        if model is not None:
            out["model"] = model
        out["messages"] = messages
        tools = [
            write_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)
        ]
        tools = tool_choice(conversation, tools, out, ctx)
        if tools:
            out["tools"] = tools
        if self.documents:
            out["documents"] = self.documents
        return NS.put(out, conversation.extra)

    def response(self, message: Message, wire: dict[str, Any]) -> dict[str, Any]:
        """A ``V2ChatResponse`` holding ``wire``."""
        out = dict(NS.hint(message.extra, "response", {}))
        if message.id is not None:
            out["id"] = message.id
        finish = wire_finish_reason(message, WIRE_FINISH_REASONS)
        if finish is not None:
            out["finish_reason"] = finish
        out["message"] = wire
        if message.usage is not None:
            usage = message.usage
            out["usage"] = usage.raw if usage.raw is not None else _usage(usage)
        return out


def _usage(usage: Usage) -> dict[str, Any]:
    tokens = {"input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens}
    out: dict[str, Any] = {"tokens": {k: v for k, v in tokens.items() if v is not None}}
    if usage.cached_tokens is not None:
        out["cached_tokens"] = usage.cached_tokens
    return out
