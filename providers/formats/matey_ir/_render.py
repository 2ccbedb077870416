"""UMF conversation -> IR payload: the shape it was read in (a request, a bare message
array, a response, stream chunks or an exchange), else a request. What was read comes back
as it was while the digest of what UMF says is unchanged (see :mod:`._parse_metadata`)."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import no_place_for_message_facts, report_unplaced
from providers.formats._message_lists.render import (
    ListContext,
    one_thread,
    render_context,
    report_foreign,
)
from providers.formats.base import Rendered
from providers.formats.matey_ir._constants import ANSWER_SHAPES, FORMAT_ID, LABEL, NS, SHAPES
from providers.formats.matey_ir._parse_metadata import state_digest
from providers.formats.matey_ir._render_messages import render_message
from providers.formats.matey_ir._render_metadata import (
    fallback_identity,
    render_metadata,
    render_usage,
)
from providers.formats.matey_ir._render_request import (
    render_parameters,
    render_tool_choice,
    render_tools,
)
from providers.formats.matey_ir._render_stream import render_stream
from providers.formats.matey_ir._rules import finish_reason
from providers.umf import JSON, Conversation, Message

_NO_MESSAGE_METADATA = no_place_for_message_facts("an ai.matey IR request")


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as IR JSON: the shape it was read in, else a request."""
    shape = NS.hint(conversation.extra, "shape")
    ctx = render_context(FORMAT_ID, LABEL, faithful=shape in SHAPES)
    report_foreign(conversation.extra, "", ctx)
    payload = render_payload(conversation, ctx, shape if shape in SHAPES else None)
    return Rendered(payload, ctx.drift.warnings)


def render_payload(conversation: Conversation, ctx: ListContext, shape: str | None) -> JSON:
    """The payload for ``conversation`` in ``shape`` (a request when it is not an IR one)."""
    messages = one_thread(conversation, ctx, metadata_note=_NO_MESSAGE_METADATA, held=("metadata",))
    answer = messages[-1] if messages and messages[-1][1].role == "assistant" else None
    if shape in ANSWER_SHAPES and answer is None:
        shape = "request"
    unchanged = NS.hint(conversation.extra, "digest") == state_digest(
        conversation, answer[1] if answer and shape in ANSWER_SHAPES else None
    )
    if shape == "messages":
        report_unplaced(conversation, [], ctx.drift, choice="toolChoice")
        return [render_message(message, index, ctx) for index, message in messages]
    if shape in ("response", "stream"):
        assert answer is not None
        report_unplaced(conversation, messages[:-1], ctx.drift, choice="toolChoice")
        return _render_answer(conversation, answer, shape, unchanged, ctx)
    if shape == "exchange":
        assert answer is not None
        kind = "stream" if NS.hint(answer[1].extra, "chunks") is not None else "response"
        return {
            **NS.hint(conversation.extra, "exchange", {}),
            "request": _render_request(conversation, messages[:-1], unchanged, ctx),
            "response": _render_answer(conversation, answer, kind, unchanged, ctx),
        }
    return _render_request(conversation, messages, unchanged, ctx)


def _render_request(
    conversation: Conversation,
    messages: list[tuple[int, Message]],
    unchanged: bool,
    ctx: ListContext,
) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": [render_message(m, index, ctx) for index, m in messages]}
    if conversation.tools:
        body["tools"] = render_tools(conversation, ctx)
    if conversation.tool_choice is not None:
        body["toolChoice"] = render_tool_choice(conversation.tool_choice, ctx)
    parameters = render_parameters(conversation, ctx)
    if parameters is not None:
        body["parameters"] = parameters
    kept = NS.hint(conversation.extra, "metadata")
    if unchanged and kept is not None:
        body["metadata"] = kept
    else:
        identity = fallback_identity(conversation)
        body["metadata"] = render_metadata(conversation.metadata, ctx, identity, response=False)
    if conversation.parameters.stream is not None:
        body["stream"] = conversation.parameters.stream
    return NS.put(body, conversation.extra)


def _render_answer(
    conversation: Conversation,
    answer: tuple[int, Message],
    kind: str,
    unchanged: bool,
    ctx: ListContext,
) -> Any:
    index, message = answer
    if unchanged and kind == "stream" and NS.hint(message.extra, "chunks") is not None:
        return NS.hint(message.extra, "chunks")
    kept = NS.hint(message.extra, "response_metadata")
    if unchanged and kept is not None:
        metadata = kept
    else:
        source = conversation.metadata.model_copy()
        source.provider_response_id = message.id or source.provider_response_id
        source.timestamp = message.timestamp or source.timestamp
        metadata = render_metadata(source, ctx, fallback_identity(conversation), response=True)
    if kind == "stream":
        mode = conversation.extra.get(FORMAT_ID, {}).get("streamMode")
        return render_stream(message, index, metadata, mode, ctx)
    return render_response(message, index, metadata, ctx)


def render_response(
    answer: Message, index: int, metadata: dict[str, Any], ctx: ListContext
) -> dict[str, Any]:
    """An ``IRChatResponse`` for the answer (UMF message ``index``) with ``metadata``."""
    message = render_message(answer, index, ctx)
    body: dict[str, Any] = {"message": message, "finishReason": finish_reason(answer, index, ctx)}
    if answer.usage is not None:
        body["usage"] = render_usage(answer.usage)
    body["metadata"] = metadata
    body.update(NS.hint(answer.extra, "response", {}))
    return body
