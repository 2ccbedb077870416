"""Turns -> Cohere v2 messages.

What each role holds: system text; user text, images and (read from Cohere) documents;
assistant text and thinking content, ``tool_plan``, ``tool_calls`` and ``citations``; tool
messages text and documents. When converting, an assistant's text beside tool calls is its
``tool_plan``; documents go to the request's ``documents`` (tool results keep them as
``document`` parts); whatever a role cannot hold is a warning (see the package docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chatlike import (
    Context,
    Located,
    Turn,
    drop,
    drop_reasoning,
    leave_out_empty,
    locate,
    mark_error,
    sendable,
    write_content,
    write_result_content,
)
from providers.formats._common import arguments_string, signature_portable
from providers.umf import (
    Block,
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._content import document_data, render_document_part, render_image, render_text
from ._shared import NS


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

    def write(self, turns: list[Turn]) -> list[dict[str, Any]]:
        """The messages for ``turns`` (a turn left with nothing to send is left out)."""
        return [wire for turn in turns if (wire := self.turn(turn)) is not None]

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
            pieces.calls.append(self._call(block, turn.call_ids.get(path, block.id)))
        elif (part := self.part(block, path, role)) is not None:
            pieces.parts.append(part)

    def _call(self, block: ToolUseBlock, call_id: str) -> dict[str, Any]:
        arguments = arguments_string(block.input, block.raw_arguments)
        function = NS.put({"name": block.name, "arguments": arguments}, block.extra, "inner")
        call: dict[str, Any] = {"id": call_id, "type": "function", "function": function}
        if NS.hint(block.extra, "type") == "absent" and self.ctx.faithful:
            del call["type"]
        return NS.put(call, block.extra)

    def _thinking(self, block: ThinkingBlock, path: str, pieces: _Pieces) -> None:
        if block.redacted or not (block.text or self.ctx.faithful):
            drop_reasoning(block, path, "Cohere takes only readable reasoning", self.ctx)
            return
        if (block.signature or block.data) and not signature_portable(block, NS.format_id):
            self.ctx.drift.add(
                "signature-stripped",
                "Cohere reasoning carries no signature; the text is sent without it",
                field=path,
                original=block.provider,
            )
        pieces.parts.append(NS.put({"type": "thinking", "thinking": block.text}, block.extra))

    def part(self, block: Block, path: str, role: str) -> dict[str, Any] | None:
        """A content part for ``block`` in a ``role`` message, or None (warned) when it has
        none there."""
        if isinstance(block, TextBlock):
            return render_text(block, path, self.ctx)
        if isinstance(block, ThinkingBlock):
            drop_reasoning(block, path, f"Cohere takes no reasoning in a {role} message", self.ctx)
            return None
        if isinstance(block, RefusalBlock):
            self.ctx.drift.add(
                "content-type-unsupported",
                "Cohere has no refusal content; sent as text",
                field=path,
                original="refusal",
                transformed="text",
            )
            return {"type": "text", "text": block.text}
        if isinstance(block, ImageBlock) and role == "user":
            return render_image(block, path, self.ctx)
        if isinstance(block, DocumentBlock):
            return self._document(block, path, role)
        why = {
            "image": f"Cohere takes images in user messages only, not in a {role} message",
            "audio": "Cohere takes no audio",
        }.get(block.type, f"a {role} message cannot hold a {block.type} block")
        drop(block, path, why, self.ctx)
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
