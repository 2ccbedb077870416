"""UMF conversation -> ART payload: the shape it was read in, else an ``ArtStandardPrompt``.

Text blocks become the message's string content (joined with newlines); tool calls become
``tool_calls`` with JSON-string arguments; each tool result becomes a ``tool_result``
message of its own, after the assistant message that holds it (server-side tools) and
before any other message that does (results inside user turns).
"""

from __future__ import annotations

import json

from providers.formats._kit.drift import (
    error_said_in_content,
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_thinking_dropped,
)
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.render import (
    developer_as_system,
    plain_text,
    render_list,
    report_foreign,
    report_moved,
    report_reasoning_fields,
    whole_result,
)
from providers.formats._message_lists.shapes import Wire
from providers.formats.art._constants import DIALECT, NS, NULL_CONTENT_ROLES
from providers.formats.art._rules import ArtContext, arguments
from providers.formats.base import Rendered
from providers.umf import (
    JSON,
    Block,
    Conversation,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as ART JSON (see the package docstring): the payload and a
    warning for each thing it could not carry."""
    return render_list(conversation, render_message, DIALECT, ArtContext)


def render_message(message: Message, index: int, ctx: ArtContext) -> list[Wire]:
    """The ART messages for UMF message ``index`` (a message holding tool results gives
    one ``tool_result`` message per result, first)."""
    path = item("messages", index)
    report_foreign(message.extra, path, ctx)
    report_reasoning_fields(message, path, ctx, "ART messages")
    if message.role == "tool":
        return _tool_message(message, path, ctx)
    role = _role(message, path, ctx)
    texts: list[str] = []
    calls: list[Wire] = []
    results: list[tuple[int, Wire]] = []
    placed: list[int] = []  # positions of the blocks written in the message itself
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ToolResultBlock):
            results.append((position, _result_wire(block, block_path, ctx, owner=None)))
        elif isinstance(block, ToolUseBlock) and role in NULL_CONTENT_ROLES:
            calls.append(_call_wire(block, block_path, ctx))
            placed.append(position)
        elif _place_text(block, block_path, texts, ctx):
            placed.append(position)
    after = role in NULL_CONTENT_ROLES  # an assistant's own results follow it
    moved = "tool results are messages of their own in ART; moved {where} the message's content"
    report_moved([position for position, _ in results], placed, after, path, ctx, moved)
    result_wires = [wire for _, wire in results]
    if message.content and not placed and not ctx.faithful:
        return result_wires  # all of it went elsewhere or was dropped, each with its warning
    wire: Wire = {"role": role, "content": _content(texts, role, message)}
    if calls:
        wire["tool_calls"] = calls
    if message.name is not None:
        wire["name"] = message.name
    wire = NS.put(wire, message.extra)
    return [wire, *result_wires] if after else [*result_wires, wire]


def _role(message: Message, path: str, ctx: ArtContext) -> str:
    if message.role == "developer":
        return developer_as_system(path, ctx)
    if message.role == "assistant" and NS.hint(message.extra, "role") == "tool_request":
        return "tool_request"
    return message.role


def _content(texts: list[str], role: str, message: Message) -> JSON:
    content_hint = NS.hint(message.extra, "content")
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


def _place_text(block: Block, path: str, texts: list[str], ctx: ArtContext) -> bool:
    """Add the block's text to ``texts``; False (with a warning) when it has none to add."""
    if isinstance(block, TextBlock):
        texts.append(block.text)
        if block.citations:
            report_citations_dropped(block, path, ctx.drift, "ART messages carry no citations")
        return True
    text = plain_text(block)
    if text is not None:
        texts.append(text)
        report_block_as_text(
            block, path, ctx.drift, f"ART content is text; the {block.type} is sent as text"
        )
        return True
    if isinstance(block, ThinkingBlock):
        report_thinking_dropped(block, path, ctx.drift, "ART messages carry no reasoning")
    else:
        report_block_dropped(
            block, path, ctx.drift, f"ART messages cannot hold {block.type} content here"
        )
    return False


def _call_wire(block: ToolUseBlock, path: str, ctx: ArtContext) -> Wire:
    ctx.call_names[block.id] = block.name
    function = {"name": block.name, "arguments": arguments(block, path, ctx)}
    function.update(NS.hint(block.extra, "function", {}))
    call_id = ctx.call_id(block.id, at(path, "id"))
    return NS.put({"id": call_id, "type": "function", "function": function}, block.extra)


def _tool_message(message: Message, path: str, ctx: ArtContext) -> list[Wire]:
    results = [(i, b) for i, b in enumerate(message.content) if isinstance(b, ToolResultBlock)]
    content_path = at(path, "content")
    if len(results) == 1 and len(message.content) == 1:
        return [_result_wire(results[0][1], item(content_path, 0), ctx, owner=message)]
    whole = whole_result(message)
    if whole is not None:  # UMF's InternalMessage shape: the whole content answers one call
        return [_result_wire(whole, path, ctx, owner=message)]
    wires = [_result_wire(b, item(content_path, i), ctx, owner=None) for i, b in results]
    texts: list[str] = []
    for position, block in enumerate(message.content):
        if not isinstance(block, ToolResultBlock):
            _place_text(block, item(content_path, position), texts, ctx)
    if texts:
        ctx.drift.add(
            "message-reordered" if results else "content-type-unsupported",
            "content of a tool message that answers no call; sent as a user message",
            field=path,
            original="tool",
            transformed="user",
        )
        wires.append({"role": "user", "content": "\n".join(texts)})
    return wires


def _result_wire(block: ToolResultBlock, path: str, ctx: ArtContext, owner: Message | None) -> Wire:
    hints = owner.extra if owner is not None else {}
    content = _result_text(block, path, ctx)
    wire: Wire = {
        "role": NS.hint(hints, "role") or "tool_result",
        "tool_call_id": ctx.call_id(block.tool_use_id, at(path, "tool_use_id")),
    }
    content_hint = NS.hint(hints, "content")
    if content_hint == "null" and content == "":
        wire["content"] = None
    elif content_hint == "object":
        wire["content"] = _as_object(content)
    else:
        wire["content"] = content
    name = owner.name if owner is not None else None
    if name is None and not ctx.faithful:
        name = block.name or ctx.call_names.get(block.tool_use_id)
    if name is not None:
        wire["name"] = name
    return NS.put(wire, hints)


def _result_text(block: ToolResultBlock, path: str, ctx: ArtContext) -> str:
    if isinstance(block.content, str):
        text = block.content
    else:
        texts: list[str] = []
        for position, inner in enumerate(block.content):
            _place_text(inner, item(at(path, "content"), position), texts, ctx)
        text = "\n".join(texts)
    return (
        error_said_in_content(text, path, ctx.drift, "ART tool results") if block.is_error else text
    )
