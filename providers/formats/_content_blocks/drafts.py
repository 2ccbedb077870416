"""UMF messages -> draft turns of a content-block API (one per UMF message), each rendered
block keeping its UMF path so that the structural rules applied afterwards (:mod:`.rules`)
can name what they changed. The provider's words come from its :class:`Dialect`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, TypeVar

import msgspec

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_call_as_text,
    report_result_as_text,
    warn_message_fields,
)
from providers.formats._kit.wire import dump_arguments
from providers.formats.base import Drift
from providers.umf import JSON, Block, Extra, Message, ToolResultBlock

SYSTEM_ROLES = ("system", "developer")
# The user turn inserted when a converted conversation would start with the assistant.
BRIDGE_USER_TEXT = "(conversation continues)"
# The error result sent for a tool call that no recorded result answers.
MISSING_RESULT_TEXT = "No result was recorded for this tool call."
# An empty mapping nobody can change: the default of the draft fields most drafts leave
# empty.
NOTHING: Mapping[str, Any] = MappingProxyType({})


def union_member(body: dict[str, Any]) -> str:
    """The first key of a block body: the member a tagged union sets (``toolUse``), or ""
    for an empty body. (The rules ask it of every block several times: a loop that stops
    at once costs less than ``next(iter(body))``.)"""
    for member in body:
        return member
    return ""


# Parts and drafts are made for every block and message a render writes: msgspec Structs
# (slotted, built in C) cost a third of a slotted dataclass to make, whose ``__init__`` is
# Python code. Scratch values of one render, never encoded. Untracked by the cyclic
# collector (``gc=False``): they hold JSON values, strings and lists of parts, so no
# reference cycle can pass through them, and tracking each would cost a link when it is
# made and an unlink (touching its neighbours in memory) when it is freed.
class Part(msgspec.Struct, gc=False):
    """One rendered content block and the UMF path it came from. ``moved`` marks a block
    already reported as moved, so that later steps do not report it twice. ``kind`` is what
    the body says it is in the wire's words (:attr:`Dialect.kind` of the body, taken once
    when the part is made with :meth:`Dialect.part`: the rules ask it of every part several
    times, and no step changes what a block is)."""

    body: dict[str, Any]
    path: str
    moved: bool = False
    kind: Any = None

    @property
    def member(self) -> str:
        """The first key of the block: the member a tagged union sets (``toolUse``)."""
        return union_member(self.body)

    @property
    def value(self) -> Any:
        """The value of that member."""
        return self.body.get(self.member)


class Draft(msgspec.Struct, gc=False):
    """One message in the making. ``content_hint`` says how its content was written when
    read (``string`` or ``blocks``), for the APIs that take both."""

    role: str
    parts: list[Part]
    path: str
    source_role: str
    content_hint: str | None = None
    # Most drafts carry no field of their own: one shared, read-only mapping for them all
    # (a merge makes a new one), not an empty dict each.
    extra: Mapping[str, Any] = NOTHING
    # Made up by the renderer (moved media, a bridge turn, missing tool results).
    synthetic: bool = False


Ctx = TypeVar("Ctx", bound=RenderContext)


@dataclass(frozen=True)
class Dialect(Generic[Ctx]):
    """A content-block API in its own words: its name in warnings, its roles, how a block
    says its kind and where a call or result keeps its fields, and how it renders blocks."""

    name: str
    # Its messages, as warnings name them ("Anthropic messages").
    turn: str
    # UMF role -> wire role.
    roles: Mapping[str, str]
    # The kind a block body says it is, in the wire's words ("tool_use", "toolUse").
    kind: Callable[[dict[str, Any]], Any]
    # Whether a call's or a result's fields are in the body's one member (Bedrock's
    # ``{"toolUse": {...}}``) rather than in the body itself (Anthropic's): :meth:`inner`.
    nested: bool
    call_kind: str
    result_kind: str
    call_id: str
    result_id: str
    media_kinds: tuple[str, ...]
    media_note: str
    text_body: Callable[[str], dict[str, Any]]
    # A result's fields -> (its text, its other blocks), to send it as text.
    result_text: Callable[[dict[str, Any]], tuple[str, list[dict[str, Any]]]]
    # Parts and the content hint -> the message's ``content``.
    content: Callable[[list[Part], str | None], JSON]
    blank_note: str
    render_blocks: Callable[[list[Block], str, Extra, Ctx], list[Part]]
    render_block: Callable[[Block, str, Ctx], dict[str, Any] | None]
    # The message's own wire fields its draft carries.
    message_fields: Callable[[Message], dict[str, Any]]
    content_hint: Callable[[Message], str | None]
    # The structural rules' words (:mod:`.rules`).
    id_pattern: re.Pattern[str]
    make_id: Callable[[str], str]
    merge_note: str
    reorder_note: str
    missing_result: Callable[[str], dict[str, Any]]

    def payload(self, draft: Draft) -> dict[str, Any]:
        """The message as sent."""
        body = {"role": draft.role, "content": self.content(draft.parts, draft.content_hint)}
        if draft.extra:  # most drafts have none (unpacking even an empty one costs)
            body.update(draft.extra)
        return body

    def inner(self, part: Part) -> dict[str, Any]:
        """The object that holds a call's or a result's fields: the body, or its member."""
        return part.body[part.kind] if self.nested else part.body

    def part(self, body: dict[str, Any], path: str) -> Part:
        """A rendered block at ``path``, its kind taken from its body."""
        return Part(body, path, kind=self.kind(body))

    def text_part(self, text: str, path: str) -> Part:
        """A plain text block."""
        return self.part(self.text_body(text), path)


def build_drafts(
    messages: list[tuple[int, Message]],
    ctx: Ctx,
    dialect: Dialect[Ctx],
    *,
    take_system: Callable[[Message, str, bool], bool],
) -> Iterator[Draft]:
    """Drafts for the thread, each made when asked for (the rules take it then, see
    :func:`.rules.apply_rules`). ``take_system`` is given each system or developer message
    (with its path, and whether no turn came before it) and says whether it took it out of
    the thread (into a top-level prompt)."""
    leading = True
    for index, message in messages:
        path = f"messages[{index}]"
        warn_message_fields(message, path, ctx, dialect.name, dialect.turn)  # see its docstring
        if message.role in SYSTEM_ROLES and take_system(message, path, leading):
            continue
        leading = False
        draft = _draft(message, path, ctx, dialect)
        if ctx.faithful:
            yield draft
            continue
        _fix_misplaced_tool_blocks(draft, ctx, dialect)
        moved = _move_media(draft, ctx, dialect) if draft.role == "assistant" else None
        yield draft
        if moved is not None:
            yield moved


def _draft(message: Message, path: str, ctx: Ctx, dialect: Dialect[Ctx]) -> Draft:
    wrapped = wrapped_tool_result(message, path, ctx.drift) if message.role == "tool" else None
    if wrapped is None:
        parts = dialect.render_blocks(message.content, path, message.extra, ctx)
    else:
        body = dialect.render_block(wrapped, path, ctx)
        parts = [] if body is None else [dialect.part(body, path)]
    role = dialect.roles.get(message.role, message.role)
    if not message.extra:  # the common message: no hint, no fields of its own
        return Draft(role, parts, path, message.role)
    hint = dialect.content_hint(message)
    return Draft(role, parts, path, message.role, hint, dialect.message_fields(message))


def wrapped_tool_result(message: Message, path: str, drift: Drift) -> ToolResultBlock | None:
    """How a tool-role message goes out as user content: None when its blocks go as they
    are (its tool results; or, said as ``content-type-unsupported``, its content when it
    answers no call id), else its content wrapped as the result of ``tool_call_id``."""
    for block in message.content:
        if block.type == "tool_result":
            return None
    if message.tool_call_id is None:
        drift.add(
            "content-type-unsupported",
            "a tool message that answers no call id is sent as user content",
            field=path,
            original="tool",
            transformed="user",
        )
        return None
    return ToolResultBlock(
        tool_use_id=message.tool_call_id, content=list(message.content), name=message.name
    )


def report_system_moved(
    message: Message,
    path: str,
    leading: bool,
    drift: Drift,
    *,
    target: str,
    prompt: str,
    transformed: str = "system",
) -> None:
    """The warning for a developer message, or a system message after the conversation
    started, moved to ``target``'s ``prompt`` ("top-level system prompt"; the warning's
    ``transformed``)."""
    if message.role == "developer" or not leading:
        drift.add(
            "system-message-transformed",
            f"moved to {target}'s {prompt}"
            if leading
            else f"a system message inside the conversation moved to the {prompt}",
            field=path,
            original=message.role,
            transformed=transformed,
            severity="info" if leading else "warning",
        )


PartT = TypeVar("PartT", bound=Part)


def text_only(
    parts: list[PartT],
    drift: Drift,
    *,
    is_text: Callable[[PartT], bool],
    kind: Callable[[PartT], Any],
    note: str,
) -> list[PartT]:
    """``parts`` less those that are not text (a system prompt holds text only), each
    left out with a ``content-dropped`` warning saying ``note``."""
    kept = []
    for part in parts:
        if is_text(part):
            kept.append(part)
        else:
            drift.add("content-dropped", note, field=part.path, original=kind(part))
    return kept


def drop_blank_text(parts: list[Part], drift: Drift, dialect: Dialect[Any]) -> list[Part]:
    """``parts`` without blank text blocks (each dropped one noted as info in ``drift``):
    ``parts`` itself when it has none (every draft passes here, and most have none)."""
    kept: list[Part] | None = None  # made at the first blank block
    for index, part in enumerate(parts):
        # A text block the API refuses: empty or whitespace only.
        if part.kind == "text" and not str(part.body.get("text", "")).strip():
            if kept is None:
                kept = parts[:index]
            drift.add(
                "content-dropped",
                dialect.blank_note,
                field=part.path,
                original=part.body.get("text"),
                severity="info",
            )
        elif kept is not None:
            kept.append(part)
    return parts if kept is None else kept


def _move_media(draft: Draft, ctx: Ctx, dialect: Dialect[Ctx]) -> Draft | None:
    """Media of an assistant turn, moved to a user turn right after it (these APIs take
    media from the user only)."""
    media_kinds = dialect.media_kinds
    for part in draft.parts:  # the common turn has none: looked for without a list
        if part.kind in media_kinds:
            break
    else:
        return None
    media = [part for part in draft.parts if part.kind in media_kinds]
    moved = {id(part) for part in media}
    draft.parts = [part for part in draft.parts if id(part) not in moved]
    for part in media:
        part.moved = True
        ctx.drift.add(
            "message-reordered",
            dialect.media_note,
            field=part.path,
            original="assistant",
            transformed="user",
        )
    return Draft("user", media, draft.path, "assistant", "blocks", synthetic=True)


def _fix_misplaced_tool_blocks(draft: Draft, ctx: Ctx, dialect: Dialect[Ctx]) -> None:
    """Calls only in assistant turns, results only in user turns; the others become text."""
    in_assistant = draft.role == "assistant"
    misplaced = dialect.result_kind if in_assistant else dialect.call_kind
    for part in draft.parts:  # the common draft has none: left as it is
        if part.kind == misplaced:
            break
    else:
        return
    fixed: list[Part] = []
    for part in draft.parts:
        if part.kind != misplaced:
            fixed.append(part)
        elif in_assistant:
            fixed.extend(result_as_text(part, ctx.drift, dialect))
        else:
            fixed.append(_call_as_text(part, ctx, dialect))
    draft.parts = fixed


def _call_as_text(part: Part, ctx: Ctx, dialect: Dialect[Ctx]) -> Part:
    call = dialect.inner(part)
    report_call_as_text(part.path, ctx.drift, target=dialect.name, speaker="the assistant")
    arguments = dump_arguments(call.get("input", {}))
    text = f"[tool call {call[dialect.call_id]}] {call['name']}({arguments})"
    return dialect.text_part(text, part.path)


def result_as_text(part: Part, drift: Drift, dialect: Dialect[Any]) -> list[Part]:
    """A tool result that cannot be paired with a call of the turn before, as a text block
    (followed by its images and documents)."""
    text, media = dialect.result_text(dialect.inner(part))
    report_result_as_text(part.path, drift)
    return [dialect.text_part(text, part.path), *(dialect.part(body, part.path) for body in media)]
