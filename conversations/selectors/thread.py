"""The thread as the conversation page shows it: the path through the tree to a leaf,
its blocks, each drift warning placed on the message it concerns, usage totals."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from conversations import models
from providers import formats

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


@dataclass
class Thread:
    """One path through a conversation's tree, ready to show.

    ``messages`` are dicts (``THREAD_COLUMNS`` plus ``blocks``, ``siblings`` -- the ids of
    the message and its siblings in order, replay branches included -- ``warnings``,
    ``provenance`` and ``continuations``: replay answers hanging after it off the path).
    ``hidden`` are the path's hidden context (a profile, memories), kept apart: the page
    shows them only behind a disclosure.
    """

    conversation: models.Conversation
    messages: list[dict[str, Any]]
    hidden: list[dict[str, Any]]
    tools: list[models.ToolDefinition]
    warnings: list[models.DriftWarning]
    provenance: list[models.Provenance]
    usage: dict[str, int]


def conversation_thread(*, conversation: models.Conversation, leaf: Any = None) -> Thread:
    """The path through ``leaf`` (a message id; the imported thread by default), in five
    queries whatever the size: messages, the path's blocks, tools, warnings, provenance."""
    rows = list(
        models.Message.objects.filter(conversation=conversation)
        .order_by("position", "id")  # a replay shares its original's position; ids are
        .values(*THREAD_COLUMNS)  # time-ordered, so siblings list in the order they came
    )
    by_id, children = _tree(rows)
    path = _path(by_id, children, by_id.get(leaf))
    on_path = {row["id"] for row in path}
    for row in path:
        row["siblings"] = [sibling["id"] for sibling in children[row["parent_id"]]]
        row["continuations"] = [c for c in children[row["id"]] if c["id"] not in on_path]
        row["blocks"], row["warnings"], row["provenance"] = [], [], []
    _attach_blocks(path)
    warnings = list(models.DriftWarning.objects.filter(conversation=conversation))
    imported = [row for row in rows if row["replay_run_id"] is None]
    _place_warnings(warnings, by_id, imported, conversation.source_format)
    provenance = list(models.Provenance.objects.filter(conversation=conversation))
    for record in provenance:
        if record.message_id in by_id:
            by_id[record.message_id].setdefault("provenance", []).append(record)
    tools = list(models.ToolDefinition.objects.filter(conversation=conversation))
    usage = _sum_ints(row["usage"] for row in path)
    shown = [row for row in path if not row["hidden"]]
    hidden = [row for row in path if row["hidden"]]
    return Thread(conversation, shown, hidden, tools, warnings, provenance, usage)


PATH_COLUMNS = ("id", "parent_id", "replay_run_id")  # what a path through the tree needs


def thread_message_ids(*, conversation: models.Conversation, leaf: Any) -> set[Any]:
    """The ids of the messages on the path the page shows through ``leaf`` (ancestors,
    ``leaf``, its default descendants), in one query: what "this branch" means."""
    rows = list(
        models.Message.objects.filter(conversation=conversation)
        .order_by("position", "id")
        .values(*PATH_COLUMNS)
    )
    by_id, children = _tree(rows)
    return {row["id"] for row in _path(by_id, children, by_id.get(leaf))}


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


def _attach_blocks(path: list[dict[str, Any]]) -> None:
    """Fetch the path's blocks and pair each tool call with the result that answers it."""
    on_path = {row["id"]: row for row in path}
    blocks = models.ContentBlock.objects.filter(message_id__in=list(on_path)).order_by(
        "message_id", "index"
    )
    calls: dict[str, dict[str, Any]] = {}
    for message_id, block_type, text, payload, attachment_id in blocks.values_list(
        "message_id", "type", "text", "payload", "attachment_id"
    ):
        block = ShownBlock(payload, type=block_type, text=text, attachment=attachment_id)
        on_path[message_id]["blocks"].append(block)
    for row in path:  # in thread order, so a result always comes after its call
        for block in row["blocks"]:
            if block["type"] == "tool_use":
                calls[block.get("id", "")] = block
            elif block["type"] == "tool_result" and block.get("tool_use_id") in calls:
                calls[block["tool_use_id"]]["result"] = block
                block["paired"] = True


# Formats whose system prompt sits outside the message list: their ``messages[N]`` counts
# from the first non-system message of the stored thread.
_SYSTEM_APART = {"anthropic", "gemini", "bedrock-converse"}
_MESSAGE_INDEX = re.compile(
    r"^(?:\w+\.)?(?:messages|contents|conversations|chat_messages|request|input)?\[(\d+)\]"
)
# In a file of many conversations (an export), a field starts with the entry's place.
_ENTRY = re.compile(r"^\[\d+\]\.")
# ChatGPT exports name a message by its node in the mapping.
_NODE = re.compile(r"^mapping\.([^.\[]+)")


def warning_message_index(field: str | None, source_format: str, leading_system: int) -> int | None:
    """Best effort: which message of the imported thread a warning's ``field`` names
    (``messages[3].content[1]`` -> 3), or None when it names none. Import warnings
    count in the source document, which for some formats keeps the system prompt apart;
    a warning about a response (``candidates[0]``, ``response``) is about the last one."""
    if not field:
        return None
    if _holds_many(source_format):
        field = _ENTRY.sub("", field)
    if field.startswith(("response", "candidates", "output", "choices")):
        return -1
    found = _MESSAGE_INDEX.match(field)
    if found is None:
        return None
    index = int(found.group(1))
    return index + leading_system if source_format in _SYSTEM_APART else index


def _holds_many(source_format: str) -> bool:
    try:
        return formats.get(source_format).capabilities.multi_conversation
    except formats.FormatError:
        return False


def _place_warnings(
    warnings: list[models.DriftWarning],
    by_id: dict[Any, dict[str, Any]],
    imported: list[dict[str, Any]],
    source_format: str,
) -> None:
    """Put each warning on the message it concerns (when that message is on the path),
    marking it ``placed`` so the page lists the rest at the top."""
    leading_system = 0
    while leading_system < len(imported) and imported[leading_system]["role"] == "system":
        leading_system += 1
    by_source = {row["source_id"]: row for row in imported if row["source_id"]}
    for warning in warnings:
        target = by_id.get(warning.message_id)
        node = _NODE.match(_ENTRY.sub("", warning.field or ""))
        if target is None and node is not None:
            target = by_source.get(node.group(1))
        if target is None and warning.stage != models.DriftWarning.Stage.REPLAY:
            index = warning_message_index(warning.field, source_format, leading_system)
            if index is not None and -len(imported) <= index < len(imported):
                target = imported[index]
        warning.anchor = target["id"] if target is not None else None  # type: ignore[attr-defined]
        if target is not None and "warnings" in target:
            target["warnings"].append(warning)


def _sum_ints(usages: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in (usage or {}).items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total
