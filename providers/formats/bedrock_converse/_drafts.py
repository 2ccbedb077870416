"""UMF messages -> draft Bedrock messages (one per UMF message) and the ``system`` blocks.

Drafts keep the UMF path of every block so that the structural rules applied afterwards
(``_sequence``) can name what they changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import dump_arguments, hint, own_extra
from providers.formats.bedrock_converse._constants import FORMAT_ID
from providers.formats.bedrock_converse._context import (
    Context,
    Part,
    drop_blank_text,
    text_part,
    warn_foreign_extra,
)
from providers.formats.bedrock_converse._render_blocks import render_block, render_blocks
from providers.umf import Message, ToolResultBlock

_ROLES = {"user": "user", "assistant": "assistant", "tool": "user"}
_MEDIA = ("image", "document", "audio", "video")


@dataclass
class Draft:
    """One Bedrock message in the making."""

    role: str
    parts: list[Part]
    path: str
    source_role: str
    extra: dict[str, Any] = field(default_factory=dict)
    # Made up by the renderer (moved media, a bridge turn, missing tool results).
    synthetic: bool = False

    def payload(self) -> dict[str, Any]:
        """The message as sent."""
        return {"role": self.role, "content": [part.body for part in self.parts], **self.extra}


def build_drafts(
    messages: list[tuple[int, Message]], ctx: Context, *, system_in_place: bool
) -> tuple[list[Draft], list[Part]]:
    """Drafts for the thread, and the ``system`` blocks taken out of it. System and developer
    messages go to the top-level ``system`` unless they were Bedrock in-conversation system
    messages (or ``system_in_place``: a bare message list has no top-level ``system``)."""
    drafts: list[Draft] = []
    system: list[Part] = []
    for index, message in messages:
        path = f"messages[{index}]"
        _warn_message_fields(message, path, ctx)
        stays = ctx.faithful and (system_in_place or hint(message.extra, FORMAT_ID, "system"))
        if message.role in ("system", "developer") and not stays:
            system.extend(_system_parts(message, path, not drafts, ctx))
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
    if hint(message.extra, FORMAT_ID, "response"):
        # A response's own members (stopReason, usage...) do not belong in a request message.
        extra = hint(message.extra, FORMAT_ID, "message_fields", {})
    else:
        extra = own_extra(message.extra, FORMAT_ID)
    role = _ROLES.get(message.role, message.role)
    return Draft(role, parts, path, message.role, extra)


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


def _system_parts(message: Message, path: str, leading: bool, ctx: Context) -> list[Part]:
    """A system or developer message as top-level ``system`` blocks (text only)."""
    parts = render_blocks(message.content, path, message.extra, ctx)
    if ctx.faithful:
        return parts
    if message.role == "developer" or not leading:
        ctx.drift.add(
            "system-message-transformed",
            "moved to Bedrock's top-level system prompt"
            if leading
            else "a system message inside the conversation moved to the top-level system prompt",
            field=path,
            original=message.role,
            transformed="system",
            severity="info" if leading else "warning",
        )
    kept = []
    for part in parts:
        if part.member == "text":
            kept.append(part)
        else:
            ctx.drift.add(
                "content-dropped",
                "Bedrock's system prompt holds text only; left out",
                field=part.path,
                original=part.member,
            )
    return drop_blank_text(kept, ctx)


def _move_media(draft: Draft, ctx: Context) -> Draft | None:
    """Images, documents and audio of an assistant turn, moved to a user turn right after it
    (Bedrock takes media from the user only)."""
    media = [part for part in draft.parts if part.member in _MEDIA]
    if not media:
        return None
    moved = {id(part) for part in media}
    draft.parts = [part for part in draft.parts if id(part) not in moved]
    for part in media:
        part.moved = True
        ctx.drift.add(
            "message-reordered",
            "Bedrock takes images, documents and audio from the user only; moved to the next "
            "user turn",
            field=part.path,
            original="assistant",
            transformed="user",
        )
    return Draft("user", media, draft.path, "assistant", synthetic=True)


def _warn_message_fields(message: Message, path: str, ctx: Context) -> None:
    """Message fields Bedrock has no place for."""
    if message.reasoning:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning text outside thinking blocks cannot be sent to Bedrock; left out",
            field=f"{path}.reasoning",
            original=message.reasoning,
        )
    if message.reasoning_details:
        ctx.drift.add(
            "reasoning-dropped",
            "reasoning details of another provider cannot be sent to Bedrock; left out",
            field=f"{path}.reasoning_details",
            original=message.reasoning_details,
        )
    if message.name and message.role != "tool":
        ctx.drift.add(
            "content-dropped",
            "Bedrock messages have no author name; left out",
            field=f"{path}.name",
            original=message.name,
        )
    warn_foreign_extra(message.extra, path, ctx)


def _fix_misplaced_tool_blocks(draft: Draft, ctx: Context) -> None:
    """Calls only in assistant turns, results only in user turns; the others become text."""
    misplaced = "toolResult" if draft.role == "assistant" else "toolUse"
    fixed: list[Part] = []
    for part in draft.parts:
        if part.member != misplaced:
            fixed.append(part)
        elif misplaced == "toolResult":
            fixed.extend(result_as_text(part, ctx))
        else:
            fixed.append(_call_as_text(part, ctx))
    draft.parts = fixed


def _call_as_text(part: Part, ctx: Context) -> Part:
    call = part.value
    ctx.drift.add(
        "content-type-unsupported",
        "Bedrock takes tool calls from the assistant only; sent as text",
        field=part.path,
        original="tool_use",
        transformed="text",
    )
    arguments = dump_arguments(call.get("input", {}))
    return text_part(f"[tool call {call['toolUseId']}] {call['name']}({arguments})", part.path)


def result_as_text(part: Part, ctx: Context) -> list[Part]:
    """A tool result that cannot be paired with a call of the turn before, as a text block
    (followed by its images and documents)."""
    result = part.value
    error = " (error)" if result.get("status") == "error" else ""
    label = f"[tool result {result['toolUseId']}{error}]"
    blocks = result.get("content") or []
    texts = [b["text"] for b in blocks if "text" in b]
    texts += [dump_arguments(b["json"]) for b in blocks if "json" in b]
    ctx.drift.add(
        "content-type-unsupported",
        "a tool result that answers no call of the turn before was sent as text",
        field=part.path,
        original="tool_result",
        transformed="text",
    )
    media = [Part(b, part.path) for b in blocks if "text" not in b and "json" not in b]
    return [text_part("\n".join([label, *texts]), part.path), *media]
