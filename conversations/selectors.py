"""Reads. Each function decides its related-row fetching once, here, and runs a bounded
number of queries whatever the size of the conversation (tests pin the counts)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet

from conversations import models
from conversations.records import MESSAGE_COLUMNS, block_data, message_data, warning_from_row
from providers.umf import Conversation, DriftWarning


def conversation_list(
    *,
    owner: User,
    source_format: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    tool: str | None = None,
    has_warnings: bool | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    query: str | None = None,
) -> QuerySet[models.Conversation]:
    """The owner's conversations, newest first, narrowed by the given filters.

    ``model`` matches the conversation's model or any message's; ``tool`` a tool offered
    or called; ``query`` is full-text search over text, reasoning, tool arguments and
    results (PostgreSQL text search; a plain substring match on other databases), which
    runs one query here, before the list's own.
    """
    conversations = models.Conversation.objects.filter(owner=owner)
    if source_format:
        conversations = conversations.filter(source_format=source_format)
    if provider:
        conversations = conversations.filter(provider=provider)
    if model:
        in_messages = models.Message.objects.filter(conversation=OuterRef("pk"), model=model)
        conversations = conversations.filter(Q(model=model) | Exists(in_messages))
    if tool:
        offered = models.ToolDefinition.objects.filter(conversation=OuterRef("pk"), name=tool)
        called = models.ToolCall.objects.filter(conversation=OuterRef("pk"), name=tool)
        conversations = conversations.filter(Exists(offered) | Exists(called))
    if has_warnings is not None:
        conversations = (
            conversations.filter(warning_count__gt=0)
            if has_warnings
            else conversations.filter(warning_count=0)
        )
    if created_after:
        conversations = conversations.filter(created_at__gte=created_after)
    if created_before:
        conversations = conversations.filter(created_at__lt=created_before)
    if query:
        conversations = conversations.filter(_search_filter(query))
    return conversations.order_by("-created_at", "-id")


# Up to this many matching messages, a search lists their conversations by id.
SEARCH_PROBE = 100


def _search_filter(query: str) -> Q | Exists:
    """Conversations with a message matching ``query``. On PostgreSQL this asks the GIN
    index first (one query, a few ms whatever the word): when few messages match, their
    conversations are listed by id. Otherwise the page walks the conversations newest
    first and stops at the first page of matches. Left to choose, the planner walks them
    for rare words too, as it cannot tell how rare a word is, and a word no message
    holds then costs a look at every message (1.4 s for 2,000,000)."""
    messages = models.Message.objects.filter(conversation=OuterRef("pk"))
    if connection.vendor != "postgresql":
        return Exists(messages.filter(search_text__icontains=query))
    search = _search_query(query)
    matching = models.Message.objects.filter(search_vector=search).order_by()
    found = list(matching.values_list("conversation_id", flat=True)[: SEARCH_PROBE + 1])
    if len(found) <= SEARCH_PROBE:
        return Q(pk__in=set(found))
    return Exists(messages.filter(search_vector=search))


def _search_query(query: str) -> Any:
    from django.contrib.postgres.search import SearchQuery

    # The stored ``Message.search_vector`` is made with the same configuration.
    return SearchQuery(query, config="english", search_type="websearch")


def conversation_get(*, owner: User, conversation_id: Any) -> models.Conversation:
    """The owner's conversation with this id (``DoesNotExist`` for anyone else's)."""
    return models.Conversation.objects.get(owner=owner, pk=conversation_id)


@dataclass
class StoredConversation:
    """A stored conversation as UMF, with the warnings recorded when it was imported."""

    row: models.Conversation
    umf: Conversation
    import_warnings: list[DriftWarning]
    # The primary key of each row behind ``umf.messages``, in the same order.
    message_ids: list[Any]


def conversation_umf(*, conversation: models.Conversation) -> StoredConversation:
    """Load a stored conversation back into UMF, in five queries whatever its length.

    This is the thread as it was imported; the branches replays added are not part of it.
    Rows are fetched as plain values and validated into UMF in one pydantic call: building
    a model instance per row would cost more than the queries.
    """
    columns = [column for column, _ in MESSAGE_COLUMNS]
    messages = list(
        models.Message.objects.filter(conversation=conversation, replay_run__isnull=True)
        .order_by("position")
        .values_list("id", *columns)
    )
    blocks = list(
        models.ContentBlock.objects.filter(
            message__conversation=conversation, message__replay_run__isnull=True
        )
        # Grouped by message below: only the order within a message matters.
        .order_by("index")
        .values_list("message_id", "type", "text", "payload", "attachment_id")
    )
    attachments = _attachment_bytes({row[4] for row in blocks if row[4]})
    # Explicit orders: the models' default ones start with the conversation, a foreign key,
    # which orders by the conversation's own ordering through a join.
    tools = list(
        models.ToolDefinition.objects.filter(conversation=conversation)
        .order_by("position")
        .values("name", "description", "parameters", "extra")
    )
    warnings = list(
        models.DriftWarning.objects.filter(
            conversation=conversation, replay_run__isnull=True
        ).order_by("stage", "position")
    )
    blocks_by_message: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for message_id, block_type, text, payload, attachment_id in blocks:
        data = attachments.get(attachment_id) if attachment_id else None
        blocks_by_message[message_id].append(block_data(block_type, text, payload, data))
    recorded = [w for w in warnings if w.stage == models.DriftWarning.Stage.RECORD]
    document = {
        "messages": [message_data(row[1:], blocks_by_message[row[0]]) for row in messages],
        "tools": tools,
        "tool_choice": conversation.tool_choice,
        "parameters": conversation.parameters,
        "metadata": {
            **conversation.metadata,
            "warnings": [warning_from_row(w).model_dump(mode="json") for w in recorded],
        },
        "extra": conversation.extra,
    }
    import_warnings = [
        warning_from_row(w) for w in warnings if w.stage == models.DriftWarning.Stage.IMPORT
    ]
    return StoredConversation(
        conversation,
        Conversation.model_validate(document),
        import_warnings,
        [row[0] for row in messages],
    )


def _attachment_bytes(keys: set[str]) -> dict[str, bytes]:
    if not keys:
        return {}
    rows = models.Attachment.objects.filter(sha256__in=keys).values_list("sha256", "data")
    return {key: bytes(data) for key, data in rows}


def warnings_for(*, conversation: models.Conversation) -> list[models.DriftWarning]:
    """The warnings recorded for a conversation, in order."""
    return list(models.DriftWarning.objects.filter(conversation=conversation))


# --- Reads for the browser pages: the list's extras, the thread as a tree, replays. ---

LIST_SORTS = {
    "newest": ("-created_at", "-id"),
    "oldest": ("created_at", "id"),
    "title": ("title", "-created_at"),
    "messages": ("-message_count", "-created_at"),
    "warnings": ("-warning_count", "-created_at"),
}


def conversation_sorted(
    conversations: QuerySet[models.Conversation], sort: str
) -> QuerySet[models.Conversation]:
    """``conversations`` in one of the list's orders (``LIST_SORTS``; newest by default)."""
    return conversations.order_by(*LIST_SORTS.get(sort, LIST_SORTS["newest"]))


