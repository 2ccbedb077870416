"""UMF messages -> draft Anthropic messages (one per UMF message) and the system prompt.

Drafts keep the UMF path of every block so that the structural rules applied afterwards
(``_normalize``) can name what they changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import dump_arguments, hint
from providers.formats.anthropic._constants import FORMAT_ID
from providers.formats.anthropic._render_blocks import (
    Context,
    Part,
    drop_blank_text,
    provider_fields,
    render_block,
    render_blocks,
    warn_foreign_extra,
)
from providers.umf import JSON, Message, ToolResultBlock

# UMF role -> Anthropic role (tool results travel in user turns).
_ROLES = {
    "user": "user",
    "assistant": "assistant",
    "tool": "user",
    "system": "system",
    "developer": "system",
}


@dataclass
class Draft:
    """One Anthropic message in the making."""

    role: str
    parts: list[Part]
    path: str
    source_role: str
    content_hint: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # Made up by the renderer (moved media, a bridge turn, missing tool results).
    synthetic: bool = False

    def payload(self) -> dict[str, Any]:
        """The message as sent: string content when it was a string, or when a message from
        another format holds a single plain text block."""
        return {
            "role": self.role,
            "content": content_payload(self.parts, self.content_hint),
            **self.extra,
        }


def content_payload(parts: list[Part], content_hint: str | None) -> JSON:
    """Blocks, or their text when ``content_hint`` allows a bare string."""
    bodies = [part.body for part in parts]
    single = bodies[0] if len(bodies) == 1 else {}
    if content_hint != "blocks" and single.keys() == {"type", "text"} and single["type"] == "text":
        return single["text"]
    return bodies


@dataclass
class SystemSource:
    """A UMF message that becomes (part of) the top-level ``system``."""

    parts: list[Part]
    content_hint: str | None


def build_drafts(
    messages: list[tuple[int, Message]], ctx: Context, *, system_in_place: bool
) -> tuple[list[Draft], list[SystemSource]]:
    """Drafts for the thread, and the system prompt taken out of it. System and developer
    messages go to the top-level prompt unless they were Anthropic ``system`` messages (or
    ``system_in_place``: a bare message list has no top-level prompt)."""
    drafts: list[Draft] = []
    system: list[SystemSource] = []
    for index, message in messages:
        path = f"messages[{index}]"
        _warn_message_fields(message, path, ctx)
        stays = system_in_place or (
            ctx.faithful and hint(message.extra, FORMAT_ID, "system") == "message"
        )
        if message.role in ("system", "developer") and not stays:
            system.append(_system_source(message, path, not drafts, ctx))
            continue
        draft = _draft(message, path, ctx)
        drafts.append(draft)
        if not ctx.faithful:
            _fix_misplaced_tool_blocks(draft, ctx)
        if not ctx.faithful and draft.role == "assistant":
            moved = _move_media(draft, ctx)
            if moved is not None:
                drafts.append(moved)
    return drafts, system


def _draft(message: Message, path: str, ctx: Context) -> Draft:
    if message.role == "tool":
        parts = _tool_message_parts(message, path, ctx)
    else:
        parts = render_blocks(message.content, path, message.extra, ctx)
    # A response's own fields (stop_reason, usage...) do not belong in a request message.
    extra = {} if hint(message.extra, FORMAT_ID, "response") else provider_fields(message.extra)
    content_hint = hint(message.extra, FORMAT_ID, "content")
    return Draft(_ROLES[message.role], parts, path, message.role, content_hint, extra)


def _tool_message_parts(message: Message, path: str, ctx: Context) -> list[Part]:
    """A tool-role message's content as user content: its tool results, or its content
    wrapped as the result of ``tool_call_id``."""
    has_result = any(isinstance(block, ToolResultBlock) for block in message.content)
    if has_result or message.tool_call_id is None:
        if not has_result:
            ctx.drift.add(
                "content-type-unsupported",
                "a tool message that answers no call id is sent as user content",
                field=path,
                original="tool",
                transformed="user",
            )
        return render_blocks(message.content, path, message.extra, ctx)
    wrapped = ToolResultBlock(
        tool_use_id=message.tool_call_id, content=list(message.content), name=message.name
    )
    body = render_block(wrapped, path, ctx)
    return [Part(body, path)] if body is not None else []


def _system_source(message: Message, path: str, leading: bool, ctx: Context) -> SystemSource:
    if message.role == "developer" or not leading:
        ctx.drift.add(
            "system-message-transformed",
            "moved to Anthropic's top-level system prompt"
            if leading
            else "a system message inside the conversation moved to the top-level system prompt",
            field=path,
            original=message.role,
            transformed="system",
            severity="info" if leading else "warning",
        )
    parts = render_blocks(message.content, path, message.extra, ctx)
    kept = []
    for part in parts:
        if part.body.get("type") == "text":
            kept.append(part)
        else:
            ctx.drift.add(
                "content-dropped",
                "Anthropic's system prompt holds text only; left out",
                field=part.path,
                original=part.body.get("type"),
            )
    if not ctx.faithful:
        kept = drop_blank_text(kept, ctx)
    return SystemSource(kept, hint(message.extra, FORMAT_ID, "content"))


def system_payload(sources: list[SystemSource], ctx: Context) -> JSON:
    """The top-level ``system`` value, or None to leave it out."""
    parts = [part for source in sources for part in source.parts]
    if not sources or (not parts and not ctx.faithful):
        return None
    content_hint = sources[0].content_hint if len(sources) == 1 else "blocks"
    return content_payload(parts, content_hint)


def _move_media(draft: Draft, ctx: Context) -> Draft | None:
    """Images and documents of an assistant turn, moved to a user turn right after it."""
    media = [part for part in draft.parts if part.body.get("type") in ("image", "document")]
    if not media:
        return None
    moved = {id(part) for part in media}
    draft.parts = [part for part in draft.parts if id(part) not in moved]
    for part in media:
        part.moved = True
        ctx.drift.add(
            "message-reordered",
            "Anthropic takes images and documents from the user only; moved to the next user turn",
            field=part.path,
            original="assistant",
            transformed="user",
        )
    return Draft("user", media, draft.path, "assistant", "blocks", synthetic=True)


def _warn_message_fields(message: Message, path: str, ctx: Context) -> None:
    """Message fields Anthropic has no place for."""
    if message.reasoning:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning text outside thinking blocks cannot be sent to Anthropic; left out",
            field=f"{path}.reasoning",
            original=message.reasoning,
        )
    if message.reasoning_details:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning details of another provider cannot be sent to Anthropic; left out",
            field=f"{path}.reasoning_details",
            original=message.reasoning_details,
        )
    if message.name and message.role != "tool":
        ctx.drift.add(
            "content-dropped",
            "Anthropic messages have no author name; left out",
            field=f"{path}.name",
            original=message.name,
        )
    warn_foreign_extra(message.extra, path, ctx)


def _fix_misplaced_tool_blocks(draft: Draft, ctx: Context) -> None:
    """Calls only in assistant turns, results only in user turns; the others become text."""
    misplaced = "tool_result" if draft.role == "assistant" else "tool_use"
    fixed: list[Part] = []
    for part in draft.parts:
        if part.body.get("type") != misplaced:
            fixed.append(part)
        elif misplaced == "tool_result":
            fixed.extend(result_as_text(part, ctx))
        else:
            fixed.append(_call_as_text(part, ctx))
    draft.parts = fixed


def _call_as_text(part: Part, ctx: Context) -> Part:
    body = part.body
    ctx.drift.add(
        "content-type-unsupported",
        "Anthropic takes tool calls from the assistant only; sent as text",
        field=part.path,
        original="tool_use",
        transformed="text",
    )
    arguments = dump_arguments(body.get("input", {}))
    return Part(
        {"type": "text", "text": f"[tool call {body['id']}] {body['name']}({arguments})"}, part.path
    )


def result_as_text(part: Part, ctx: Context) -> list[Part]:
    """A tool result that cannot be paired with a call of the turn before, as a text block
    (followed by its images and documents)."""
    body = part.body
    label = f"[tool result {body['tool_use_id']}{' (error)' if body.get('is_error') else ''}]"
    content = body.get("content") or ""
    blocks = content if isinstance(content, list) else []
    texts = [b["text"] for b in blocks if b.get("type") == "text"]
    text = "\n".join([label, *([content] if isinstance(content, str) else texts)])
    ctx.drift.add(
        "content-type-unsupported",
        "a tool result that answers no call of the turn before was sent as text",
        field=part.path,
        original="tool_result",
        transformed="text",
    )
    media = [Part(b, part.path) for b in blocks if b.get("type") != "text"]
    return [Part({"type": "text", "text": text}, part.path), *media]
