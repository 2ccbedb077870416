"""One thread out of a tree, for the formats that hold one."""

from __future__ import annotations

from collections.abc import Callable

from providers.formats._kit.paths import item
from providers.formats.base import Drift
from providers.umf import JSON, Conversation, Message, main_path


def one_thread(
    conversation: Conversation,
    drift: Drift,
    why: str,
    original: Callable[[Message], JSON] = lambda message: message.id,
) -> list[tuple[int, Message]]:
    """The messages of the main path with their UMF indexes; every message on another
    branch is left out with a ``content-dropped`` warning that begins with ``why`` ("a span
    holds one thread") and names the message by ``original`` (its id by default)."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            drift.add(
                "content-dropped",
                f"{why}; this message is on another branch",
                field=item("messages", index),
                original=original(message),
            )
    return [(positions[id(message)], message) for message in path]
