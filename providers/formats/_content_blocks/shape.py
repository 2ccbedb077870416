"""The thread a content-block payload holds, and the payload written in the shape it was
read in (``messages``, ``response``, ``exchange``; otherwise a request)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._kit.extra import hint
from providers.formats.base import Drift
from providers.umf import JSON, Conversation, Message, main_path

Thread = list[tuple[int, Message]]


def main_thread(conversation: Conversation, drift: Drift, target: str) -> Thread:
    """The messages to send with their UMF positions: one path through a tree (the other
    branches are left out, said as ``content-dropped``)."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    if len(path) < len(conversation.messages):
        drift.add(
            "content-dropped",
            f"{target} takes one thread; the other branches were left out",
            field="messages",
            original=len(conversation.messages),
            transformed=len(path),
        )
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
