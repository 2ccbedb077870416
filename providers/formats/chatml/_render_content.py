"""UMF blocks -> a turn's content, with a drift warning for what text cannot carry.

Text, reasoning (``<think>``), tool calls (``<tool_call>`` JSON) and tool results
(``<tool_response>``) are written as the templates write them. What is lost: signatures
and encrypted reasoning (``signature-stripped``; redacted reasoning, which has no text, is
``reasoning-dropped``), tool-call ids (``id-rewritten`` with no new value: calls and results
pair by order), the error flag of a result (said in the text: ``capability-unsupported``),
images, audio and non-text documents (``content-dropped``), citations
(``content-dropped``); refusals and plain-text documents become text
(``content-type-unsupported``), and so do turn delimiters inside content (escaped).

Tools (the ``# Tools`` section of the system turn, ``<tool_call>`` JSON) are written as the
source's own text (its ``$raw`` hint) while reading it still gives the same UMF value, else
as the template writes them (see :mod:`._parse_content`).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    error_said_in_content,
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_reasoning_details,
)
from providers.formats._kit.ids import report_rewritten
from providers.formats._kit.wire import (
    document_text,
    parse_arguments,
    report_call_not_made,
    report_signature_not_written,
    tool_definition,
)
from providers.formats.chatml._constants import NS, TOOLS_HEAD, TOOLS_TAIL
from providers.formats.chatml._parse_content import block_kind, call_from_json, tool_from_line
from providers.formats.chatml._rules import (
    canonical_gap,
    escape_delimiters,
    template_json,
    warn_foreign_extra,
)
from providers.umf import (
    Block,
    DocumentBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)


def render_content(message: Message, role: str, path: str, ctx: RenderContext) -> str:
    """The content of the turn for ``message`` (written as ``role``)."""
    elements: list[tuple[str, str, Block | None]] = []
    if message.reasoning and role == "assistant" and not _has_thinking(message):
        elements.append(("think", _tag("think", message.reasoning, None), None))
    elif message.reasoning:
        _drop_reasoning(path + ".reasoning", message.reasoning, ctx)
    why = "ChatML has no structured reasoning details; left out"
    report_reasoning_details(message, path, ctx.drift, why)
    for position, block in enumerate(message.content):
        text = render_block(block, role, f"{path}.content[{position}]", ctx)
        if text is not None:
            elements.append((block_kind(block), text, block))
    return _assemble(elements, message, path, ctx)


def _has_thinking(message: Message) -> bool:
    return any(isinstance(block, ThinkingBlock) and block.text for block in message.content)


def _assemble(
    elements: list[tuple[str, str, Block | None]], message: Message, path: str, ctx: RenderContext
) -> str:
    out: list[str] = []
    previous: str | None = None
    texts = 0
    for kind, text, block in elements:
        gap = NS.hint(block.extra, "before") if block is not None else None
        out.append((gap if isinstance(gap, str) else canonical_gap(previous)) + text)
        texts += kind == "text" and previous == "text"
        previous = kind
    if texts and not ctx.faithful:
        ctx.drift.add(
            "content-type-unsupported",
            f"ChatML content is one text; {texts + 1} adjacent text blocks were joined "
            "with newlines",
            field=f"{path}.content",
            original=texts + 1,
            transformed="text",
            severity="info",
        )
    after = NS.hint(message.extra, "after", "")
    return "".join(out) + (after if isinstance(after, str) else "")


def render_block(block: Block, role: str, path: str, ctx: RenderContext) -> str | None:
    """One block as text, or None when text cannot carry it (a warning says so)."""
    warn_foreign_extra(block.extra, path, ctx)
    if isinstance(block, TextBlock):
        if block.citations:
            why = "ChatML has no citations; the text is written without them"
            report_citations_dropped(block, path, ctx.drift, why)
        return _escaped(block.text, path, ctx)
    if isinstance(block, RefusalBlock):
        report_block_as_text(block, path, ctx.drift, "ChatML has no refusals; sent as text")
        return _escaped(block.text, path, ctx)
    if isinstance(block, ThinkingBlock):
        return _thinking(block, role, path, ctx)
    if isinstance(block, ToolUseBlock):
        return _call(block, role, path, ctx)
    if isinstance(block, ToolResultBlock):
        return render_result(block, path, ctx)
    return _media(block, path, ctx)


def _escaped(text: str, path: str, ctx: RenderContext) -> str:
    escaped = escape_delimiters(text)
    if escaped != text:
        ctx.drift.add(
            "content-type-unsupported",
            "the text holds ChatML turn delimiters; they were made inert",
            field=path,
            original=text,
            transformed=escaped,
        )
    return escaped


def _tag(name: str, inner: str, block: Block | None) -> str:
    pad = NS.hint(block.extra, "pad") if block is not None else None
    lead, trail = pad if isinstance(pad, list) and len(pad) == 2 else ("\n", "\n")
    return f"<{name}>{lead}{inner}{trail}</{name}>"


def _thinking(block: ThinkingBlock, role: str, path: str, ctx: RenderContext) -> str | None:
    if ctx.faithful:
        return _tag("think", block.text, block)
    if role != "assistant" or block.redacted or not block.text:
        if block.text or block.redacted or block.data:
            _drop_reasoning(path, block.text or None, ctx, redacted=block.redacted)
        return None
    if block.signature is not None or block.data is not None:
        why = "ChatML reasoning is plain <think> text; its signature is not written"
        report_signature_not_written(block, path, ctx.drift, why, written_as="<think>")
    return _tag("think", _escaped(block.text, path, ctx), block)


def _drop_reasoning(
    path: str, text: str | None, ctx: RenderContext, *, redacted: bool = False
) -> None:
    why = "redacted reasoning has no text to write" if redacted else "only assistant turns think"
    ctx.drift.add("reasoning-dropped", f"{why}; left out", field=path, original=text)


def _call(block: ToolUseBlock, role: str, path: str, ctx: RenderContext) -> str | None:
    if not ctx.faithful and role != "assistant":
        report_call_not_made(
            block, path, ctx.drift, f"a {role} turn cannot make tool calls; left out"
        )
        return None
    drop_id(block.id, f"{path}.id", ctx)
    return _tag("tool_call", escape_delimiters(call_json(block)), block)


def drop_id(value: str, path: str, ctx: RenderContext) -> None:
    """Warn that a tool id is not written (calls and results pair by order)."""
    if value and not ctx.faithful:
        report_rewritten(
            ctx.drift,
            "ChatML pairs tool results with calls by order; the id is not written",
            path,
            value,
            None,
        )


def render_result(
    block: ToolResultBlock, path: str, ctx: RenderContext, id_path: str | None = None
) -> str:
    """A tool result as ``<tool_response>`` (or bare, in a tool turn this format read);
    ``id_path`` names where its id was when that is not the block's ``tool_use_id``."""
    drop_id(block.tool_use_id, id_path or f"{path}.tool_use_id", ctx)
    text = result_text(block, path, ctx)
    if block.is_error:
        text = error_said_in_content(text, path, ctx.drift, "ChatML tool results")
    if NS.hint(block.extra, "bare") and ctx.faithful:
        return text
    return _tag("tool_response", text, block)


