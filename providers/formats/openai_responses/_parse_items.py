"""Reading Responses items into UMF messages.

* A ``message`` item of role user, system or developer is one UMF message; its item fields
  (``type``, ``id``, ``status``...) stay verbatim on the message, ``$content: string`` when
  its content was a string.
* A run of assistant-side items (assistant ``message``, ``reasoning``, ``function_call``,
  ``custom_tool_call``) is one UMF assistant message, so that text, reasoning and parallel
  calls travel together as other formats hold them. The first block of an assistant
  message item carries ``$message``: the item's own fields and how many blocks it holds.
* ``reasoning`` becomes a thinking block of provider ``openai-responses``: its text is the
  summary (else the reasoning content), ``data`` the ``encrypted_content``; the summary and
  content arrays are kept as ``$summary`` / ``$content``, the ``rs_`` id and status verbatim.
* ``function_call`` / ``custom_tool_call`` become tool-use blocks (``id`` is the
  ``call_id``; the ``fc_`` item id stays verbatim beside it; custom calls are ``$type:
  custom``). ``function_call_output`` / ``custom_tool_call_output`` are tool messages.
* Any other item (hosted-tool calls, ``item_reference``, types added later) is kept
  verbatim with its position in the ``unmapped_items`` field of the message it follows
  (or, at the very start, of the message it precedes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.calls import parse_custom_input
from providers.formats._kit.fields import require_list, require_str
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import (
    parse_arguments,
)
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import ASSISTANT_ITEMS, FORMAT_ID, MESSAGE_ROLES, NS, OUTPUT_ITEMS, UNMAPPED_ITEMS
from ._parse_parts import parse_part, plain


@dataclass
class ItemReader:
    """Turns one item list after another into UMF messages (``call_names`` spans them all,
    so an exchange's outputs find the names of the request's calls)."""

    call_names: dict[str, str] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    open_run: bool = False
    count: int = 0  # wire items the last message holds so far

    def read(self, raw: JSON, path: str) -> list[Message]:
        """The messages of an ``input`` item list (``path`` is where the list is)."""
        self.messages, self.pending, self.open_run = [], [], False
        for index, raw_item in enumerate(require_list(raw, path or "payload")):
            self._item(raw_item, item(path, index))
        if self.pending:  # nothing but unmapped items: they need a message to live on
            self._start(Message(role="assistant"))
        return self.messages

    def read_output(self, raw: JSON, path: str) -> Message:
        """A response's ``output`` as one assistant message; items that are not the
        assistant's own (outputs run by the API...) are kept unmapped in place."""
        self.messages, self.pending = [], []
        self._start(Message(role="assistant"), count=0)
        self.open_run = True
        for index, raw_item in enumerate(require_list(raw, path)):
            item_path = item(path, index)
            source = plain(raw_item, item_path)
            kind = _kind(source, item_path)
            if kind == "message" and source.get("role") != "assistant":
                raise FormatError(
                    "output messages have role assistant", field=at(item_path, "role")
                )
            if kind == "message" or kind in ASSISTANT_ITEMS:
                self._item(source, item_path)
            else:
                self._unmapped(source)
        return self.messages[0]

    def _item(self, raw: JSON, path: str) -> None:
        source = plain(raw, path)
        kind = _kind(source, path)
        if kind == "message":
            self._message(source, path)
        elif kind in ASSISTANT_ITEMS:
            self._assistant([_ASSISTANT_PARSERS[kind](source, path, self)])
        elif kind in OUTPUT_ITEMS:
            self._start(_parse_output(source, kind, path, self.call_names))
        else:
            self._unmapped(source)

    def _message(self, source: dict[str, Any], path: str) -> None:
        role = source.get("role")
        if role not in MESSAGE_ROLES:
            raise FormatError(
                f"role must be one of {', '.join(MESSAGE_ROLES)}", field=at(path, "role")
            )
        if role == "assistant":
            blocks = _assistant_message(source, path)
            if blocks:
                self._assistant(blocks)
            else:  # an empty answer has no block to carry its fields: keep it whole
                self._unmapped(source)
            return
        blocks, string = _content(source, path, role)
        rest = {k: v for k, v in source.items() if k not in ("role", "content")}
        extra = NS.extra(rest, content="string" if string else None)
        self._start(Message(role=role, content=blocks, extra=extra))

    def _assistant(self, blocks: list[Block]) -> None:
        if self.open_run:
            self.messages[-1].content.extend(blocks)
            self.count += 1
        else:
            self._start(Message(role="assistant", content=blocks))
            self.open_run = True

    def _start(self, message: Message, count: int = 1) -> None:
        # Unmapped items seen before the first message go first in it.
        for position, entry in enumerate(self.pending):
            _keep_unmapped(message, position, entry)
        self.count = len(self.pending) + count
        self.pending = []
        self.messages.append(message)
        self.open_run = False

    def _unmapped(self, source: dict[str, Any]) -> None:
        if not self.messages:
            self.pending.append(source)
            return
        _keep_unmapped(self.messages[-1], self.count, source)
        self.count += 1


