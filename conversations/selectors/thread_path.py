"""The one place that decides a branch: the path through the message tree to a leaf
(its ancestors, the leaf, then its default descendants), read whole, or kept compact in
the "render" cache for the conversation page, which shows a window of it."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import orjson
from django.core.cache import caches
from django.db.models import TextField
from django.db.models.functions import Cast

from conversations import models

Rows = list[dict[str, Any]]
# A message as a path reads it: (id, parent_id, replay_run_id, then the caller's columns).
# Tuples, and the ids' integers as keys: a UUID hashes in Python, 0.07 s for a path of
# 100,000 messages (the page's goal is 0.3 s for all of it).
Row = tuple[Any, ...]
_TREE_COLUMNS = ("id", "parent_id", "replay_run_id")


def thread_message_ids(*, conversation: models.Conversation, leaf: Any) -> set[Any]:
    """The ids of the messages on the path the page shows through ``leaf`` (ancestors,
    ``leaf``, its default descendants), in one query: what "this branch" means."""
    return {row[0] for row in _branch(conversation, leaf, ())}


def branch_rows(*, conversation: models.Conversation, leaf: Any) -> Rows:
    """The path through ``leaf`` as ``{"id", "parent_id", "replay_run_id", "position"}``
    rows, in order, in one query."""
    columns = (*_TREE_COLUMNS, "position")
    return [
        dict(zip(columns, row, strict=True)) for row in _branch(conversation, leaf, ("position",))
    ]


def _branch(conversation: models.Conversation, leaf: Any, more: tuple[str, ...]) -> list[Row]:
    by_id, children = _tree(_rows(conversation, more))
    return _path(by_id, children, by_id.get(leaf.int) if isinstance(leaf, uuid.UUID) else None)


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
        by_id, children = _tree(_rows(conversation, ("hidden", "usage_text")))
        leaf = by_id.get(branch.int) if isinstance(branch, uuid.UUID) else None
        found = _page_path(_path(by_id, children, leaf))
        if leaf is None:  # not a message of this conversation: the imported thread's key
            key = f"thread-path:{conversation.pk}:{count}:"
        cache.set(key, found)
    return found  # type: ignore[no-any-return]


def _page_path(path: list[Row]) -> PagePath:
    usage: dict[str, int] = {}
    for row in path:
        if row[4] is not None:  # the usage's JSON text (see _rows)
            for name, value in (orjson.loads(row[4]) or {}).items():
                if isinstance(value, int):
                    usage[name] = usage.get(name, 0) + value
    hidden = [row[0] for row in path if row[3]]
    every = b"".join([row[0].bytes for row in path])  # .bytes is Python: once per id
    if not hidden:
        return PagePath(every, every, hidden, usage)
    shown = b"".join(row[0].bytes for row in path if not row[3])
    return PagePath(every, shown, hidden, usage)


def _rows(conversation: models.Conversation, more: tuple[str, ...]) -> list[Row]:
    return list(
        models.Message.objects.filter(conversation=conversation)
        # Usage as its JSON text: most messages have none, and Django would decode the
        # column of every row, more than the rest of reading a long path cost.
        .annotate(usage_text=Cast("usage", output_field=TextField()))
        .order_by("position", "id")  # a replay shares its original's position; ids are
        .values_list(*_TREE_COLUMNS, *more)  # time-ordered, so siblings list in order
    )


def _tree(rows: list[Row]) -> tuple[dict[int, Row], dict[int | None, list[Row]]]:
    """The message rows by id, and each message's children in order (key None: roots)."""
    children: dict[int | None, list[Row]] = defaultdict(list)
    for row in rows:
        parent = row[1]
        children[parent.int if parent is not None else None].append(row)
    return {row[0].int: row for row in rows}, children


def _path(
    by_id: dict[int, Row], children: dict[int | None, list[Row]], leaf: Row | None
) -> list[Row]:
    """The ancestors of ``leaf``, ``leaf``, then its default descendants: the same replay
    run's answers first, else the imported thread's latest child."""
    path: list[Row] = []
    node = leaf
    while node is not None:
        path.append(node)
        node = by_id.get(node[1].int) if node[1] is not None else None
    path.reverse()
    node = leaf if leaf is not None else _default_child(children[None], None)
    if leaf is None and node is not None:
        path.append(node)
    while node is not None:
        node = _default_child(children[node[0].int], node[2])
        if node is not None:
            path.append(node)
    return path


def _default_child(options: list[Row], run_id: Any) -> Row | None:
    for row in reversed(options):
        if row[2] == run_id:
            return row
    return None
