"""Turns -> Mistral messages, before the ordering rules of :mod:`._rules` apply.

What each role holds: system text (and thinking, when read so); user every chunk type;
assistant text and thinking chunks, ``tool_calls`` and ``prefix``; tool messages
``tool_call_id``, ``name`` and text. When converting, media a role cannot hold is set aside
(:attr:`Written.carry`) for a user message after its group (``message-reordered``).
Blocks become chunks (``text``, ``image_url``, ``document_url`` or ``file``,
``input_audio``, ``thinking``) with their verbatim fields and hints (see
:mod:`._parse_messages`) put back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.blocks import (
    image_url,
    leave_out_empty,
    media_uri,
    same_bytes,
    sendable,
)
from providers.formats._chat_completions.calls import write_call
from providers.formats._chat_completions.content import (
    refusal_as_text,
    sent_as_text,
    write_content,
    write_result_content,
    write_text,
)
from providers.formats._chat_completions.pairing import carried
from providers.formats._chat_completions.turns import Located, Turn, locate, mark_error
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import describe, report_block_dropped, report_thinking_dropped
from providers.formats._kit.extra import put_fields
from providers.formats._kit.wire import base64_text, report_signature_stripped, signature_portable
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    Extra,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import NS, UNMAPPED_CHUNKS
from ._parse_messages import thinking_text

_MEDIA = ("image_url", "document_url", "input_audio", "file")


@dataclass
class Written:
    """One rendered message (None when nothing of its turn could be sent), the media that
    must follow it in a user message, and where it came from."""

    wire: dict[str, Any] | None
    path: str
    carry: list[dict[str, Any]] = field(default_factory=list)
    synthetic: bool = False

    @property
    def role(self) -> str:
        """The role on the wire (``""`` for a message left out)."""
        return str(self.wire["role"]) if self.wire is not None else ""


def fields_of(extra: Extra) -> dict[str, Any]:
    """This format's verbatim fields on a message, without the unmapped chunks (a request
    field of that name is the request's own)."""
    return {k: v for k, v in NS.fields(extra).items() if k != UNMAPPED_CHUNKS}


class TurnWriter:
    """Writes turns as Mistral messages."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def turn(self, turn: Turn) -> Written:
        """One message for ``turn`` (see :class:`Written`)."""
        if turn.role == "tool":
            return self._tool(turn)
        written = Written(None, turn.path)
        chunks: list[dict[str, Any]] = []
        calls: list[dict[str, Any]] = []
        for entry in turn.blocks:
            if isinstance(entry.block, ToolUseBlock) and turn.role == "assistant":
                call_id = turn.call_ids.get(entry.path, entry.block.id)
                calls.append(write_call(entry.block, call_id, self.ctx))
            elif (chunk := self.chunk(entry, turn.role)) is not None:
                self._keep(chunk, entry, turn.role, chunks, written)
        extra = turn.message.extra if turn.message is not None else {}
        chunks = NS.put_back(chunks, extra, UNMAPPED_CHUNKS, "chunk")
        if not self.ctx.faithful and not (sendable(chunks) or calls):
            leave_out_empty(turn, self.ctx)
            return written
        wire: dict[str, Any] = {"role": turn.role}
        write_content(wire, chunks, turn.role, NS.hint(extra, "content"))
        if calls:
            wire["tool_calls"] = calls
        written.wire = put_fields(wire, fields_of(extra))
        return written

    def _keep(
        self,
        chunk: dict[str, Any],
        entry: Located,
        role: str,
        chunks: list[dict[str, Any]],
        written: Written,
    ) -> None:
        if self.ctx.faithful or role == "user" or chunk["type"] not in _MEDIA:
            chunks.append(chunk)
            return
        written.carry.append(carried(chunk, entry.block, entry.path, role, self.ctx))

    def chunk(self, entry: Located, role: str) -> dict[str, Any] | None:
        """The chunk for a block, or None (warned) when it has none."""
        block, path = entry.block, entry.path
        if isinstance(block, ThinkingBlock):
            if role == "assistant" or (self.ctx.faithful and role == "system"):
                return render_thinking(block, path, self.ctx)
            report_thinking_dropped(
                block, path, self.ctx.drift, f"Mistral takes no reasoning in a {role} message"
            )
            return None
        if isinstance(block, RefusalBlock):
            return refusal_as_text(block, path, self.ctx)
        return self._content_chunk(block, path, role)

    def _content_chunk(self, block: Block, path: str, role: str) -> dict[str, Any] | None:
        if isinstance(block, TextBlock):
            return write_text(block, path, self.ctx)
        if isinstance(block, ImageBlock):
            return render_image(block, path, self.ctx)
        if isinstance(block, DocumentBlock):
            return render_document(block, path, self.ctx)
        if isinstance(block, AudioBlock):
            return render_audio(block, path, self.ctx)
        report_block_dropped(
            block, path, self.ctx.drift, f"a {role} message cannot hold a {block.type} block"
        )
        return None

    def _tool(self, turn: Turn) -> Written:
        assert turn.result is not None
        result, path = turn.result.block, turn.result.path
        assert isinstance(result, ToolResultBlock)
        written = Written(None, turn.path)
        content: Any = result.content
        if not isinstance(content, str):
            chunks: list[dict[str, Any]] = []
            for entry in locate(content, path):
                if (chunk := self.chunk(entry, "tool")) is not None:
                    self._keep(chunk, entry, "tool", chunks, written)
            content = chunks
        extra = turn.message.extra if turn.message is not None else {}
        if isinstance(content, list):
            content = NS.put_back(content, extra, UNMAPPED_CHUNKS, "chunk")
        if result.is_error:
            content = mark_error(content, path, self.ctx)
        written.wire = self._tool_wire(turn, result, content, extra)
        return written

    def _tool_wire(
        self, turn: Turn, result: ToolResultBlock, content: Any, extra: Extra
    ) -> dict[str, Any]:
        wire: dict[str, Any] = {"role": "tool"}
        call_id = turn.call_id if turn.call_id is not None else result.tool_use_id
        if not (self.ctx.faithful and call_id == "" and NS.hint(extra, "call_id") == "absent"):
            wire["tool_call_id"] = call_id
        if self.ctx.faithful:
            name = turn.message.name if turn.message is not None else None
        else:
            name = turn.call_name or result.name
        if name is not None:
            wire["name"] = name
        write_result_content(wire, content, NS.hint(extra, "content"))
        fields = fields_of(extra)
        if "tool_call_id" in fields:
            wire.pop("tool_call_id", None)
        return put_fields(wire, fields)


# --------------------------------------------------------------------------- chunks


def render_image(block: ImageBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``image_url`` chunk (a URL string, or ``{url, detail}``), or None (warned)."""
    inner = image_url(block, path, ctx, NS)
    if inner is None:
        return None
    if inner.keys() == {"url"} and NS.hint(block.extra, "image_url") != "object":
        return NS.put({"type": "image_url", "image_url": inner["url"]}, block.extra)
    return NS.put({"type": "image_url", "image_url": inner}, block.extra)