def result_text(block: ToolResultBlock, path: str, ctx: RenderContext) -> str:
    """A result's content as text: text blocks joined, what text cannot hold dropped."""
    if isinstance(block.content, str):
        return _escaped(block.content, path, ctx)
    texts: list[str] = []
    for position, inner in enumerate(block.content):
        inner_path = f"{path}.content[{position}]"
        if isinstance(inner, ThinkingBlock | ToolUseBlock | ToolResultBlock):
            ctx.drift.add(
                "content-dropped",
                f"a tool result written as text cannot hold a {inner.type} block; left out",
                field=inner_path,
                original=inner.type,
            )
            continue
        text = render_block(inner, "tool", inner_path, ctx)
        if text is not None:
            texts.append(text)
    return "\n".join(texts)


def _media(block: Block, path: str, ctx: RenderContext) -> str | None:
    """Documents, images and audio: a plain-text document is written as text."""
    text = document_text(block) if isinstance(block, DocumentBlock) else None
    if text is not None:
        report_block_as_text(
            block,
            path,
            ctx.drift,
            "ChatML has no documents; this plain-text one is written as text",
        )
        return _escaped(text, path, ctx)
    report_block_dropped(block, path, ctx.drift, f"ChatML text cannot carry {block.type}; left out")
    return None


def tool_line(tool: Tool) -> str:
    """One line of the ``<tools>`` listing: the source's own text while it still says the
    same thing, else the template's."""
    raw = NS.hint(tool.extra, "raw")
    if isinstance(raw, str):
        again = tool_from_line(raw)
        if again is not None and _same(again, tool, "name", "description", "parameters"):
            return raw
    function = tool_definition(tool)
    function.update(NS.fields(tool.extra))
    outer = NS.hint(tool.extra, "outer", {"type": "function"})
    if outer is None and "$outer" in tool.extra.get(NS.format_id, {}):
        return template_json(function)  # the source listed the bare function
    return template_json({**(outer or {}), "function": function})


def _same(one: Tool | ToolUseBlock, other: Tool | ToolUseBlock, *names: str) -> bool:
    """Whether the source's own text, read again as ``one``, still says ``other``: the same
    ``names`` and the same fields of this format."""
    read = attrgetter(*names)
    return read(one) == read(other) and NS.fields(one.extra) == NS.fields(other.extra)


def tools_section(tools: list[Tool]) -> str:
    """The section the templates append to the system turn."""
    return TOOLS_HEAD + "".join(f"\n{tool_line(tool)}" for tool in tools) + TOOLS_TAIL


def call_json(block: ToolUseBlock) -> str:
    """The JSON body of a ``<tool_call>``: the source's own text while it still says the
    same thing, else the template's ``{"name": ..., "arguments": ...}``."""
    raw = NS.hint(block.extra, "raw")
    if isinstance(raw, str):
        again = call_from_json(raw, block.id)
        if again is not None and _same(again, block, "name", "input", "raw_arguments"):
            return raw
    body: dict[str, Any] = {"name": block.name}
    style = NS.hint(block.extra, "arguments")
    if style == "string" and block.raw_arguments is not None:
        body["arguments"] = block.raw_arguments
    elif style != "absent":
        body["arguments"] = _arguments(block)
    body.update(NS.fields(block.extra))
    return template_json(body)


def _arguments(block: ToolUseBlock) -> Any:
    """The arguments as an object when the argument string says the same, else the string
    itself (text can carry even arguments that are not valid JSON)."""
    if block.raw_arguments is None:
        return block.input
    decoded, ok = parse_arguments(block.raw_arguments)
    return block.input if ok and decoded == block.input else block.raw_arguments
