"""UMF conversation -> Forge messages: the shape it was read in, else an array.

Every Forge message is role and text. An assistant's blocks are written in order, a blank
line apart (thinking as bracketed lines, calls as ``<tool>`` blocks); every tool result is
a ``Tool: <name>`` message of its own, after the assistant message that holds it and
before the user or system message that does. A ``<tool>`` call is pure XML with CDATA
when it reads back as the same call, else the deprecated JSON form (see
:mod:`._parse_text` for the reading).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_message_name,
    report_thinking_dropped,
)
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import json_digest, report_signature_stripped
from providers.formats._message_lists.render import (
    ListContext,
    developer_as_system,
    plain_text,
    render_context,
    render_list,
    report_foreign,
    report_invalid_arguments,
    report_moved,
    report_reasoning_fields,
    whole_result,
)
from providers.formats._message_lists.shapes import Wire
from providers.formats.base import Rendered
from providers.formats.forge._constants import (
    DEFAULT_TOOL_NAME,
    DIALECT,
    ERROR_PREFIX,
    FORMAT_ID,
    LABEL,
    NS,
    TOOL_CLOSE,
    TOOL_OPEN,
    TOOL_PREFIX,
)
from providers.formats.forge._parse_text import read_call
from providers.formats.forge._parse_xml import is_tag
from providers.formats.forge._rules import note_call_id, result_name, tool_without_call
from providers.umf import (
    Block,
    Conversation,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as Forge messages (see the package docstring): the payload
    and a warning for each thing it could not carry."""
    return render_list(conversation, render_message, DIALECT, ListContext)


def message_text(
    role: str,
    blocks: Sequence[Block],
    ctx: ListContext | None = None,
    path: str = "",
    positions: Sequence[int] | None = None,
    written: list[int] | None = None,
) -> str:
    """The text Forge writes for a message's blocks (``ctx`` collects the warnings; none
    are kept without it; ``positions`` are the blocks' indexes in the UMF message, and
    ``written`` collects those of the blocks that made it into the text)."""
    ctx = ctx or render_context(FORMAT_ID, LABEL, faithful=True)
    positions = positions if positions is not None else range(len(blocks))
    if role == "tool" and len(blocks) == 1 and isinstance(blocks[0], ToolResultBlock):
        result = blocks[0]
        text = _result_text(result, at(path, "content[0]"), ctx)
        return write_result(result.name or DEFAULT_TOOL_NAME, text, bool(result.is_error))
    pieces = []
    for position, block in zip(positions, blocks, strict=True):
        piece = _piece(block, role, item(at(path, "content"), position), ctx)
        if piece is not None:
            pieces.append(piece)
            if written is not None:
                written.append(position)
    return "\n\n".join(pieces)


def render_message(message: Message, index: int, ctx: ListContext) -> list[Wire]:
    """The Forge messages for UMF message ``index``."""
    path = item("messages", index)
    report_foreign(message.extra, path, ctx)
    report_message_name(message, path, ctx.drift, "Forge messages have no name")
    report_reasoning_fields(message, path, ctx, "Forge messages", "reasoning field")
    kept = NS.hint(message.extra, "text")
    if kept is not None and NS.hint(message.extra, "digest") == fingerprint(message.content):
        return [_wire(message, message.role, kept)]
    role = developer_as_system(path, ctx) if message.role == "developer" else message.role
    whole = whole_result(message)
    blocks = list(message.content) if whole is None else [whole]
    results = [(i, b) for i, b in enumerate(blocks) if isinstance(b, ToolResultBlock)]
    if role == "tool" and len(results) == 1 and len(blocks) == 1:
        # The result is the message's own block, or stands for its plain content.
        result_path = path if whole is not None else item(at(path, "content"), 0)
        return [_wire(message, "tool", _tool_text(results[0][1], result_path, ctx))]
    numbered = [(i, b) for i, b in enumerate(blocks) if not isinstance(b, ToolResultBlock)]
    others = [block for _, block in numbered]
    for block in others:
        if isinstance(block, ToolUseBlock):
            ctx.call_names[block.id] = block.name
    result_wires = [
        _wire(None, "tool", _tool_text(block, item(at(path, "content"), i), ctx))
        for i, block in results
    ]
    if role == "tool" and (others or not blocks):
        role = tool_without_call(path, ctx)
    wires: list[Wire] = []
    written: list[int] = []
    if others or not blocks:
        text = message_text(role, others, ctx, path, [i for i, _ in numbered], written)
        # A message all of whose content went elsewhere or was dropped (each with its
        # warning) is not written as an empty one.
        if text or not blocks or ctx.faithful:
            wires.append(_wire(message, role, text))
    after = role == "assistant"  # an assistant's own results follow it
    moved = "tool results are Forge messages of their own; moved {where} the message's text"
    report_moved([i for i, _ in results], written, after, path, ctx, moved)
    return [*wires, *result_wires] if after else [*result_wires, *wires]


def _wire(message: Message | None, role: str, text: str) -> Wire:
    if message is None:
        return {"role": role, "content": text}
    if NS.hint(message.extra, "keys") == "go":
        return NS.put({"Role": role, "Content": text}, message.extra)
    return NS.put({"role": role, "content": text}, message.extra)


