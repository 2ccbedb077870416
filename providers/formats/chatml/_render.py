"""UMF conversation -> ChatML text.

A conversation this format read comes back as the very text it was. Any other is written
the way the Qwen2.5/Qwen3 templates write it: ``developer`` messages as ``system`` turns
(``system-message-transformed``), consecutive tool messages as one ``user`` turn of
``<tool_response>`` blocks (``role-merged`` for each one after the first), tool definitions
as the ``# Tools`` section of the system turn (``content-type-unsupported``: they become
text). Text has no room for parameters (``parameter-unsupported``), tool_choice
(``tool-unsupported``), message ids, models, timestamps, usage, finish reasons or metadata
(``content-dropped``), nor for other formats' fields (``field-unknown``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_developer,
    report_field_dropped,
    report_parameters_dropped,
)
from providers.formats._message_lists.render import one_thread, render_context
from providers.formats.base import Rendered
from providers.formats.chatml._constants import FORMAT_ID, LABEL, NS, START
from providers.formats.chatml._render_content import render_content, render_result, tools_section
from providers.formats.chatml._rules import header_text, turn_text, valid_name, warn_foreign_extra
from providers.umf import Conversation, Message, ToolResultBlock, extract_text

_METADATA = (
    "id",
    "model",
    "timestamp",
    "finish_reason",
    "provider_finish_reason",
    "usage",
    "metadata",
)


@dataclass
class _Turn:
    header: str
    content: str
    end: str | None
    from_tool: bool = False


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as ChatML text (see the module docstring): the text and what
    it could not carry."""
    ctx = render_context(FORMAT_ID, LABEL, faithful=NS.hint(conversation.extra, "shape") == "text")
    turns: list[_Turn] = []
    placed = False
    thread = one_thread(
        conversation,
        ctx,
        holds="ChatML is one thread",
        original=lambda message: extract_text(message) or message.role,
    )
    for index, message in thread:
        turn = _turn(message, index, ctx)
        if NS.hint(message.extra, "tools") is not None and not placed:
            gap = NS.hint(message.extra, "tools")
            turn.content += str(gap) + tools_section(conversation.tools)
            placed = True
        if turn.from_tool and turns and turns[-1].from_tool and turns[-1].end == "\n":
            _merge(turns[-1], turn, index, ctx)
        else:
            turns.append(turn)
    if conversation.tools and not placed:
        _place_tools(conversation, turns, ctx)
    _report_request_fields(conversation, ctx)
    prefix = NS.hint(conversation.extra, "prefix", "")
    prompt = NS.hint(conversation.extra, "generation_prompt")
    text = str(prefix) + "".join(turn_text(t.header, t.content, t.end) for t in turns)
    if isinstance(prompt, str):
        text += START + prompt
    return Rendered(text, ctx.drift.warnings)


def _turn(message: Message, index: int, ctx: RenderContext) -> _Turn:
    path = f"messages[{index}]"
    _report_message_fields(message, path, ctx)
    role: str = message.role
    if role == "developer" and not ctx.faithful:
        why = "ChatML templates have no developer role; written as a system turn"
        report_developer(path, ctx.drift, why, severity="info")
        role = "system"
    from_tool = role == "tool" and not ctx.faithful
    if from_tool:
        role = "user"  # the Qwen templates answer calls in user turns of <tool_response>
    loose = None if ctx.faithful else _loose_result(message)
    content = (
        render_content(message, role, path, ctx)
        if loose is None
        else render_result(loose, path, ctx, f"{path}.tool_call_id")  # blocks keep their paths
    )
    end = None if NS.hint(message.extra, "open") else NS.hint(message.extra, "end", "\n")
    return _Turn(header_text(role, _name(message, path, ctx)), content, end, from_tool)


def _loose_result(message: Message) -> ToolResultBlock | None:
    """A tool message holding its result as plain blocks (UMF's InternalMessage shape),
    as one result block; None for any other message."""
    if message.role != "tool" or any(b.type == "tool_result" for b in message.content):
        return None
    return ToolResultBlock(tool_use_id=message.tool_call_id or "", content=list(message.content))


def _name(message: Message, path: str, ctx: RenderContext) -> str | None:
    """The author name for the header. A converted tool message's name is its tool's,
    which ``<tool_response>`` does not need (results pair with calls by order)."""
    name = message.name
    if name is None or (message.role == "tool" and not ctx.faithful):
        return None
    if valid_name(name):
        return name
    why = "this author name does not fit a ChatML header; left out"
    report_field_dropped(path, "name", name, ctx.drift, why, severity="warning")
    return None


def _merge(into: _Turn, turn: _Turn, index: int, ctx: RenderContext) -> None:
    into.content += "\n" + turn.content
    ctx.drift.add(
        "role-merged",
        "consecutive tool results share one user turn of <tool_response> blocks",
        field=f"messages[{index}]",
        original="tool",
        transformed="user",
        severity="info",
    )


def _place_tools(conversation: Conversation, turns: list[_Turn], ctx: RenderContext) -> None:
    """Tool definitions as the system turn's tools section (a new system turn first when
    the conversation has none)."""
    section = tools_section(conversation.tools)
    first = turns[0] if turns else None
    if first is not None and first.header.split(" ")[0] == "system":
        first.content += ("\n\n" if first.content else "") + section
    else:
        turns.insert(0, _Turn("system", section, "\n"))
    ctx.drift.add(
        "content-type-unsupported",
        "ChatML has no tool definitions; they are written into the system turn as text",
        field="tools",
        original=[tool.name for tool in conversation.tools],
        transformed="system text",
        severity="info",
    )


def _report_message_fields(message: Message, path: str, ctx: RenderContext) -> None:
    warn_foreign_extra(message.extra, path, ctx)
    if ctx.faithful:
        return
    present = {name for name in _METADATA if getattr(message, name) not in (None, {})}
    dropped: dict[str, Any] = message.model_dump(mode="json", include=present, exclude_none=True)
    if dropped:
        ctx.drift.add(
            "content-dropped",
            "ChatML text has no ids, models, timestamps, usage, finish reasons or metadata",
            field=path,
            original=dropped,
            severity="info",
        )


def _report_request_fields(conversation: Conversation, ctx: RenderContext) -> None:
    parameters = conversation.parameters.model_dump(exclude_defaults=True)
    report_parameters_dropped(parameters, ctx.drift, "ChatML text has no request parameters")
    if conversation.tool_choice is not None:
        ctx.drift.add(
            "tool-unsupported",
            "ChatML text has no tool_choice",
            field="tool_choice",
            original=conversation.tool_choice.name or conversation.tool_choice.type,
        )
    warn_foreign_extra(conversation.extra, "", ctx)
    for index, tool in enumerate(conversation.tools):
        warn_foreign_extra(tool.extra, f"tools[{index}]", ctx)
    if conversation.tool_choice is not None:
        warn_foreign_extra(conversation.tool_choice.extra, "tool_choice", ctx)
