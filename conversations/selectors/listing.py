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
from django.db.models.expressions import RawSQL

from conversations import models, search_syntax


def conversation_list(
    *,
    owner: User,
    source_format: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    tool: str | None = None,
    model_prefix: str | None = None,
    tool_prefix: str | None = None,
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
    or called; ``model_prefix`` and ``tool_prefix`` the same by the start of the name.
    ``query`` is full-text search over text, reasoning, tool arguments and results, with
    the same meaning on PostgreSQL and SQLite (:func:`message_matches`); on PostgreSQL
    it runs one query here, before the list's own. Never a conversation in the trash.
    """
    conversations = models.Conversation.objects.filter(models.LIVE, owner=owner)
    if source_format:
        conversations = conversations.filter(source_format=source_format)
    if provider:
        conversations = conversations.filter(provider=provider)
    if model:
        conversations = conversations.filter(_uses_model({"model": model}))
    if model_prefix:
        conversations = conversations.filter(_uses_model({"model__startswith": model_prefix}))
    if tool:
        conversations = conversations.filter(_uses_tool({"name": tool}))
    if tool_prefix:
        conversations = conversations.filter(_uses_tool({"name__startswith": tool_prefix}))
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


def conversation_count(*, owner: User, **filters: Any) -> int:
    """How many conversations :func:`conversation_list` gives for these filters."""
    return conversation_list(owner=owner, **filters).count()


def _uses_model(lookup: dict[str, str]) -> Q:
    # The conversation's own models: a replay's answers are another model's (issue 20.9).
    in_messages = models.Message.objects.filter(
        conversation=OuterRef("pk"), replay_run__isnull=True, **lookup
    )
    return Q(**lookup) | Q(Exists(in_messages))


def _uses_tool(lookup: dict[str, str]) -> Q:
    offered = models.ToolDefinition.objects.filter(conversation=OuterRef("pk"), **lookup)
    called = models.ToolCall.objects.filter(conversation=OuterRef("pk"), **lookup)
    return Q(Exists(offered)) | Q(Exists(called))


SUGGESTIONS = 20


def filter_suggestions(*, owner: User, field: str, prefix: str) -> list[str]:
    """Up to ``SUGGESTIONS`` names starting with ``prefix`` that the owner's ``model`` or
    ``tool`` filter can take: the models of their conversations, or the tools offered or
    called. One query, on the filters' own indexes."""
    sources: list[QuerySet[Any, str]]
    if field == "model":
        sources = [
            models.Conversation.objects.filter(models.LIVE, owner=owner, model__startswith=prefix)
            .exclude(model="")
            .values_list("model", flat=True),
        ]
    else:
        sources = [
            models.ToolDefinition.objects.filter(
                conversation__owner=owner,
                conversation__deleted_at__isnull=True,
                name__startswith=prefix,
            ).values_list("name", flat=True),
            models.ToolCall.objects.filter(
                conversation__owner=owner,
                conversation__deleted_at__isnull=True,
                name__startswith=prefix,
            ).values_list("name", flat=True),
        ]
    first, *others = [source.order_by() for source in sources]
    names = first.union(*others) if others else first.distinct()
    names = names.order_by("model" if field == "model" else "name")
    return [str(name) for name in names[:SUGGESTIONS]]


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
    matches = message_matches(query)
    if connection.vendor != "postgresql":
        return Exists(messages.filter(matches))
    matching = models.Message.objects.filter(matches).order_by()
    found = list(matching.values_list("conversation_id", flat=True)[: SEARCH_PROBE + 1])
    if len(found) <= SEARCH_PROBE:
        return Q(pk__in=set(found))
    return Exists(messages.filter(matches))


def message_matches(query: str) -> Q:
    """The messages ``query`` finds, with the same meaning on both databases
    (:mod:`conversations.search_syntax`): PostgreSQL's ``websearch_to_tsquery`` over
    ``search_vector``, or SQLite's FTS5 table ``message_fts`` (migration 0008)."""
    parsed = search_syntax.parse(query)
    if not parsed.groups:
        return Q(pk__in=[])  # nothing to look for (only punctuation)
    if connection.vendor == "postgresql":
        return Q(search_vector=_search_query(parsed))
    found = Q(pk__in=[])
    for group in search_syntax.expanded(parsed).groups:
        wanted = [search_syntax.fts5_phrase(t) for t in group if not t.negated]
        both = _fts5(" AND ".join(wanted)) if wanted else Q()
        for term in group:
            if term.negated:
                both &= ~_fts5(search_syntax.fts5_phrase(term))
        found |= both
    return found


def _fts5(expression: str) -> Q:
    return Q(pk__in=RawSQL(FTS5_MATCH, [expression]))


FTS5_MATCH = "SELECT message_id FROM message_fts WHERE message_fts MATCH %s"


def _search_query(parsed: search_syntax.SearchQuery) -> Any:
    from django.contrib.postgres.search import SearchQuery

    # The stored ``Message.search_vector`` is made with the same configuration.
    return SearchQuery(
        search_syntax.to_websearch(parsed), config="english", search_type="websearch"
    )


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
    """The models that answered in each conversation, in one query. Not a replay's: the
    list shows the conversation's own (a replay's model is on its run)."""
    rows = (
        models.Message.objects.filter(
            conversation_id__in=conversation_ids, model__isnull=False, replay_run__isnull=True
        )
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
    parsed = search_syntax.parse(query)
    # ts_headline highlights words as PostgreSQL splits them, which leaves CJK unmarked.
    if connection.vendor != "postgresql" or search_syntax.CJK_RUN.search(query):
        return _plain_search_hits(messages.filter(message_matches(query)), parsed)
    from django.contrib.postgres.search import SearchHeadline

    search = _search_query(parsed)
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


def _plain_search_hits(
    matching: QuerySet[models.Message], parsed: search_syntax.SearchQuery
) -> dict[Any, SearchHit]:
    """The first matching message of each conversation, its snippet around the first
    word of the query found in it as written (a stemmed match shows the text's start)."""
    hits: dict[Any, SearchHit] = {}
    words = [word.lower() for word in parsed.positive_words()]
    rows = matching.order_by("conversation_id", "position")
    for conversation_id, message_id, text in rows.values_list(
        "conversation_id", "id", "search_text"
    ):
        if conversation_id not in hits:
            hits[conversation_id] = SearchHit(message_id, _snippet(text, words))
    return hits


def _snippet(text: str, words: list[str]) -> str:
    lowered = text.lower()
    found = [(at, word) for word in words if (at := lowered.find(word)) >= 0]
    if not found:
        return text[:200]
    at, word = min(found)
    start, end = max(at - 80, 0), at + len(word)
    return f"{text[start:at]}{HIT_START}{text[at:end]}{HIT_STOP}{text[end : end + 120]}"
