"""The thread as the conversation page shows it: the path through the tree to a leaf,
a window of it (a conversation may hold 100,000 messages), its blocks, each drift warning
placed on the message it concerns, usage totals."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db.models import Q

from conversations import models
from conversations.selectors.thread_path import PagePath, Rows, page_path
from conversations.selectors.warning_places import place_warnings

THREAD_COLUMNS = (
    "id",
    "source_id",
    "parent_id",
    "position",
    "role",
    "name",
    "model",
    "timestamp",
    "finish_reason",
    "usage",
    "reasoning",
    "hidden",
    "metadata",
    "provider",
    "replay_run_id",
)
# Messages a page shows at most: past it, the page shows the window that holds the chosen
# message, with links to the others.
THREAD_WINDOW = 200


@dataclass
class Window:
    """Which part of the path a page shows: ``start`` and ``stop`` index the path's shown
    messages (``total`` of them), and the links to the other windows name the message
    each starts at (None where there is none)."""

    start: int
    stop: int
    total: int
    first: Any = None
    previous: Any = None
    next: Any = None
    last: Any = None

    @property
    def whole(self) -> bool:
        """True when the window is the whole path (the page needs no links to move)."""
        return self.start == 0 and self.stop == self.total


@dataclass
class Thread:
    """One path through a conversation's tree, ready to show.

    ``messages`` are the window's dicts (``THREAD_COLUMNS`` plus
    ``blocks``, ``siblings`` -- the ids of the message and its siblings in order, replay
    branches included -- ``warnings``, ``provenance`` and ``continuations``: replay
    answers hanging after it off the path). ``hidden`` are the path's hidden context (a
    profile, memories), kept apart: the page shows them only behind a disclosure.
    ``usage`` totals the whole path, not only the window.
    """

    conversation: models.Conversation
    messages: list[dict[str, Any]]
    hidden: list[dict[str, Any]]
    tools: list[models.ToolDefinition]
    warnings: list[models.DriftWarning]
    provenance: list[models.Provenance]
    usage: dict[str, int]
    window: Window


def conversation_thread(
    *,
    conversation: models.Conversation,
    leaf: Any = None,
    at: Any = None,
    size: int = THREAD_WINDOW,
) -> Thread:
    """The path through ``leaf`` (a message id; else through ``at``; else the imported
    thread), shown ``size`` messages at a time: the window that holds ``at`` (else
    ``leaf``, else the first). A bounded number of queries whatever the length, each
    reading about a window's rows: the path's version (and the path itself, when the
    cache does not hold it yet), the window's messages, the branches around them, their
    blocks, tools, warnings, provenance, the tool calls whose call and result fall in
    different windows (only when some do), and the imported thread's roles and ids (only
    when a warning names its message by its place in the source)."""
    path = page_path(conversation=conversation, branch=leaf)
    if leaf is None and at is not None and path.index(at) is None:
        path = page_path(conversation=conversation, branch=at)  # another branch's message
    window = _window(path, at, leaf, size)
    window_ids = path.shown_ids(window.start, window.stop)
    # Hidden messages may sit among the window's on the path: count them in.
    places = path.places(window_ids[0] if window_ids else None, size + len(path.hidden) + 1)
    detailed = _detailed(path.hidden + window_ids, places)
    by_id = {row["id"]: row for row in detailed}
    children = _children(conversation, detailed)
    for row in detailed:
        row["siblings"] = [sibling["id"] for sibling in children[row["parent_id"]]]
        following = path.id_at(places[row["id"]] + 1)
        row["continuations"] = [c for c in children[row["id"]] if c["id"] != following]
        row["blocks"], row["warnings"], row["provenance"] = [], [], []
    _attach_blocks(conversation, detailed, path, places, leaf)
    warnings = list(models.DriftWarning.objects.filter(conversation=conversation))
    place_warnings(warnings, by_id, partial(_imported, conversation), conversation.source_format)
    provenance = list(
        models.Provenance.objects.filter(conversation=conversation, message__isnull=True)
        | models.Provenance.objects.filter(message_id__in=list(by_id))
    )
    for record in provenance:
        if record.message_id is not None:
            by_id[record.message_id]["provenance"].append(record)
    tools = list(models.ToolDefinition.objects.filter(conversation=conversation))
    messages = [row for row in detailed if not row["hidden"]]
    hidden = [row for row in detailed if row["hidden"]]
    return Thread(conversation, messages, hidden, tools, warnings, provenance, path.usage, window)


def _detailed(wanted: list[Any], places: dict[Any, int]) -> Rows:
    """The rows the page shows (its hidden context and the window), in path order."""
    rows = models.Message.objects.filter(id__in=wanted).values(*THREAD_COLUMNS)
    return sorted(rows, key=lambda row: places[row["id"]])


def _children(conversation: models.Conversation, detailed: Rows) -> dict[Any, Rows]:
    """The children of the shown messages and of their parents (their siblings), in
    order: what the branch arrows and the replays continuing a message need."""
    ids = [row["id"] for row in detailed]
    parents = [row["parent_id"] for row in detailed if row["parent_id"] is not None]
    around = Q(parent_id__in=ids + parents)
    if any(row["parent_id"] is None for row in detailed):
        around |= Q(parent_id__isnull=True)
    rows = (
        models.Message.objects.filter(around, conversation=conversation)
        .order_by("position", "id")
        .values("id", "parent_id", "replay_run_id", "model")
    )
    children: dict[Any, Rows] = defaultdict(list)
    for row in rows:
        children[row["parent_id"]].append(dict(row))
    return children


def _imported(conversation: models.Conversation) -> Rows:
    """The imported thread's messages in order, as much as placing warnings needs."""
    rows = (
        models.Message.objects.filter(conversation=conversation, replay_run__isnull=True)
        .order_by("position")
        .values("id", "role", "source_id")
    )
    return [dict(row) for row in rows]


