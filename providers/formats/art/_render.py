"""UMF conversation -> ART payload: the shape it was read in, else an ``ArtStandardPrompt``.

Text blocks become the message's string content (joined with newlines); tool calls become
``tool_calls`` with JSON-string arguments; each tool result becomes a ``tool_result``
message of its own, after the assistant message that holds it (server-side tools) and
before any other message that does (results inside user turns).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import ToolIdMap, arguments_string, parse_arguments
from providers.formats._kit.drift import report_no_room_for_request
from providers.formats.base import Rendered
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._parse import NULL_CONTENT_ROLES
from ._shared import (
    RenderContext,
    at,
    get_hint,
    item,
    put_fields,
    report_foreign_extra,
    thread,
)

SHAPES = ("messages", "message", "exchange")
Wire = dict[str, Any]


@dataclass
class _Render:
    """One render: the context, the names of the calls seen so far (a result that does
    not say which tool it answers gets the name of its call), and the id map: ART's
    schema refuses a result with an empty ``tool_call_id``, so empty ids are replaced
    (the same way on the call and its results)."""

    ctx: RenderContext
    call_names: dict[str, str] = field(default_factory=dict)
    ids: ToolIdMap | None = None

    def call_id(self, original: str, path: str) -> str:
        """The id to write for a call or result id read at ``path``."""
        if self.ctx.faithful:
            return original
        if self.ids is None:
            self.ids = ToolIdMap(self.ctx.drift, bool, lambda digest: f"call_{digest[:24]}")
        return self.ids(original, path)


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and a warning for each thing it could not carry."""
    shape = get_hint(conversation.extra, "shape")
    state = _Render(RenderContext(faithful=shape in SHAPES))
    report_foreign_extra(conversation.extra, "", state.ctx)
    report_no_room_for_request(conversation, state.ctx.drift, holder="an ART prompt carries")
    messages = thread(conversation, state.ctx)
    wires = [[*render_message(message, index, state)] for index, message in messages]
    flat = [wire for group in wires for wire in group]
    payload: JSON = flat
    if shape == "message" and len(flat) == 1:
        payload = flat[0]
    elif shape == "exchange" and _one_answer(messages, wires):
        payload = {
            **get_hint(conversation.extra, "exchange", {}),
            "request": flat[:-1],
            "response": wires[-1][0],
        }
    return Rendered(payload, state.ctx.drift.warnings)


def _one_answer(messages: list[tuple[int, Message]], groups: list[list[Wire]]) -> bool:
    """Whether the thread ends with an assistant message written as one message."""
    return bool(messages) and messages[-1][1].role == "assistant" and len(groups[-1]) == 1


def render_message(message: Message, index: int, state: _Render) -> list[Wire]:
    """The ART messages for UMF message ``index`` (a message holding tool results gives
    one ``tool_result`` message per result, first)."""
    path = item("messages", index)
    report_foreign_extra(message.extra, path, state.ctx)
    _report_reasoning_fields(message, path, state)
    if message.role == "tool":
        return _tool_message(message, path, state)
    role = _role(message, path, state)
    texts: list[str] = []
    calls: list[Wire] = []
    results: list[tuple[int, Wire]] = []
    placed: list[int] = []  # positions of the blocks written in the message itself
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ToolResultBlock):
            results.append((position, _result_wire(block, block_path, state, owner=None)))
        elif isinstance(block, ToolUseBlock) and role in NULL_CONTENT_ROLES:
            calls.append(_call_wire(block, block_path, state))
            placed.append(position)
        elif _place_text(block, block_path, texts, state):
            placed.append(position)
    after = role in NULL_CONTENT_ROLES  # an assistant's own results follow it
    _warn_moved([position for position, _ in results], placed, after, path, state)
    result_wires = [wire for _, wire in results]
    if message.content and not placed and not state.ctx.faithful:
        return result_wires  # all of it went elsewhere or was dropped, each with its warning
    wire: Wire = {"role": role, "content": _content(texts, role, message)}
    if calls:
        wire["tool_calls"] = calls
    if message.name is not None:
        wire["name"] = message.name
    wire = put_fields(wire, message.extra)
    return [wire, *result_wires] if after else [*result_wires, wire]


def _role(message: Message, path: str, state: _Render) -> str:
    if message.role == "developer":
        state.ctx.drift.add(
            "system-message-transformed",
            "ART has no developer role; sent as a system message",
            field=at(path, "role"),
            original="developer",
            transformed="system",
        )
        return "system"
    if message.role == "assistant" and get_hint(message.extra, "role") == "tool_request":
        return "tool_request"
    return message.role


def _content(texts: list[str], role: str, message: Message) -> JSON:
    content_hint = get_hint(message.extra, "content")
    if not texts:
        return None if role in NULL_CONTENT_ROLES or content_hint == "null" else ""
    text = "\n".join(texts)
    return _as_object(text) if content_hint == "object" else text


def _as_object(text: str) -> JSON:
    """The object a JSON text read from object content stands for (text if edited since)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, dict) else text


def _place_text(block: Block, path: str, texts: list[str], state: _Render) -> bool:
    """Add the block's text to ``texts``; False (with a warning) when it has none to add."""
    drift = state.ctx.drift
    if isinstance(block, TextBlock):
        texts.append(block.text)
        if block.citations:
            drift.add(
                "content-dropped",
                "ART messages carry no citations",
                field=at(path, "citations"),
                original=block.citations,
            )
        return True
    text = _as_text(block)
    if text is not None:
        texts.append(text)
        drift.add(
            "content-type-unsupported",
            f"ART content is text; the {block.type} is sent as text",
            field=path,
            original=block.type,
            transformed="text",
        )
        return True
    if isinstance(block, ThinkingBlock):
        drift.add(
            "reasoning-dropped",
            "ART messages carry no reasoning",
            field=path,
            original=block.text or None,
            details={"redacted": block.redacted, "signed": bool(block.signature or block.data)},
        )
    else:
        drift.add(
            "content-dropped",
            f"ART messages cannot hold {block.type} content here",
            field=path,
            original=block.model_dump(mode="json", exclude={"extra"}, exclude_none=True),
        )
    return False


