"""What the anthropic and bedrock-converse renderers share: the payload in the shape it was
read in, the system messages taken out of the thread into the top-level prompt, and a
response's stop reason and usage. The provider's words come from its :class:`Dialect`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from providers.formats._content_blocks.drafts import (
    Ctx,
    Dialect,
    Draft,
    Part,
    build_drafts,
    drop_blank_text,
    report_system_moved,
    text_only,
)
from providers.formats._content_blocks.parse import UsageNames, cache_excluded_usage
from providers.formats._content_blocks.shape import Thread, main_thread, shaped_payload
from providers.formats._kit.drift import report_message_metadata
from providers.formats._kit.extra import hint
from providers.formats._kit.wire import wire_finish_reason
from providers.formats.base import Rendered
from providers.umf import Conversation, Message

Taken = TypeVar("Taken")


def render_in_shape(
    conversation: Conversation,
    format_id: str,
    dialect: Dialect[Ctx],
    new_context: Callable[..., Ctx],
    *,
    no_message_metadata: str,
    messages: Callable[..., tuple[list[dict[str, Any]], list[Any]]],
    request: Callable[[Conversation, Thread, Ctx], dict[str, Any]],
    response: Callable[[tuple[int, Message], Ctx], dict[str, Any]],
) -> Rendered:
    """The conversation as a payload in the shape ``format_id`` read it in (a request when
    it came from another format), and the warnings for what it could not carry. A bare
    message list has no top-level system prompt: its messages are those ``messages`` gives
    (the format's :func:`messages_and_system`), with the system messages in place."""
    ctx = new_context(faithful=hint(conversation.extra, format_id, "shape") is not None)
    thread = main_thread(conversation, ctx.drift, dialect.name)
    if not ctx.faithful:  # from another format: always a request of the whole thread
        report_message_metadata(thread, ctx.drift, no_message_metadata)
    last = thread[-1][1] if thread else None
    payload = shaped_payload(
        conversation,
        thread,
        format_id,
        is_response=last is not None and hint(last.extra, format_id, "response") is True,
        messages=lambda listed: messages(listed, ctx, system_in_place=True)[0],
        request=lambda messages: request(conversation, messages, ctx),
        response=lambda entry: response(entry, ctx),
    )
    return Rendered(payload, ctx.drift.warnings)


def messages_and_system(
    messages: Thread,
    ctx: Ctx,
    dialect: Dialect[Ctx],
    *,
    stays: Callable[[Message], bool],
    take: Callable[[Message, str, bool], Taken],
    rules: Callable[[Iterator[Draft]], list[dict[str, Any]]],
) -> tuple[list[dict[str, Any]], list[Taken]]:
    """The thread's messages as sent (from another format, as the format's ``rules`` make
    them of the drafts, each taken as it is made: see :func:`.rules.apply_rules`), and what
    ``take`` made of each system or developer message that does not stay in the thread (it
    goes to the top-level prompt)."""
    system: list[Taken] = []

    def take_system(message: Message, path: str, leading: bool) -> bool:
        if stays(message):
            return False
        system.append(take(message, path, leading))
        return True

    drafts = build_drafts(messages, ctx, dialect, take_system=take_system)
    if ctx.faithful:
        return [dialect.payload(draft) for draft in drafts], system
    return rules(drafts), system


def system_text(
    message: Message, path: str, leading: bool, ctx: Ctx, dialect: Dialect[Ctx]
) -> list[Part]:
    """A system or developer message as blocks of the top-level system prompt: text only
    (the others left out, said), and from another format without blank text."""
    report_system_moved(
        message, path, leading, ctx.drift, target=dialect.name, prompt="top-level system prompt"
    )
    parts = text_only(
        dialect.render_blocks(message.content, path, message.extra, ctx),
        ctx.drift,
        is_text=lambda part: part.kind == "text",
        kind=lambda part: part.kind,
        note=f"{dialect.name}'s system prompt holds text only; left out",
    )
    return parts if ctx.faithful else drop_blank_text(parts, ctx.drift, dialect)


def put_stop_and_usage(
    body: dict[str, Any],
    message: Message,
    stop_reasons: Mapping[str, str],
    names: UsageNames,
    *,
    stop_key: str,
) -> None:
    """A response's stop reason (as read, else the UMF finish reason in the API's words)
    and its usage (as read, else in the API's meaning: ``names``)."""
    stop_reason = wire_finish_reason(message, stop_reasons)
    if stop_reason is not None:
        body[stop_key] = stop_reason
    usage = message.usage
    if usage is not None:
        body["usage"] = usage.raw if usage.raw is not None else cache_excluded_usage(usage, names)