def _tool_text(block: ToolResultBlock, path: str, ctx: ListContext) -> str:
    name = result_name(block.name or ctx.call_names.get(block.tool_use_id), path, ctx)
    return write_result(name, _result_text(block, path, ctx), bool(block.is_error))


def _result_text(block: ToolResultBlock, path: str, ctx: ListContext) -> str:
    if isinstance(block.content, str):
        return block.content
    pieces = []
    for position, inner in enumerate(block.content):
        piece = _piece(inner, "tool", item(at(path, "content"), position), ctx)
        if piece is not None:
            pieces.append(piece)
    return "\n".join(pieces)


def _piece(block: Block, role: str, path: str, ctx: ListContext) -> str | None:
    """One block as Forge text, or None when it cannot be said (a warning says why)."""
    if isinstance(block, TextBlock):
        if block.citations:
            report_citations_dropped(block, path, ctx.drift, "Forge text carries no citations")
        return block.text
    if isinstance(block, ThinkingBlock) and role == "assistant":
        return _thinking(block, path, ctx)
    if isinstance(block, ToolUseBlock) and role == "assistant":
        if block.raw_arguments is not None:
            report_invalid_arguments(block, path, ctx, "Forge")
        note_call_id(block, path, ctx)
        return write_call(block, NS.fields(block.extra), NS.hint(block.extra, "form"))
    text = plain_text(block)
    if text is not None:
        report_block_as_text(
            block, path, ctx.drift, f"Forge messages are text; the {block.type} is sent as text"
        )
        return text
    if isinstance(block, ThinkingBlock):
        ctx.drift.add(
            "reasoning-dropped",
            f"a Forge {role} message holds no thinking",
            field=path,
            original=block.text or None,
        )
        return None
    report_block_dropped(
        block, path, ctx.drift, f"a Forge {role} message cannot hold {block.type} content"
    )
    return None


def _thinking(block: ThinkingBlock, path: str, ctx: ListContext) -> str | None:
    if not block.text:
        why = "reasoning with no readable text cannot be written as Forge thinking"
        report_thinking_dropped(block, path, ctx.drift, why)
        return None
    if block.signature or block.data:
        why = "Forge thinking is plain text; its signature is left out"
        report_signature_stripped(block, path, ctx.drift, why)
    return write_thinking(block.text)


def fingerprint(blocks: list[Block]) -> str:
    """A digest of what a message's text says (ids left out: Forge text has none), to
    tell whether the blocks read from a text are still the same."""
    said = [
        {
            **block.model_dump(mode="json", exclude={"extra", "id", "tool_use_id"}),
            "fields": NS.fields(block.extra),
        }
        for block in blocks
    ]
    return json_digest(said)


_SPECIAL = re.compile(r"[<>&\n\r\t]|^\s|\s$")


def write_call(block: ToolUseBlock, fields: dict[str, Any], form: str | None) -> str:
    """A ``<tool>`` block: pure XML when it reads back as the same call, else the
    deprecated JSON form (which carries any JSON exactly)."""
    if form != "json":
        xml = _xml_call(block.name, block.input, fields)
        if xml is not None:
            return xml
    body = {**fields, "tool_name": block.name, "arguments": block.input}
    if "server_name" in fields:
        body = {"server_name": fields["server_name"], **body}
    return f"{TOOL_OPEN}\n{json.dumps(body, indent=2, ensure_ascii=False)}\n{TOOL_CLOSE}"


def _xml_call(name: str, arguments: Any, fields: dict[str, Any]) -> str | None:
    if not isinstance(arguments, dict) or not all(is_tag(key) for key in arguments):
        return None
    if not all(is_tag(key) and isinstance(value, str) for key, value in fields.items()):
        return None
    lines = [line for key, value in fields.items() for line in render_value(key, value, "")]
    lines.append(f"<tool_name>{escape_text(name)}</tool_name>")
    lines += render_value("arguments", arguments, "")
    text = "\n".join([TOOL_OPEN, *lines, TOOL_CLOSE])
    call = read_call(text[len(TOOL_OPEN) : -len(TOOL_CLOSE)])
    exact = call is not None and (call.name, call.input, call.fields) == (name, arguments, fields)
    return text if exact else None


def write_thinking(text: str) -> str:
    """Thinking as bracketed lines, one per line of the text."""
    return "\n".join(f"[{line}]" for line in text.split("\n"))


def write_result(name: str, content: str, is_error: bool) -> str:
    """A tool message's text: ``Tool: <name>`` and the result on the next line."""
    return f"{TOOL_PREFIX}{name}\n{ERROR_PREFIX if is_error else ''}{content}"


def render_value(tag: str, value: Any, indent: str) -> list[str]:
    """The lines of ``<tag>value</tag>`` (nested objects indented by two spaces)."""
    if isinstance(value, dict):
        inner = [
            line for key, item in value.items() for line in render_value(key, item, indent + "  ")
        ]
        return [f"{indent}<{tag}>", *inner, f"{indent}</{tag}>"]
    if isinstance(value, list):
        return [line for item in value for line in render_value(tag, item, indent)]
    return [f"{indent}<{tag}>{escape_text(str(value))}</{tag}>"]


def escape_text(value: str) -> str:
    """Text as Forge writes it: CDATA when it holds special characters or edge spaces."""
    if not _SPECIAL.search(value):
        return value
    return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"
