"""The conversation list: filters, full-text search (its probe of the index, its
highlighted hits), sorts, and the models each row shows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from conversations import models


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
    started_after: datetime | None = None,
    started_before: datetime | None = None,
    query: str | None = None,
) -> QuerySet[models.Conversation]:
    """The owner's conversations, newest first, narrowed by the given filters.

    ``started_after`` / ``started_before`` bound the conversation's own start
    (``started_at``: a conversation with no date of its own matches neither);
    ``created_after`` / ``created_before`` the time it was imported.

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
    if started_after:
        conversations = conversations.filter(started_at__gte=started_after)
    if started_before:
        conversations = conversations.filter(started_at__lt=started_before)
    if query:
        conversations = conversations.filter(_search_filter(query))
    return conversations.order_by(*LIST_SORTS["newest"])


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


# By the conversation's own date; those without one after the dated ones, by import time
# (the indexes conversation_owner_started and conversation_owner_first).
LIST_SORTS: dict[str, tuple[Any, ...]] = {
    "newest": (F("started_at").desc(nulls_last=True), "-created_at", "-id"),
    "oldest": (F("started_at").asc(nulls_last=True), "created_at", "id"),
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
