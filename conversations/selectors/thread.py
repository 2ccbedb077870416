"""The thread as the conversation page shows it: the path through the tree to a leaf,
a window of it (a conversation may hold 100,000 messages), its blocks, each drift warning
placed on the message it concerns, usage totals."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from conversations import models
from conversations.selectors.warning_places import place_warnings

# The rest of the path is read with SKELETON_COLUMNS only (what the path, the branch
# arrows, the warnings' places and the usage totals need), and the messages of the window
# with WINDOW_COLUMNS too, so a page costs about the same whatever the conversation's length.
WINDOW_COLUMNS = (
    "name",
    "timestamp",
    "finish_reason",
    "reasoning",
    "metadata",
    "provider",
)
SKELETON_COLUMNS = (
    "id",
    "source_id",
    "parent_id",
    "position",
    "role",
    "model",
    "usage",
    "hidden",
    "replay_run_id",
)
THREAD_COLUMNS = SKELETON_COLUMNS + WINDOW_COLUMNS  # what a shown message has
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

    ``messages`` are the window's dicts (``THREAD_COLUMNS``,
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
    ``leaf``, else the first). Seven queries at most whatever the size: the path, the
    window's messages, their blocks, tools, warnings, provenance, and the tool calls
    whose call and result fall in different windows (only when some do)."""
    rows = _skeleton(conversation)
    by_id, children = _tree(rows)
    path = _path(by_id, children, by_id.get(leaf) or by_id.get(at))
    shown = [row for row in path if not row["hidden"]]
    window = _window(shown, by_id.get(at) or by_id.get(leaf), size)
    in_window = {row["id"] for row in shown[window.start : window.stop]}
    detailed = [row for row in path if row["hidden"] or row["id"] in in_window]
    _fill(detailed)
    on_path = {row["id"]: index for index, row in enumerate(path)}
    for row in detailed:
        row["siblings"] = [sibling["id"] for sibling in children[row["parent_id"]]]
        row["continuations"] = [c for c in children[row["id"]] if c["id"] not in on_path]
        row["blocks"], row["warnings"], row["provenance"] = [], [], []
    _attach_blocks(conversation, detailed, on_path, leaf)
    warnings = list(models.DriftWarning.objects.filter(conversation=conversation))
    imported = [row for row in rows if row["replay_run_id"] is None]
    place_warnings(warnings, by_id, imported, conversation.source_format)
    provenance = list(
        models.Provenance.objects.filter(conversation=conversation, message__isnull=True)
        | models.Provenance.objects.filter(message_id__in=[row["id"] for row in detailed])
    )
    for record in provenance:
        if record.message_id is not None:
            by_id[record.message_id]["provenance"].append(record)
    tools = list(models.ToolDefinition.objects.filter(conversation=conversation))
    usage = _sum_ints(row["usage"] for row in path)
    messages = [row for row in detailed if not row["hidden"]]
    hidden = [row for row in detailed if row["hidden"]]
    return Thread(conversation, messages, hidden, tools, warnings, provenance, usage, window)


def _skeleton(conversation: models.Conversation) -> Rows:
    return list(
        models.Message.objects.filter(conversation=conversation)
        .order_by("position", "id")  # a replay shares its original's position; ids are
        .values(*SKELETON_COLUMNS)  # time-ordered, so siblings list in the order they came
    )


def _fill(detailed: Rows) -> None:
    """Add what the page shows (``WINDOW_COLUMNS``) to the rows of the window."""
    by_id = {row["id"]: row for row in detailed}
    fetched = models.Message.objects.filter(id__in=list(by_id)).values("id", *WINDOW_COLUMNS)
    for values in fetched:
        by_id[values["id"]].update(values)


def _window(shown: Rows, chosen: dict[str, Any] | None, size: int) -> Window:
    """The window of ``size`` messages that holds ``chosen`` (the first when it is not
    shown), windows starting at multiples of ``size`` so that their links stay put."""
    total = len(shown)
    index = next((i for i, row in enumerate(shown) if row is chosen), 0)
    start = index - index % size
    stop = min(start + size, total)

    def starting(at: int) -> Any:
        return shown[at]["id"] if 0 <= at < total and at != start else None

    last_start = (total - 1) - (total - 1) % size if total else 0
    return Window(
        start,
        stop,
        total,
        first=starting(0),
        previous=starting(start - size),
        next=starting(start + size),
        last=starting(last_start),
    )


def thread_message_ids(*, conversation: models.Conversation, leaf: Any) -> set[Any]:
    """The ids of the messages on the path the page shows through ``leaf`` (ancestors,
    ``leaf``, its default descendants), in one query: what "this branch" means."""
    return {row["id"] for row in branch_rows(conversation=conversation, leaf=leaf)}


PATH_COLUMNS = ("id", "parent_id", "replay_run_id", "position")  # what a path needs


def branch_rows(*, conversation: models.Conversation, leaf: Any) -> Rows:
    """The path through ``leaf`` as rows of ``PATH_COLUMNS``, in order, in one query."""
    rows = list(
        models.Message.objects.filter(conversation=conversation)
        .order_by("position", "id")
        .values(*PATH_COLUMNS)
    )
    by_id, children = _tree(rows)
    return _path(by_id, children, by_id.get(leaf))


Rows = list[dict[str, Any]]


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


class ShownBlock(dict[str, Any]):
    """A block as the page shows it: its fields that the block does not have read as None.
    The block templates ask for optional fields (a call's result, a thinking block's
    signature...), and a key missing from a plain dict sends Django's variable lookup down
    its slow path: an exception and a ``dir()`` of the dict, several times a message."""

    def __missing__(self, key: str) -> None:
        return None


def _attach_blocks(
    conversation: models.Conversation, detailed: Rows, on_path: dict[Any, int], leaf: Any
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
                orphans[block["tool_use_id"]] = (on_path[row["id"]], block)
    if unanswered or orphans:
        _pair_across_windows(conversation, unanswered, orphans, on_path, leaf)


def _pair_across_windows(
    conversation: models.Conversation,
    unanswered: dict[str, dict[str, Any]],
    orphans: dict[str, tuple[int, dict[str, Any]]],
    on_path: dict[Any, int],
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
        if message_id not in on_path:
            continue
        if call_id in unanswered and result_message in on_path:
            result = ShownBlock(payload or {}, type=kind, text=text, attachment=attachment)
            unanswered[call_id]["result"] = result
        found = orphans.get(call_id)
        if found is not None and on_path[message_id] < found[0]:
            found[1]["paired"] = True
            found[1]["call_window"] = {"at": message_id, "leaf": leaf}


def _sum_ints(usages: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in (usage or {}).items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total