def conversation_models(*, conversation_ids: list[Any]) -> dict[Any, list[str]]:
    """The models that answered in each conversation (replays included), in one query."""
    rows = (
        models.Message.objects.filter(conversation_id__in=conversation_ids, model__isnull=False)
        .exclude(model="")
        .values_list("conversation_id", "model")
        .distinct()
    )
    found: dict[Any, set[str]] = defaultdict(set)
    for conversation_id, model in rows:
        found[conversation_id].add(str(model))
    return {key: sorted(value) for key, value in found.items()}


# Markers ts_headline puts around hits; the snippet is escaped before they become <mark>.
HIT_START, HIT_STOP = "\x1e[[hit]]", "[[/hit]]\x1e"


@dataclass
class SearchHit:
    """Where a search matched in one conversation: the first matching message and a
    snippet of its text (plain text with ``HIT_START``/``HIT_STOP`` around the hits)."""

    message_id: Any
    snippet: str


def search_hits(*, conversation_ids: list[Any], query: str) -> dict[Any, SearchHit]:
    """The first matching message of each conversation, in one query (ts_headline on
    PostgreSQL; a window of text around the first occurrence elsewhere)."""
    if not conversation_ids or not query:
        return {}
    messages = models.Message.objects.filter(conversation_id__in=conversation_ids)
    if connection.vendor != "postgresql":
        return _plain_search_hits(messages, query)
    from django.contrib.postgres.search import SearchHeadline

    search = _search_query(query)
    first_hits = (
        messages.filter(search_vector=search)
        .order_by("conversation_id", "position")
        .distinct("conversation_id")
        .values("id")
    )
    # ts_headline parses the whole text again: run it on the one hit shown per
    # conversation (the subquery), not on every message that matched.
    snippet = SearchHeadline(
        "search_text",
        search,
        config="english",
        start_sel=HIT_START,
        stop_sel=HIT_STOP,
        max_words=30,
        min_words=12,
    )
    rows = (
        models.Message.objects.filter(pk__in=first_hits)
        .order_by()  # a dict comes out: no join for the conversations' order
        .annotate(snippet=snippet)
        .values_list("conversation_id", "id", "snippet")
    )
    return {conv: SearchHit(message, snippet) for conv, message, snippet in rows}