def render_document(block: DocumentBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """A ``document_url`` (or ``file``) chunk; text as a text chunk; None (warned) for
    bytes, which Mistral needs uploaded or hosted first."""
    source = block.source
    if ctx.faithful and source.type == "file" and NS.hint(block.extra, "chunk") == "file":
        return NS.put({"type": "file", "file_id": source.file_id}, block.extra)
    if source.type == "url" or (ctx.faithful and source.type == "base64"):
        chunk: dict[str, Any] = {
            "type": "document_url",
            "document_url": media_uri(source, block.extra, NS),
        }
        name = block.filename if ctx.faithful else block.filename or block.title
        if name is not None:
            chunk["document_name"] = name
        return NS.put(chunk, block.extra)
    text = source.data if source.type == "text" else base64_text(source)
    if text is None:
        why = (
            "Mistral takes documents by URL; these bytes would need an upload first"
            if source.type == "base64"
            else "a file id of another provider means nothing to Mistral"
        )
        report_block_dropped(block, path, ctx.drift, why)
        return None
    why = "Mistral has no text documents; sent as a text chunk"
    return sent_as_text(text, path, ctx, why, original=describe(block))


def render_audio(block: AudioBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """An ``input_audio`` chunk (base64 audio), or None (warned)."""
    source = block.source
    if source.type != "base64" or source.data is None:
        report_block_dropped(block, path, ctx.drift, "Mistral takes audio only as base64 data")
        return None
    original = NS.hint(block.extra, "uri")
    data = original if same_bytes(original, source) else source.data
    return NS.put({"type": "input_audio", "input_audio": data}, block.extra)


def render_thinking(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    """A ``thinking`` chunk; the signature only back to Mistral (``signature-stripped``
    otherwise); None (``reasoning-dropped``) when there is no readable text to send."""
    if not ctx.faithful and (block.redacted or not block.text):
        report_thinking_dropped(block, path, ctx.drift, "Mistral takes only readable reasoning")
        return None
    kept = NS.hint(block.extra, "thinking")
    inner = kept if isinstance(kept, list) and thinking_text(kept) == block.text else None
    inner = inner if inner is not None else [_text(block.text)]
    chunk: dict[str, Any] = {"type": "thinking", "thinking": inner}
    portable = ctx.faithful or signature_portable(block, NS.format_id)
    if block.signature is not None and portable:
        chunk["signature"] = block.signature
    elif block.signature is not None or block.data is not None:
        why = "the signature belongs to another provider; the text is sent without it"
        report_signature_stripped(block, path, ctx.drift, why)
    return NS.put(chunk, block.extra)


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
