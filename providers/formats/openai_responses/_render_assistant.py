"""Writing a UMF assistant message as Responses items.

Blocks that this format read from an assistant ``message`` item (marked ``$message``) go
back as that item; other text blocks become easy ``{"role": "assistant", "content": text}``
messages, one per block (only an item with its ``msg_`` id may hold ``output_text`` and
refusals: a refusal without one becomes text, ``content-type-unsupported``). Thinking blocks
go back as ``reasoning`` items only when this format read them and, in a request, still
have their ``rs_`` id; others are dropped (``reasoning-dropped``) and so is the id of the
item that followed them (``id-rewritten`` to None). A reasoning item with nothing after it
is dropped from requests too. Media moves to a user message after the turn.

What every role's writer shares is here too: warnings for dropped reasoning and ids, and
tool results as output items.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import result_part
from providers.formats._chat_completions.pairing import carried
from providers.formats._chat_completions.turns import mark_error
from providers.formats._kit.drift import report_block_as_text
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import (
    arguments_string,
    dump_arguments,
    signature_portable,
)
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import FORMAT_ID, NS
from ._render_parts import render_part, warn_citations
from ._rules import Context, Entry, valid_item_id

_CONTENT_BLOCKS = (TextBlock, RefusalBlock, ImageBlock, DocumentBlock, AudioBlock)


class AssistantWriter:
    """Walks an assistant message's blocks once, item by item."""

    def __init__(self, message: Message, index: int, path: str, ctx: Context) -> None:
        self.blocks, self.index, self.path, self.ctx = message.content, index, path, ctx
        self.entries: list[Entry] = []
        self.carry: list[dict[str, Any]] = []
        # Set when reasoning was left out: the item after it must lose its id too.
        self.strip_next = False

    def run(self) -> list[Entry]:
        """The message's items in order; media it cannot hold rides on the last one."""
        position = 0
        while position < len(self.blocks):
            position += self._item(position)
        self._drop_trailing_reasoning()
        if self.carry and self.entries:
            self.entries[-1].carry.extend(self.carry)
        elif self.carry:  # nothing but media: the user message is all there is
            self.entries.append(
                Entry({"role": "user", "content": self.carry}, self.path, self.index)
            )
        return self.entries

    def _drop_trailing_reasoning(self) -> None:
        # The API refuses a reasoning item without the item that followed it: an output of
        # this turn (a message, a call), not a tool's answer, which the request moves to
        # right after its call anyway.
        if self.ctx.faithful:
            return
        kept: list[Entry] = []
        followed = False
        for entry in reversed(self.entries):
            if entry.wire.get("type") == "reasoning" and not followed:
                block = self.blocks[entry.order]
                assert isinstance(block, ThinkingBlock)
                why = "nothing this turn outputs follows this reasoning to send it with"
                drop_reasoning(block, entry.path, why, self.ctx)
                continue
            followed = followed or (entry.result is None and entry.wire.get("type") != "reasoning")
            kept.append(entry)
        kept.reverse()
        self.entries = kept

    def _path(self, position: int) -> str:
        return item(at(self.path, "content"), position)

    def _add(self, wire: dict[str, Any], position: int, **marks: Any) -> None:
        self.entries.append(Entry(wire, self._path(position), self.index, position, **marks))

    def _item(self, position: int) -> int:
        """Write the item starting at ``position``; how many blocks it took."""
        block, path = self.blocks[position], self._path(position)
        marker = _marker(self.blocks, position)
        if marker is not None and (wire := self._message_item(marker, position)) is not None:
            self._add(wire, position)
            self.strip_next = False
            return int(marker["blocks"])
        if isinstance(block, ThinkingBlock):
            reasoning = _reasoning(block, path, self.ctx)
            if reasoning is not None:
                self._add(reasoning, position)
            self.strip_next = reasoning is None
            return 1
        if isinstance(block, ToolUseBlock):
            self._add(self._call(block, position), position, call=block.id)
        elif isinstance(block, ToolResultBlock):
            self.entries.append(result_entry(block, path, self.index, self.ctx, None, position))
        else:
            self._content_block(block, position)
        self.strip_next = False
        return 1

    def _content_block(self, block: Block, position: int) -> None:
        path = self._path(position)
        if isinstance(block, TextBlock):
            if block.citations:
                warn_citations(block, path, self.ctx)
            self._add({"role": "assistant", "content": block.text}, position)
        elif isinstance(block, RefusalBlock):
            why = "a refusal needs the answer's own message item; sent as assistant text"
            report_block_as_text(block, path, self.ctx.drift, why)
            self._add({"role": "assistant", "content": block.text}, position)
        elif (part := render_part(block, path, self.ctx, "user")) is not None:
            self.carry.append(carried(part, block, path, "assistant", self.ctx))

    def _message_item(self, marker: dict[str, Any], position: int) -> dict[str, Any] | None:
        """The ``message`` item this format read, or None (its blocks then go one by one)
        when it cannot be sent as such: only an item with its ``msg_`` id may hold
        ``output_text`` and refusals."""
        fields = dict(marker["fields"])
        group = self.blocks[position : position + int(marker["blocks"])]
        if not self.ctx.faithful:
            fields = self._checked_id(fields, "msg", position)
            if "id" not in fields or not all(
                isinstance(b, TextBlock | RefusalBlock) for b in group
            ):
                return None
        parts = [
            part
            for offset, block in enumerate(group)
            if (part := render_part(block, self._path(position + offset), self.ctx, "assistant"))
        ]
        content: Any = parts
        first = group[0]
        string = marker.get("content") == "string" and len(group) == 1
        if string and isinstance(first, TextBlock) and self.ctx.faithful:
            content = first.text
        out = put_fields({"role": "assistant", "content": content}, fields)
        if not self.ctx.faithful:  # an item with an id is the full output-message form
            out.setdefault("type", "message")
            out.setdefault("status", "completed")
        return out

    def _call(self, block: ToolUseBlock, position: int) -> dict[str, Any]:
        path = self._path(position)
        custom = NS.hint(block.extra, "type") == "custom"
        call_id = block.id if self.ctx.faithful else self.ctx.ids(block.id, at(path, "id"))
        wire: dict[str, Any] = {
            "type": "custom_tool_call" if custom else "function_call",
            "call_id": call_id,
            "name": block.name,
        }
        if custom:
            raw = block.raw_arguments
            wire["input"] = raw if raw is not None else dump_arguments(block.input)
        else:
            wire["arguments"] = arguments_string(block.input, block.raw_arguments)
        fields = NS.fields(block.extra)
        if not self.ctx.faithful:
            fields = self._checked_id(fields, "ctc" if custom else "fc", position)
        return put_fields(wire, fields)

    def _checked_id(self, fields: dict[str, Any], prefix: str, position: int) -> dict[str, Any]:
        """``fields`` without an ``id`` the API would refuse: one of the wrong type, or one
        that followed reasoning that is not sent."""
        path = self._path(position)
        if "id" in fields and self.strip_next:
            why = "the reasoning this item followed is not sent, so neither is its id"
            return without_id(fields, why, path, self.ctx)
        return checked_id(fields, prefix, path, self.ctx)