def _plain_search_hits(messages: QuerySet[models.Message], query: str) -> dict[Any, SearchHit]:
    hits: dict[Any, SearchHit] = {}
    rows = messages.filter(search_text__icontains=query).order_by("conversation_id", "position")
    for conversation_id, message_id, text in rows.values_list(
        "conversation_id", "id", "search_text"
    ):
        if conversation_id in hits:
            continue
        at = text.lower().find(query.lower())
        start, end = max(at - 80, 0), at + len(query)
        snippet = f"{text[start:at]}{HIT_START}{text[at:end]}{HIT_STOP}{text[end : end + 120]}"
        hits[conversation_id] = SearchHit(message_id, snippet)
    return hits


THREAD_COLUMNS = (
    "id",
    "parent_id",
    "position",
    "role",
    "name",
    "model",
    "timestamp",
    "finish_reason",
    "usage",
    "reasoning",
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
    """

    conversation: models.Conversation
    messages: list[dict[str, Any]]
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
    children: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        children[row["parent_id"]].append(row)
    by_id = {row["id"]: row for row in rows}
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
    return Thread(conversation, path, tools, warnings, provenance, usage)


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
    r"^(?:\w+\.)?(?:messages|contents|conversations|request|input)?\[(\d+)\]"
)


def warning_message_index(field: str | None, source_format: str, leading_system: int) -> int | None:
    """Best effort: which message of the imported thread a warning's ``field`` names
    (``messages[3].content[1]`` -> 3), or None when it names none. Import warnings
    count in the source document, which for some formats keeps the system prompt apart;
    a warning about a response (``candidates[0]``, ``response``) is about the last one."""
    if not field:
        return None
    if field.startswith(("response", "candidates", "output", "choices")):
        return -1
    found = _MESSAGE_INDEX.match(field)
    if found is None:
        return None
    index = int(found.group(1))
    return index + leading_system if source_format in _SYSTEM_APART else index


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
    for warning in warnings:
        target = by_id.get(warning.message_id)
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


def replay_run_get(*, owner: User, run_id: Any, conversation_id: Any) -> models.ReplayRun:
    """The owner's run of that conversation (``DoesNotExist`` otherwise)."""
    return models.ReplayRun.objects.select_related("conversation").get(
        owner=owner, pk=run_id, conversation_id=conversation_id
    )


def replay_runs_of(*, conversation: models.Conversation, limit: int = 20) -> list[Any]:
    """The latest runs of a conversation, newest first."""
    return list(models.ReplayRun.objects.filter(conversation=conversation)[:limit])


@dataclass
class ComparedTurn:
    turn: models.ReplayTurn
    original: dict[str, Any] | None
    replay: dict[str, Any] | None


def replay_comparison(*, run: models.ReplayRun) -> list[ComparedTurn]:
    """Each turn of a run with its original and its replayed message (dicts with
    ``blocks``), in three queries: turns, messages, blocks."""
    turns = list(run.turns.order_by("index"))
    ids = [i for t in turns for i in (t.original_message_id, t.message_id) if i is not None]
    messages = {
        row["id"]: {**row, "blocks": []}
        for row in models.Message.objects.filter(pk__in=ids).values(*THREAD_COLUMNS)
    }
    blocks = models.ContentBlock.objects.filter(message_id__in=list(messages)).order_by(
        "message_id", "index"
    )
    for message_id, block_type, text, payload in blocks.values_list(
        "message_id", "type", "text", "payload"
    ):
        # ``detached``: shown apart from the thread, so no result is paired with a call.
        block = {**payload, "type": block_type, "text": text, "detached": True}
        messages[message_id]["blocks"].append(block)
    return [
        ComparedTurn(t, messages.get(t.original_message_id), messages.get(t.message_id))
        for t in turns
    ]


def attachment_for(*, owner: User, sha256: str) -> models.Attachment | None:
    """The attachment, if one of the owner's conversations refers to it (else None:
    attachments are shared by hash, so who may read one follows from the blocks)."""
    referenced = models.ContentBlock.objects.filter(
        attachment_id=OuterRef("pk"), message__conversation__owner=owner
    )
    return models.Attachment.objects.filter(Exists(referenced), sha256=sha256).first()
