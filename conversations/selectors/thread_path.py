"""The one place that decides a branch: the path through the message tree to a leaf
(its ancestors, the leaf, then its default descendants), read whole, or kept compact in
the "render" cache for the conversation page, which shows a window of it."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches

from conversations import models

Rows = list[dict[str, Any]]
PATH_COLUMNS = ("id", "parent_id", "replay_run_id", "position")  # what a path needs
# What the page needs of every message of the path: the path, what it hides, its usage.
_PAGE_PATH_COLUMNS = ("id", "parent_id", "replay_run_id", "hidden", "usage")


def thread_message_ids(*, conversation: models.Conversation, leaf: Any) -> set[Any]:
    """The ids of the messages on the path the page shows through ``leaf`` (ancestors,
    ``leaf``, its default descendants), in one query: what "this branch" means."""
    return {row["id"] for row in branch_rows(conversation=conversation, leaf=leaf)}


def branch_rows(*, conversation: models.Conversation, leaf: Any) -> Rows:
    """The path through ``leaf`` as rows of ``PATH_COLUMNS``, in order, in one query."""
    by_id, children = _tree(_rows(conversation, PATH_COLUMNS))
    return _path(by_id, children, by_id.get(leaf))


@dataclass
class PagePath:
    """A path as the page needs it, compact enough to cache for 100,000 messages: the
    ids of its messages (``every``) and of those it shows (``shown``: not hidden), 16
    bytes each in order, its hidden messages' ids, and its usage totals."""

    every: bytes
    shown: bytes
    hidden: list[uuid.UUID]
    usage: dict[str, int]

    @property
    def total(self) -> int:
        return len(self.shown) // 16

    def shown_ids(self, start: int, stop: int) -> list[uuid.UUID]:
        return [uuid.UUID(bytes=self.shown[i * 16 : i * 16 + 16]) for i in range(start, stop)]

    def shown_index(self, message_id: Any) -> int | None:
        return _index(self.shown, message_id)

    def index(self, message_id: Any) -> int | None:
        """The place of ``message_id`` on the path (hidden messages included), or None."""
        return _index(self.every, message_id)

    def places(self, first: Any, count: int) -> dict[uuid.UUID, int]:
        """The places of the ``count`` messages of the path from ``first`` on, and of its
        hidden messages: one search for a window, not one per message."""
        places = {message_id: self.index(message_id) or 0 for message_id in self.hidden}
        start = self.index(first)
        if start is not None:
            for place in range(start, min(start + count, len(self.every) // 16)):
                places[uuid.UUID(bytes=self.every[place * 16 : place * 16 + 16])] = place
        return places

    def id_at(self, place: int) -> uuid.UUID | None:
        """The id of the message at ``place`` on the path (hidden ones included)."""
        if not 0 <= place < len(self.every) // 16:
            return None
        return uuid.UUID(bytes=self.every[place * 16 : place * 16 + 16])


def _index(ids: bytes, message_id: Any) -> int | None:
    if not isinstance(message_id, uuid.UUID):
        return None
    found = ids.find(message_id.bytes)
    while found != -1 and found % 16:  # 16 bytes across two ids: look on
        found = ids.find(message_id.bytes, found + 1)
    return None if found == -1 else found // 16


def page_path(*, conversation: models.Conversation, branch: Any) -> PagePath:
    """The path through ``branch`` (a message id; the imported thread when it names none)
    from the cache, else read whole (one query) and cached. Messages are only ever added
    to a conversation (it is deleted whole), so their count (one query) names the
    version of its tree: a new message is a new key, and no stale path is ever used."""
    count = models.Message.objects.filter(conversation=conversation).count()
    cache = caches["render"]
    key = f"thread-path:{conversation.pk}:{count}:{branch or ''}"
    found = cache.get(key)
    if found is None:
        by_id, children = _tree(_rows(conversation, _PAGE_PATH_COLUMNS))
        leaf = by_id.get(branch)
        found = _page_path(_path(by_id, children, leaf))
        if leaf is None:  # not a message of this conversation: the imported thread's key
            key = f"thread-path:{conversation.pk}:{count}:"
        cache.set(key, found)
    return found  # type: ignore[no-any-return]


def _page_path(path: Rows) -> PagePath:
    usage: dict[str, int] = {}
    for row in path:
        for name, value in (row["usage"] or {}).items():
            if isinstance(value, int):
                usage[name] = usage.get(name, 0) + value
    return PagePath(
        b"".join(row["id"].bytes for row in path),
        b"".join(row["id"].bytes for row in path if not row["hidden"]),
        [row["id"] for row in path if row["hidden"]],
        usage,
    )


def _rows(conversation: models.Conversation, columns: tuple[str, ...]) -> Rows:
    return list(
        models.Message.objects.filter(conversation=conversation)
        .order_by("position", "id")  # a replay shares its original's position; ids are
        .values(*columns)  # time-ordered, so siblings list in the order they came
    )


def _tree(rows: Rows) -> tuple[dict[Any, dict[str, Any]], dict[Any, Rows]]:
    """The message rows by id, and each message's children in order (key None: roots)."""
    children: dict[Any, Rows] = defaultdict(list)
    for row in rows:
        children[row["parent_id"]].append(row)
    return {row["id"]: row for row in rows}, children


def _path(
    by_id: dict[Any, dict[str, Any]],
    children: dict[Any, list[dict[str, Any]]],
    leaf: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """The ancestors of ``leaf``, ``leaf``, then its default descendants: the same replay
    run's answers first, else the imported thread's latest child."""
    path: list[dict[str, Any]] = []
    node = leaf
    while node is not None:
        path.append(node)
        node = by_id.get(node["parent_id"])
    path.reverse()
    node = leaf if leaf is not None else _default_child(children[None], None)
    if leaf is None and node is not None:
        path.append(node)
    while node is not None:
        node = _default_child(children[node["id"]], node["replay_run_id"])
        if node is not None:
            path.append(node)
    return path


def _default_child(options: list[dict[str, Any]], run_id: Any) -> dict[str, Any] | None:
    same_run = [row for row in options if row["replay_run_id"] == run_id]
    return same_run[-1] if same_run else None
