"""UMF blocks -> Anthropic content blocks, with a drift warning for each lossy step.

``faithful`` is set when the conversation was read from this format: blocks then come back
exactly as they were read. Otherwise each block is converted to what the API accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import methodcaller
from typing import Any

from providers.formats._content_blocks.blocks import (
    block_list_renderer,
    nested_renderer,
    refusal_renderer,
    thinking_renderer,
)
from providers.formats._content_blocks.drafts import Dialect, Part, drop_blank_text
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_citations_dropped, report_foreign_extra
from providers.formats._kit.extra import Namespace, hint, own_extra
from providers.formats._kit.wire import (
    arguments_object,
)
from providers.formats.anthropic._constants import (
    BRIDGE_USER_TEXT,
    FORMAT_ID,
    MISSING_RESULT_TEXT,
    TOOL_ID_PATTERN,
    UNMAPPED_BLOCKS,
)
from providers.formats.anthropic._render_media import render_audio, render_document, render_image
from providers.umf import (
    JSON,
    Block,
    Extra,
    Message,
    ToolResultBlock,
)


def provider_fields(extra: Extra) -> dict[str, Any]:
    """This format's fields kept on a value (not its hints, not its unmapped blocks)."""
    return {k: v for k, v in own_extra(extra, FORMAT_ID).items() if k != UNMAPPED_BLOCKS}


def render_block(block: Block, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """One block, or None when Anthropic cannot take it (a warning says so)."""
    body = RENDERERS[block.type](block, path, ctx)
    if block.extra:  # most blocks carry no extra: nothing to put back or report
        if body is not None:
            body.update(provider_fields(block.extra))
        report_foreign_extra(block.extra, path, ctx)
    return body


def _text(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "text", "text": block.text}
    if block.citations is not None:
        if ctx.faithful:
            body["citations"] = block.citations
        else:
            why = "citations of another provider cannot be sent to Anthropic"
            report_citations_dropped(block, path, ctx.drift, why)
    return body


def _tool_use(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    arguments = block.input if ctx.faithful else arguments_object(block, path, ctx.drift)
    return {"type": "tool_use", "id": block.id, "name": block.name, "input": arguments}


def _tool_result(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "tool_result", "tool_use_id": block.tool_use_id}
    content = _result_content(block, path, ctx)
    if content is not None:
        body["content"] = content
    if block.is_error is not None:
        body["is_error"] = block.is_error
    return body


def _result_content(block: ToolResultBlock, path: str, ctx: RenderContext) -> JSON:
    if isinstance(block.content, str):
        absent = hint(block.extra, FORMAT_ID, "content") == "absent"
        return None if block.content == "" and (absent or not ctx.faithful) else block.content
    parts = _render_result_blocks(block.content, path, block.extra, ctx)
    if not ctx.faithful:
        parts = drop_blank_text(parts, ctx.drift, DIALECT)
        if not parts:
            return None
    return [part.body for part in parts]


def _signed(text: str, signature: str | None) -> dict[str, Any]:
    body = {"type": "thinking", "thinking": text}
    if signature is not None:
        body["signature"] = signature
    return body


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, RenderContext], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": refusal_renderer("Anthropic", lambda text: {"type": "text", "text": text}),
    "image": render_image,
    "document": render_document,
    "audio": render_audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": thinking_renderer(
        FORMAT_ID,
        "Anthropic",
        redacted=lambda data: {"type": "redacted_thinking", "data": data},
        reasoning=_signed,
        needs_signature=True,
        unsendable="Anthropic refuses thinking without its signature",
    ),
}


# ``body.get("type")``, called in C: asked of every block rendered.
_kind: Callable[[dict[str, Any]], Any] = methodcaller("get", "type")


render_blocks = block_list_renderer(FORMAT_ID, UNMAPPED_BLOCKS, render_block, _kind)
_render_result_blocks = block_list_renderer(
    FORMAT_ID,
    UNMAPPED_BLOCKS,
    # A block inside a tool result: text, images and documents only.
    nested_renderer(
        render_block,
        refused=("tool_use", "tool_result", "thinking"),
        where="an Anthropic tool result",
    ),
    _kind,
)


def new_context(*, faithful: bool) -> RenderContext:
    """A fresh render context for this format."""
    return RenderContext.create(NAMESPACE, "Anthropic", faithful=faithful)


# The keys of a plain text block (a constant: a set literal is built at every test).
_TEXT_KEYS = frozenset({"type", "text"})


def content_payload(parts: list[Part], content_hint: str | None) -> JSON:
    """Blocks, or their text when ``content_hint`` allows a bare string: when the content
    was a string, or when a message from another format holds a single plain text block."""
    bodies = [part.body for part in parts]
    if content_hint != "blocks" and len(bodies) == 1:
        single = bodies[0]
        if single.keys() == _TEXT_KEYS and single["type"] == "text":
            return single["text"]
    return bodies


def _result_text(result: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    label = f"[tool result {result['tool_use_id']}{' (error)' if result.get('is_error') else ''}]"
    content = result.get("content") or ""
    blocks = content if isinstance(content, list) else []
    texts = [b["text"] for b in blocks if b.get("type") == "text"]
    text = "\n".join([label, *([content] if isinstance(content, str) else texts)])
    return text, [b for b in blocks if b.get("type") != "text"]


def _message_fields(message: Message) -> dict[str, Any]:
    # A response's own fields (stop_reason, usage...) do not belong in a request message.
    return {} if hint(message.extra, FORMAT_ID, "response") else provider_fields(message.extra)


NAMESPACE = Namespace(FORMAT_ID)

DIALECT: Dialect[RenderContext] = Dialect(
    name="Anthropic",
    turn="Anthropic messages",
    roles={
        "user": "user",
        "assistant": "assistant",
        "tool": "user",
        "system": "system",
        "developer": "system",
    },
    kind=_kind,
    nested=False,
    call_kind="tool_use",
    result_kind="tool_result",
    call_id="id",
    result_id="tool_use_id",
    media_kinds=("image", "document"),
    media_note=(
        "Anthropic takes images and documents from the user only; moved to the next user turn"
    ),
    text_body=lambda text: {"type": "text", "text": text},
    result_text=_result_text,
    content=content_payload,
    blank_note="Anthropic refuses empty text blocks; left out",
    render_blocks=render_blocks,
    render_block=render_block,
    message_fields=_message_fields,
    content_hint=lambda message: hint(message.extra, FORMAT_ID, "content"),
    id_pattern=TOOL_ID_PATTERN,
    make_id=lambda digest: f"toolu_{digest[:24]}",
    merge_note="Anthropic takes one message per turn; merged with the message before",
    bridge_text=BRIDGE_USER_TEXT,
    reorder_note=(
        "Anthropic wants tool results first in the user turn; moved before the other content"
    ),
    missing_result=lambda call_id: {
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": MISSING_RESULT_TEXT,
        "is_error": True,
    },
)
