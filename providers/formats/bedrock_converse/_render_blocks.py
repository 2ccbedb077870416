"""UMF blocks -> Bedrock content blocks, with a drift warning for each lossy step.

Blocks read from this format come back as they were read (their ``$member``, ``$opaque``
and source hints); blocks from another format become what the API accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._content_blocks.blocks import (
    block_list_renderer,
    nested_renderer,
    refusal_renderer,
    thinking_renderer,
)
from providers.formats._content_blocks.drafts import (
    MISSING_RESULT_TEXT,
    Dialect,
    drop_blank_text,
    union_member,
)
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_citations_dropped, report_foreign_extra
from providers.formats._kit.extra import Namespace, hint, own_extra
from providers.formats._kit.wire import (
    arguments_object,
    dump_arguments,
    parse_arguments,
)
from providers.formats.bedrock_converse._constants import (
    EMPTY_RESULT_TEXT,
    FORMAT_ID,
    TOOL_ID_PATTERN,
)
from providers.formats.bedrock_converse._render_media import (
    render_audio,
    render_document,
    render_image,
)
from providers.umf import JSON, Block, Message, TextBlock, ToolResultBlock


def render_block(block: Block, path: str, ctx: RenderContext) -> dict[str, Any] | None:
    """One block as ``{member: value}``, or None when Bedrock cannot take it (warned). The
    block's own Bedrock fields go back into the member's object."""
    body = RENDERERS[block.type](block, path, ctx)
    if not block.extra:  # most blocks carry no extra: nothing to put back or report
        return body
    target = _extra_target(body) if body is not None else None
    if target is not None:
        target.update(own_extra(block.extra, FORMAT_ID))
    report_foreign_extra(block.extra, path, ctx)
    return body


def _extra_target(body: dict[str, Any]) -> dict[str, Any] | None:
    """The object a block's own fields were read from: the member's value, one level
    deeper for the unions inside a member (guarded text, reasoning text)."""
    member, inner = next(iter(body.items()))
    nested = {"guardContent": "text", "reasoningContent": "reasoningText"}.get(member)
    if nested is not None and isinstance(inner, dict):
        inner = inner.get(nested)
    return inner if isinstance(inner, dict) else None


def _text(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    member = hint(block.extra, FORMAT_ID, "member") if block.extra else None  # most: none
    if member == "json":
        decoded, ok = parse_arguments(block.text)
        return {"json": decoded} if ok else {"text": block.text}
    if member == "guardContent":
        return {"guardContent": {"text": {"text": block.text}}}
    if member == "citationsContent":
        return _citations_content(block)
    if block.citations is not None:
        why = "citations of another provider cannot be sent to Bedrock"
        report_citations_dropped(block, path, ctx.drift, why)
    return {"text": block.text}


def _citations_content(block: TextBlock) -> dict[str, Any]:
    parts = hint(block.extra, FORMAT_ID, "parts")
    body: dict[str, Any] = {}
    if parts is None:
        body["content"] = [{"text": block.text}]
    elif parts != "absent":
        body["content"] = parts
    if block.citations is not None:
        body["citations"] = block.citations
    return {"citationsContent": body}


def _tool_use(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    arguments = block.input if ctx.faithful else arguments_object(block, path, ctx.drift)
    return {"toolUse": {"toolUseId": block.id, "name": block.name, "input": arguments}}


def _tool_result(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {
        "toolUseId": block.tool_use_id,
        "content": _result_content(block, path, ctx),
    }
    if block.is_error is not None:
        body["status"] = "error" if block.is_error else "success"
    return {"toolResult": body}


def _result_content(block: ToolResultBlock, path: str, ctx: RenderContext) -> list[JSON]:
    content = block.content
    if isinstance(content, str):  # the common result: its text, unless blank
        if content.strip() or ctx.faithful:
            return [{"text": content}]
    else:
        parts = _render_result_blocks(content, path, block.extra, ctx)
        if ctx.faithful:
            return [part.body for part in parts]
        parts = drop_blank_text(parts, ctx.drift, DIALECT)
        if parts:
            return [part.body for part in parts]
    placeholder = [{"text": EMPTY_RESULT_TEXT}]
    ctx.drift.add(
        "parameter-defaulted",
        "Bedrock refuses a tool result without content; a placeholder text was sent",
        field=f"{path}.content",
        original=content if isinstance(content, str) else [],
        transformed=placeholder,
        severity="info",
    )
    return placeholder


def _reasoning_text(text: str, signature: str | None) -> dict[str, Any]:
    inner: dict[str, Any] = {"text": text}
    if signature is not None:
        inner["signature"] = signature
    return {"reasoningContent": {"reasoningText": inner}}


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, RenderContext], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": refusal_renderer("Bedrock", lambda text: {"text": text}),
    "image": render_image,
    "document": render_document,
    "audio": render_audio,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": thinking_renderer(
        FORMAT_ID,
        "Bedrock",
        redacted=lambda data: {"reasoningContent": {"redactedContent": data}},
        reasoning=_reasoning_text,
        needs_signature=False,
        unsendable="redacted reasoning without its data cannot be sent",
    ),
}

render_blocks = block_list_renderer(FORMAT_ID, "$opaque", render_block, union_member)
_render_result_blocks = block_list_renderer(
    FORMAT_ID,
    "$opaque",
    # A block inside a tool result: text (or json), images and documents only.
    nested_renderer(
        render_block,
        refused=("tool_use", "tool_result", "thinking", "audio"),
        where="a Bedrock tool result",
    ),
    union_member,
)


def new_context(*, faithful: bool) -> RenderContext:
    """A fresh render context for this format."""
    return RenderContext.create(NAMESPACE, "Bedrock Converse", faithful=faithful)


def _result_text(result: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    error = " (error)" if result.get("status") == "error" else ""
    label = f"[tool result {result['toolUseId']}{error}]"
    blocks = result.get("content") or []
    texts = [b["text"] for b in blocks if "text" in b]
    texts += [dump_arguments(b["json"]) for b in blocks if "json" in b]
    media = [b for b in blocks if "text" not in b and "json" not in b]
    return "\n".join([label, *texts]), media


def _message_fields(message: Message) -> dict[str, Any]:
    if hint(message.extra, FORMAT_ID, "response"):
        # A response's own members (stopReason, usage...) do not belong in a request message.
        return dict(hint(message.extra, FORMAT_ID, "message_fields", {}))
    return own_extra(message.extra, FORMAT_ID)


NAMESPACE = Namespace(FORMAT_ID)

DIALECT: Dialect[RenderContext] = Dialect(
    name="Bedrock",
    turn="Bedrock messages",
    roles={"user": "user", "assistant": "assistant", "tool": "user"},
    kind=union_member,
    nested=True,
    call_kind="toolUse",
    result_kind="toolResult",
    call_id="toolUseId",
    result_id="toolUseId",
    media_kinds=("image", "document", "audio", "video"),
    media_note=(
        "Bedrock takes images, documents and audio from the user only; moved to the next user turn"
    ),
    text_body=lambda text: {"text": text},
    result_text=_result_text,
    content=lambda parts, _hint: [part.body for part in parts],
    blank_note="Bedrock refuses blank text blocks; left out",
    render_blocks=render_blocks,
    render_block=render_block,
    message_fields=_message_fields,
    content_hint=lambda _message: None,
    id_pattern=TOOL_ID_PATTERN,
    make_id=lambda digest: f"tooluse_{digest[:24]}",
    merge_note=(
        "Bedrock conversations alternate user and assistant; merged with the message before"
    ),
    reorder_note="tool results come first in the user turn; moved before the other content",
    missing_result=lambda call_id: {
        "toolResult": {
            "toolUseId": call_id,
            "content": [{"text": MISSING_RESULT_TEXT}],
            "status": "error",
        }
    },
)