def _window(path: PagePath, at: Any, leaf: Any, size: int) -> Window:
    """The window of ``size`` shown messages that holds ``at`` (else ``leaf``, else the
    first), windows starting at multiples of ``size`` so that their links stay put."""
    total = path.total
    found = path.shown_index(at)
    index = found if found is not None else path.shown_index(leaf) or 0
    start = index - index % size
    stop = min(start + size, total)
    last_start = (total - 1) - (total - 1) % size if total else 0

    def starting(place: int) -> Any:
        if 0 <= place < total and place != start:
            return path.shown_ids(place, place + 1)[0]
        return None

    return Window(
        start,
        stop,
        total,
        first=starting(0),
        previous=starting(start - size),
        next=starting(start + size),
        last=starting(last_start),
    )


class ShownBlock(dict[str, Any]):
    """A block as the page shows it: its fields that the block does not have read as None.
    The block templates ask for optional fields (a call's result, a thinking block's
    signature...), and a key missing from a plain dict sends Django's variable lookup down
    its slow path: an exception and a ``dir()`` of the dict, several times a message."""

    def __missing__(self, key: str) -> None:
        return None


def _attach_blocks(
    conversation: models.Conversation,
    detailed: Rows,
    path: PagePath,
    places: dict[Any, int],
    leaf: Any,
) -> None:
    """Fetch the window's blocks and pair each tool call with the result that answers it,
    across windows too: a call shows its result even when the result's message is in a
    later window, and that result links to the window of its call."""
    by_id = {row["id"]: row for row in detailed}
    blocks = models.ContentBlock.objects.filter(message_id__in=list(by_id)).order_by(
        "message_id", "index"
    )
    for message_id, block_type, text, payload, attachment_id in blocks.values_list(
        "message_id", "type", "text", "payload", "attachment_id"
    ):
        block = ShownBlock(payload, type=block_type, text=text, attachment=attachment_id)
        by_id[message_id]["blocks"].append(block)
    calls: dict[str, dict[str, Any]] = {}
    unanswered: dict[str, dict[str, Any]] = {}
    orphans: dict[str, tuple[int, dict[str, Any]]] = {}
    for row in detailed:  # in thread order, so a result always comes after its call
        for block in row["blocks"]:
            if block["type"] == "tool_use":
                calls[block.get("id", "")] = unanswered[block.get("id", "")] = block
            elif block["type"] == "tool_result" and block.get("tool_use_id") in calls:
                calls[block["tool_use_id"]]["result"] = block
                unanswered.pop(block["tool_use_id"], None)
                block["paired"] = True
            elif block["type"] == "tool_result" and block.get("tool_use_id"):
                orphans[block["tool_use_id"]] = (places[row["id"]], block)
    if unanswered or orphans:
        _pair_across_windows(conversation, unanswered, orphans, path, leaf)


def _pair_across_windows(
    conversation: models.Conversation,
    unanswered: dict[str, dict[str, Any]],
    orphans: dict[str, tuple[int, dict[str, Any]]],
    path: PagePath,
    leaf: Any,
) -> None:
    """One query for the calls the window holds without their result, and the results it
    holds without their call, through the stored links (``ToolCall``) on the same path."""
    links = models.ToolCall.objects.filter(
        conversation=conversation, call_id__in=[*unanswered, *orphans]
    ).values_list(
        "call_id",
        "message_id",
        "result_block__message_id",
        "result_block__type",
        "result_block__text",
        "result_block__payload",
        "result_block__attachment_id",
    )
    for call_id, message_id, result_message, kind, text, payload, attachment in links:
        call_place = path.index(message_id)
        if call_place is None:
            continue
        if call_id in unanswered and path.index(result_message) is not None:
            result = ShownBlock(payload or {}, type=kind, text=text, attachment=attachment)
            unanswered[call_id]["result"] = result
        found = orphans.get(call_id)
        if found is not None and call_place < found[0]:
            found[1]["paired"] = True
            found[1]["call_window"] = {"at": message_id, "leaf": leaf}
