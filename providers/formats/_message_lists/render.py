"""What every seed message list says when it renders: the one thread it holds, and the
warnings for what a plain list of messages cannot carry, worded with the format's label
(``ctx.label``: "Appam", "ART", "Forge", "ai.matey IR") or the phrase given."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar

from providers.formats._kit import thread
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_defaulted,
    report_developer,
    report_foreign_fields,
    report_message_metadata,
    report_no_room_for_request,
    report_reasoning_details,
    report_reasoning_text,
)
from providers.formats._kit.extra import Namespace
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import parse_arguments
from providers.formats._message_lists.shapes import SHAPES, ListDialect, Wire, shaped_payload
from providers.formats.base import Drift, Rendered
from providers.umf import (
    Block,
    Conversation,
    DocumentBlock,
    Extra,
    MediaSource,
    Message,
    RefusalBlock,
    ToolResultBlock,
    ToolUseBlock,
)


@dataclass
class ListContext(RenderContext):
    """One render of a message list: also the tool names of the calls seen so far (a
    result that does not say which tool it answers is written with its call's)."""

    call_names: dict[str, str] = field(default_factory=dict)


ContextT = TypeVar("ContextT", bound=ListContext)


def render_context(format_id: str, label: str, *, faithful: bool) -> ListContext:
    """A fresh render context for ``format_id`` (warnings name it by ``label``)."""
    return ListContext(Namespace(format_id), label, Drift(format_id), faithful)


def report_foreign(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value."""
    report_foreign_fields(extra, path, ctx.drift, ctx.ns.format_id, ctx.label)


def one_thread(
    conversation: Conversation,
    ctx: RenderContext,
    *,
    metadata_note: str | None = None,
    held: Collection[str] = (),
    holds: str | None = None,
    original: Callable[[Message], Any] = lambda message: message.id,
) -> list[tuple[int, Message]]:
    """The messages to write with their UMF indexes: one path when the conversation is a
    tree, each message left on another branch noted as dropped (``holds``: how the note
    begins, "<label> holds one thread" by default). With ``metadata_note``, a conversion
    notes the per-message facts the list has no place for (less the ``held`` ones)."""
    why = holds or f"{ctx.label} holds one thread"
    written = thread.one_thread(conversation, ctx.drift, why, original)
    if metadata_note and not ctx.faithful:
        report_message_metadata(written, ctx.drift, metadata_note, held=held)
    return written


def render_list(
    conversation: Conversation,
    render_message: Callable[[Message, int, ContextT], list[Wire]],
    dialect: ListDialect,
    context: Callable[[Namespace, str, Drift, bool], ContextT],
) -> Rendered:
    """``conversation`` as a list of wire messages in the shape it was read in
    (:func:`~.shapes.shaped_payload`; written back exactly when it is one of
    :data:`~.shapes.SHAPES`), ``render_message`` writing each message of its one thread in
    a ``context``, and a warning for each thing it could not carry: other formats' fields,
    the request around the messages, the messages' own facts (``dialect``'s words)."""
    ns = dialect.ns
    shape = ns.hint(conversation.extra, "shape")
    ctx = context(ns, dialect.label, Drift(ns.format_id), shape in SHAPES)
    report_foreign(conversation.extra, "", ctx)
    report_no_room_for_request(conversation, ctx.drift, holder=dialect.holder)
    thread = one_thread(conversation, ctx, metadata_note=dialect.metadata_note)
    groups = [render_message(message, index, ctx) for index, message in thread]
    payload = shaped_payload(conversation, shape, thread, groups, ns)
    return Rendered(payload, ctx.drift.warnings)


def developer_as_system(path: str, ctx: RenderContext, who: str | None = None) -> str:
    """``system``, with the warning that ``who`` (the label by default) has no developer
    role."""
    why = f"{who or ctx.label} has no developer role; sent as a system message"
    report_developer(at(path, "role"), ctx.drift, why)
    return "system"


def whole_result(message: Message) -> ToolResultBlock | None:
    """A tool message holding its result as plain blocks (UMF's InternalMessage shape):
    one result answering its ``tool_call_id``; None for any other message."""
    if message.role != "tool" or message.tool_call_id is None:
        return None
    if any(isinstance(block, ToolResultBlock) for block in message.content):
        return None
    return ToolResultBlock(
        tool_use_id=message.tool_call_id, content=list(message.content), name=message.name
    )


def media_type_or_default(
    source: MediaSource, default: str, path: str, ctx: RenderContext, why: str
) -> str:
    """The media type of the source of the block at ``path``, else ``default`` with a
    ``parameter-defaulted`` note, ``why`` in the format's words ("Appam needs a media type")."""
    if source.media_type is not None:
        return source.media_type
    report_defaulted(at(path, "source.media_type"), default, ctx.drift, why)
    return default


def report_tool_as_user(path: str, ctx: RenderContext) -> str:
    """``user``, with the warning for a tool message that answers no call."""
    ctx.drift.add(
        "content-type-unsupported",
        "a tool message that answers no call; sent as a user message",
        field=path,
        original="tool",
        transformed="user",
    )
    return "user"


def report_reasoning_fields(
    message: Message, path: str, ctx: RenderContext, holder: str, reasoning: str = "reasoning"
) -> None:
    """Warnings for a message's ``reasoning`` and ``reasoning_details``, which ``holder``
    ("ART messages") carry no place for."""
    report_reasoning_text(message, path, ctx.drift, f"{holder} carry no {reasoning}")
    report_reasoning_details(message, path, ctx.drift, f"{holder} carry no reasoning details")


def report_moved(
    results: list[int], placed: list[int], after: bool, path: str, ctx: RenderContext, how: str
) -> None:
    """One note per tool result (content positions ``results``) that had to jump over the
    message's own content (``placed``), moved ``after`` it or before it; ``how`` begins
    the note ("tool results are Forge messages of their own; moved {where} the
    message's text", ``{where}`` filled in)."""
    where = "after" if after else "before"
    for position in results:
        jumped = any(p > position for p in placed) if after else any(p < position for p in placed)
        if jumped:
            ctx.drift.add(
                "message-reordered",
                how.format(where=where),
                field=item(at(path, "content"), position),
                original="within the message",
                transformed=where,
                severity="info",
            )


def plain_text(block: Block, *, empty_documents: bool = False) -> str | None:
    """The text of a block a text-only list takes as text: a refusal, a plain-text
    document (with ``empty_documents``, one that holds no text too)."""
    if isinstance(block, RefusalBlock):
        return block.text
    if isinstance(block, DocumentBlock) and block.source.type == "text":
        data = block.source.data
        return data if data or (empty_documents and data is not None) else None
    return None


def input_object(block: ToolUseBlock, path: str, ctx: RenderContext, why: str) -> dict[str, Any]:
    """The call's input as the JSON object the list requires: as it is, or wrapped as
    ``{"input": value}`` with a ``content-type-unsupported`` warning (``why`` says so)."""
    if isinstance(block.input, dict):
        return block.input
    value = {"input": block.input}
    ctx.drift.add(
        "content-type-unsupported",
        why,
        field=at(path, "input"),
        original=block.input,
        transformed=value,
    )
    return value


def report_invalid_arguments(block: ToolUseBlock, path: str, ctx: RenderContext, who: str) -> None:
    """The warning for a call whose raw argument string is not JSON: ``who`` ("Forge")
    keeps only the parsed input."""
    if block.raw_arguments is not None and not parse_arguments(block.raw_arguments)[1]:
        ctx.drift.add(
            "content-dropped",
            f"the call's arguments were not valid JSON; {who} keeps only the parsed input",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=block.input,
        )
