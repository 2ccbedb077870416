"""The shapes a content-block payload comes in (a request, a bare message list, a logged
``{"request", "response"}`` exchange, a bare response): read with the shape recorded, and
written back in it; and the one thread a request holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._kit.extra import hint
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Conversation, Message, main_path

Thread = list[tuple[int, Message]]


def main_thread(conversation: Conversation, drift: Drift, target: str) -> Thread:
    """The messages to send with their UMF positions: one path through a tree (the other
    branches are left out, said as ``content-dropped``)."""
    path = main_path(conversation)
    if len(path) == len(conversation.messages):  # a thread already (parents come first)
        return list(enumerate(path))
    drift.add(
        "content-dropped",
        f"{target} takes one thread; the other branches were left out",
        field="messages",
        original=len(conversation.messages),
        transformed=len(path),
    )
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    return [(positions[id(message)], message) for message in path]


def shaped_payload(
    conversation: Conversation,
    thread: Thread,
    format_id: str,
    *,
    is_response: bool,
    messages: Callable[[Thread], JSON],
    request: Callable[[Thread], dict[str, Any]],
    response: Callable[[tuple[int, Message]], dict[str, Any]],
) -> JSON:
    """The payload in the shape ``format_id`` read the conversation in: a bare message list,
    a bare response, a logged exchange (request and response), else a request.
    ``is_response`` says whether the last message of ``thread`` was read as a response."""
    shape = hint(conversation.extra, format_id, "shape")
    if shape == "messages":
        return messages(thread)
    if shape == "response" and is_response and len(thread) == 1:
        return response(thread[0])
    if shape == "exchange" and is_response:
        return {
            "request": request(thread[:-1]),
            "response": response(thread[-1]),
            **hint(conversation.extra, format_id, "exchange", {}),
        }
    return request(thread)


def parse_in_shape(
    payload: JSON,
    format_id: str,
    *,
    message_list: Callable[[list[Any]], list[Message]],
    request: Callable[[JSON, str], Conversation],
    response: Callable[[JSON, str], Message],
    is_request: Callable[[dict[str, Any]], bool],
    is_response: Callable[[dict[str, Any]], bool],
    expected: str,
    answered: Callable[[Conversation, Message], None] = lambda _c, _m: None,
) -> Conversation:
    """The conversation a payload of any shape the format accepts describes, its shape
    recorded as the hint ``$shape``: a bare message list, a logged exchange
    (``{"request", "response"}``, whose fields beside those two are kept as ``$exchange``),
    a request, a bare response. ``answered`` completes the conversation with its answer
    (a response's message, last); ``expected`` is the error's message for anything else."""
    if isinstance(payload, list):
        conversation, shape = Conversation(messages=message_list(payload)), "messages"
    elif isinstance(payload, dict) and "request" in payload and "response" in payload:
        conversation, shape = request(payload["request"], "request"), "exchange"
        _answer(conversation, response(payload["response"], "response"), answered)
        outer = {k: v for k, v in payload.items() if k not in ("request", "response")}
        if outer:
            conversation.extra.setdefault(format_id, {})["$exchange"] = outer
    elif isinstance(payload, dict) and is_request(payload):
        conversation, shape = request(payload, ""), "request"
    elif isinstance(payload, dict) and is_response(payload):
        conversation, shape = Conversation(), "response"
        _answer(conversation, response(payload, ""), answered)
    else:
        raise FormatError(expected, field="payload")
    conversation.extra.setdefault(format_id, {})["$shape"] = shape
    return conversation


def _answer(
    conversation: Conversation, message: Message, answered: Callable[[Conversation, Message], None]
) -> None:
    answered(conversation, message)
    conversation.messages.append(message)