def _keep_unmapped(message: Message, position: int, source: dict[str, Any]) -> None:
    entries = message.extra.setdefault(FORMAT_ID, {}).setdefault(UNMAPPED_ITEMS, [])
    entries.append({"at": position, "item": source})


def _kind(source: dict[str, Any], path: str) -> str:
    """The item's type; a typeless item with a role is a message, one with only an id an
    item reference."""
    kind = source.get("type")
    if kind is None:  # the SDK types leave it out of easy messages and item references
        if "role" in source:
            return "message"
        if isinstance(source.get("id"), str):
            return "item_reference"
        raise FormatError("an item needs a type, or a role and content", field=at(path, "type"))
    if not isinstance(kind, str):
        raise FormatError("an item type must be a string", field=at(path, "type"))
    return kind


def _content(source: dict[str, Any], path: str, role: str) -> tuple[list[Block], bool]:
    """``(blocks, whether the content was a string)`` of a message item."""
    if "content" not in source:
        raise FormatError("a message needs content", field=at(path, "content"))
    content = source["content"]
    if isinstance(content, str):
        return [TextBlock(text=content)], True
    content_path = at(path, "content")
    parts = require_list(content, content_path)
    return [parse_part(part, item(content_path, i), role) for i, part in enumerate(parts)], False


def _assistant_message(source: dict[str, Any], path: str) -> list[Block]:
    blocks, string = _content(source, path, "assistant")
    if not blocks:
        return []
    fields = {k: v for k, v in source.items() if k not in ("role", "content")}
    marker: dict[str, Any] = {"fields": fields, "blocks": len(blocks)}
    if string:
        marker["content"] = "string"
    NS.add_hints(blocks[0].extra, message=marker)
    return blocks


def _parse_reasoning(source: dict[str, Any], path: str, reader: ItemReader) -> Block:
    summary = _reasoning_parts(source, "summary", path)
    content = _reasoning_parts(source, "content", path)
    texts = [part["text"] for part in summary or content or []]
    encrypted = source.get("encrypted_content")
    if encrypted is not None:
        require_str(encrypted, at(path, "encrypted_content"))
    skip = ("type", "summary") + (("content",) if content is not None else ())
    skip += ("encrypted_content",) if encrypted is not None else ()
    rest = {k: v for k, v in source.items() if k not in skip}
    return ThinkingBlock(
        text="\n\n".join(texts),
        data=encrypted,
        provider=FORMAT_ID,
        extra=NS.extra(rest, summary=summary, content=content),
    )


def _reasoning_parts(source: dict[str, Any], key: str, path: str) -> list[Any] | None:
    """The ``summary`` (required) or ``content`` (optional, null kept verbatim) array."""
    if key == "content" and source.get(key) is None:
        return None
    parts_path = at(path, key)
    parts = require_list(source.get(key), parts_path)
    for index, part in enumerate(parts):
        require_str(
            plain(part, item(parts_path, index)).get("text"), at(item(parts_path, index), "text")
        )
    return parts


def _parse_call(source: dict[str, Any], path: str, reader: ItemReader) -> Block:
    custom = source["type"] == "custom_tool_call"
    argument_key = "input" if custom else "arguments"
    call_id = require_str(source.get("call_id"), at(path, "call_id"))
    name = require_str(source.get("name"), at(path, "name"))
    raw_arguments = require_str(source.get(argument_key), at(path, argument_key))
    value = parse_custom_input(raw_arguments) if custom else parse_arguments(raw_arguments)[0]
    reader.call_names[call_id] = name
    rest = {k: v for k, v in source.items() if k not in ("type", "call_id", "name", argument_key)}
    return ToolUseBlock(
        id=call_id,
        name=name,
        input=value,
        raw_arguments=raw_arguments,
        extra=NS.extra(rest, type="custom" if custom else None),
    )


_ASSISTANT_PARSERS = {
    "reasoning": _parse_reasoning,
    "function_call": _parse_call,
    "custom_tool_call": _parse_call,
}


def _parse_output(
    source: dict[str, Any], kind: str, path: str, call_names: dict[str, str]
) -> Message:
    call_id = require_str(source.get("call_id"), at(path, "call_id"))
    if "output" not in source:
        raise FormatError("a tool output needs output", field=at(path, "output"))
    output = source["output"]
    content: str | list[Block]
    if isinstance(output, str):
        content = output
    else:
        output_path = at(path, "output")
        parts = require_list(output, output_path)
        content = [parse_part(part, item(output_path, i), "tool") for i, part in enumerate(parts)]
    name = source.get("name")
    block = ToolResultBlock(
        tool_use_id=call_id,
        content=content,
        name=name if isinstance(name, str) else call_names.get(call_id),
    )
    rest = {k: v for k, v in source.items() if k not in ("type", "call_id", "output")}
    custom = kind == "custom_tool_call_output"
    return Message(
        role="tool",
        tool_call_id=call_id,
        content=[block],
        extra=NS.extra(rest, type="custom" if custom else None),
    )