def _marker(blocks: list[Block], position: int) -> dict[str, Any] | None:
    """The ``$message`` hint that starts a message item at ``position``, if it still
    describes the blocks there."""
    marker = NS.hint(blocks[position].extra, "message")
    if not isinstance(marker, dict) or not isinstance(marker.get("fields"), dict):
        return None
    count = marker.get("blocks")
    if not isinstance(count, int) or count < 1 or position + count > len(blocks):
        return None
    group = blocks[position : position + count]
    if not all(isinstance(block, _CONTENT_BLOCKS) for block in group):
        return None
    if any(NS.hint(block.extra, "message") is not None for block in group[1:]):
        return None
    return marker


def _reasoning(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    fields = NS.fields(block.extra)
    if not signature_portable(block, FORMAT_ID):
        why = "reasoning of another provider (or of unknown origin) cannot be replayed to OpenAI"
    elif not ctx.faithful and not valid_item_id(fields.get("id"), "rs"):
        why = "reasoning without its rs_ item id cannot be sent back"
    else:
        summary, content = _reasoning_parts(block)
        out: dict[str, Any] = {"type": "reasoning", "summary": summary}
        if content is not None:
            out["content"] = content
        if block.data is not None:
            out["encrypted_content"] = block.data
        return put_fields(out, fields)
    drop_reasoning(block, path, why, ctx)
    return None


def _reasoning_parts(block: ThinkingBlock) -> tuple[list[Any], list[Any] | None]:
    """``(summary, content)`` as read when they still spell the block's text, else a
    summary made of the text."""
    summary, content = NS.hint(block.extra, "summary"), NS.hint(block.extra, "content")
    if _texts(summary) is not None and (content is None or _texts(content) is not None):
        texts = _texts(summary) or _texts(content) or []
        if "\n\n".join(texts) == block.text:
            return summary, content
    return ([{"type": "summary_text", "text": block.text}] if block.text else []), None


def _texts(parts: Any) -> list[str] | None:
    if not isinstance(parts, list):
        return None
    if not all(isinstance(part, dict) and isinstance(part.get("text"), str) for part in parts):
        return None
    return [part["text"] for part in parts]


# --------------------------------------------------------------------------- shared


def drop_reasoning(block: ThinkingBlock, path: str, why: str, ctx: Context) -> None:
    """Warn that a thinking block is left out (its signature or data never travels)."""
    ctx.drift.add(
        "reasoning-dropped",
        f"{why}; left out",
        field=path,
        original=block.text or None,
        details={
            "provider": block.provider,
            "redacted": block.redacted,
            "signed": bool(block.signature or block.data),
        },
    )


def without_id(fields: dict[str, Any], why: str, path: str, ctx: Context) -> dict[str, Any]:
    """``fields`` (of the item at ``path``) without their ``id``, said (``id-rewritten``)."""
    ctx.drift.add("id-rewritten", why, field=at(path, "id"), original=fields["id"])
    return {key: value for key, value in fields.items() if key != "id"}


def checked_id(fields: dict[str, Any], prefix: str, path: str, ctx: Context) -> dict[str, Any]:
    """``fields`` (of the item at ``path``) without an ``id`` the API refuses for items
    whose ids start ``prefix``."""
    if "id" not in fields or valid_item_id(fields["id"], prefix):
        return fields
    why = f"item ids of this type start with {prefix!r}; the id is left out"
    return without_id(fields, why, path, ctx)


def result_entry(
    block: ToolResultBlock,
    path: str,
    index: int,
    ctx: Context,
    owner: Message | None,
    order: int = 0,
) -> Entry:
    """A ``function_call_output`` (or custom one) answering ``block.tool_use_id``; the
    call id on the wire is settled when the result is paired with its call."""
    custom = owner is not None and NS.hint(owner.extra, "type") == "custom"
    wire: dict[str, Any] = {
        "type": "custom_tool_call_output" if custom else "function_call_output",
        "call_id": block.tool_use_id,
        "output": _output(block, path, ctx),
    }
    if owner is not None:
        NS.put(wire, owner.extra)
    return Entry(wire, path, index, order, result=block.tool_use_id)


_NO_REASONING = "a tool result cannot hold reasoning"


def _output(block: ToolResultBlock, path: str, ctx: Context) -> Any:
    if isinstance(block.content, str):
        output: Any = block.content
    else:
        output = []
        for position, inner in enumerate(block.content):
            inner_path = item(at(path, "content"), position)
            part = result_part(inner, inner_path, ctx, render_part, _NO_REASONING)
            if part is not None:
                output.append(part)
    if block.is_error:
        output = mark_error(output, path, ctx, what="tool outputs", text_type="input_text")
    return output