def _as_text(block: Block) -> str | None:
    """The text of a block ART takes as text: a refusal, a plain-text document."""
    if isinstance(block, RefusalBlock):
        return block.text
    if isinstance(block, DocumentBlock) and block.source.type == "text" and block.source.data:
        return block.source.data
    return None


def _call_wire(block: ToolUseBlock, path: str, state: _Render) -> Wire:
    state.call_names[block.id] = block.name
    function = {"name": block.name, "arguments": _arguments(block, path, state)}
    function.update(get_hint(block.extra, "function", {}))
    call_id = state.call_id(block.id, at(path, "id"))
    return put_fields({"id": call_id, "type": "function", "function": function}, block.extra)


def _arguments(block: ToolUseBlock, path: str, state: _Render) -> str:
    """The argument string: what was read when faithful, else a JSON object (seed 004:
    "a stringified JSON object"), with a warning when the call's own string was not one."""
    if state.ctx.faithful:
        return arguments_string(block.input, block.raw_arguments)
    value = block.input if isinstance(block.input, dict) else {"input": block.input}
    if value is not block.input:
        state.ctx.drift.add(
            "content-type-unsupported",
            "ART arguments are a JSON object; the value is wrapped",
            field=at(path, "input"),
            original=block.input,
            transformed=value,
        )
    raw = block.raw_arguments if value is block.input else None
    if raw is not None and not parse_arguments(raw)[1]:
        raw = None
        state.ctx.drift.add(
            "content-dropped",
            "the call's arguments were not valid JSON; the parsed (empty) input is sent",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=value,
        )
    return arguments_string(value, raw)


def _tool_message(message: Message, path: str, state: _Render) -> list[Wire]:
    results = [(i, b) for i, b in enumerate(message.content) if isinstance(b, ToolResultBlock)]
    content_path = at(path, "content")
    if len(results) == 1 and len(message.content) == 1:
        return [_result_wire(results[0][1], item(content_path, 0), state, owner=message)]
    if not results and message.tool_call_id is not None:
        # UMF's InternalMessage shape: the whole content answers one call.
        whole = ToolResultBlock(tool_use_id=message.tool_call_id, content=list(message.content))
        return [_result_wire(whole, path, state, owner=message)]
    wires = [_result_wire(b, item(content_path, i), state, owner=None) for i, b in results]
    others = [(i, b) for i, b in enumerate(message.content) if not isinstance(b, ToolResultBlock)]
    texts: list[str] = []
    for position, block in others:
        _place_text(block, item(content_path, position), texts, state)
    if texts:
        state.ctx.drift.add(
            "message-reordered" if results else "content-type-unsupported",
            "content of a tool message that answers no call; sent as a user message",
            field=path,
            original="tool",
            transformed="user",
        )
        wires.append({"role": "user", "content": "\n".join(texts)})
    return wires


def _result_wire(block: ToolResultBlock, path: str, state: _Render, owner: Message | None) -> Wire:
    hints = owner.extra if owner is not None else {}
    content = _result_text(block, path, state)
    wire: Wire = {
        "role": get_hint(hints, "role") or "tool_result",
        "tool_call_id": state.call_id(block.tool_use_id, at(path, "tool_use_id")),
    }
    content_hint = get_hint(hints, "content")
    if content_hint == "null" and content == "":
        wire["content"] = None
    elif content_hint == "object":
        wire["content"] = _as_object(content)
    else:
        wire["content"] = content
    name = owner.name if owner is not None else None
    if name is None and not state.ctx.faithful:
        name = block.name or state.call_names.get(block.tool_use_id)
    if name is not None:
        wire["name"] = name
    return put_fields(wire, hints)


def _result_text(block: ToolResultBlock, path: str, state: _Render) -> str:
    if isinstance(block.content, str):
        text = block.content
    else:
        texts: list[str] = []
        for position, inner in enumerate(block.content):
            _place_text(inner, item(at(path, "content"), position), texts, state)
        text = "\n".join(texts)
    if block.is_error:
        marked = f"Error: {text}" if text else "Error"
        state.ctx.drift.add(
            "capability-unsupported",
            "ART tool results have no error flag; the error is said in the text",
            field=at(path, "is_error"),
            original=True,
            transformed=marked,
        )
        return marked
    return text


def _warn_moved(
    results: list[int], placed: list[int], after: bool, path: str, state: _Render
) -> None:
    """One note per result that had to jump over the message's own content."""
    for position in results:
        jumped = any(p > position for p in placed) if after else any(p < position for p in placed)
        if jumped:
            state.ctx.drift.add(
                "message-reordered",
                "tool results are messages of their own in ART; moved "
                + ("after" if after else "before")
                + " the message's content",
                field=item(at(path, "content"), position),
                original="within the message",
                transformed="after" if after else "before",
                severity="info",
            )


def _report_reasoning_fields(message: Message, path: str, state: _Render) -> None:
    if message.reasoning:
        state.ctx.drift.add(
            "reasoning-dropped",
            "ART messages carry no reasoning",
            field=at(path, "reasoning"),
            original=message.reasoning,
        )
    if message.reasoning_details:
        state.ctx.drift.add(
            "reasoning-dropped",
            "ART messages carry no reasoning details",
            field=at(path, "reasoning_details"),
            details={"count": len(message.reasoning_details)},
        )
