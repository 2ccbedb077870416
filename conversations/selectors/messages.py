"""A conversation's messages a page at a time, for a conversation too long to read whole:
the imported thread in order (what the API's detail holds inline), or the branch through
a message, as the conversation page shows it."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

from conversations import models
from conversations.selectors.stored import messages_umf
from conversations.selectors.thread_path import branch_rows
from providers.umf import Message


@dataclass
class MessagePage:
    """Messages in order, each as (row id, position, UMF message), and whether there are
    messages before and after them."""

    messages: list[tuple[Any, int, Message]]
    more_before: bool
    more_after: bool


class UnknownLeaf(LookupError):
    """The leaf names no message of the conversation."""


def message_page(
    *,
    conversation: models.Conversation,
    limit: int,
    leaf: Any = None,
    after: int | None = None,
    before: int | None = None,
) -> MessagePage:
    """The ``limit`` messages after position ``after`` (or before ``before``; else the
    first), of the imported thread or, with ``leaf``, of the branch through it. Positions
    grow along a branch, so a page stays the same when replays add branches. Three queries
    (four with media): the page's keys, its messages, their blocks."""
    if leaf is None:
        keys, more_before, more_after = _imported_keys(conversation, limit, after, before)
    else:
        path = [
            (row["id"], row["position"])
            for row in branch_rows(conversation=conversation, leaf=leaf)
        ]
        if not any(key == leaf for key, _ in path):
            raise UnknownLeaf(leaf)
        keys, more_before, more_after = _slice(path, limit, after, before)
    messages = messages_umf(message_ids=[key for key, _ in keys])
    return MessagePage(
        [(key, position, message) for (key, position), message in zip(keys, messages, strict=True)],
        more_before,
        more_after,
    )


Keys = list[tuple[Any, int]]


def _imported_keys(
    conversation: models.Conversation, limit: int, after: int | None, before: int | None
) -> tuple[Keys, bool, bool]:
    rows = models.Message.objects.filter(conversation=conversation, replay_run__isnull=True)
    if before is not None:
        found = list(
            rows.filter(position__lt=before)
            .order_by("-position")
            .values_list("id", "position")[: limit + 1]
        )
        return found[:limit][::-1], len(found) > limit, True
    if after is not None:
        rows = rows.filter(position__gt=after)
    found = list(rows.order_by("position").values_list("id", "position")[: limit + 1])
    return found[:limit], after is not None, len(found) > limit


def _slice(
    path: Keys, limit: int, after: int | None, before: int | None
) -> tuple[Keys, bool, bool]:
    positions = [position for _, position in path]
    if before is not None:
        stop = bisect_left(positions, before)
        start = max(stop - limit, 0)
        return path[start:stop], start > 0, True
    start = 0 if after is None else bisect_right(positions, after)
    return path[start : start + limit], start > 0, start + limit < len(path)
