"""A conversation's own dates (``started_at``, ``last_message_at``) come from its source,
never from the time it was imported, and drive the list, its sort and its date filters."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from django.apps import apps
from django.db import connection
from rest_framework.test import APIClient

from conversations import models
from conversations.source_dates import source_dates
from tests.conftest import load_fixture
from tests.conversations.helpers import html, logged_in, store

pytestmark = pytest.mark.django_db

MAY_2024 = 1715000000.5  # 2024-05-06T12:53:20.5Z


def chatgpt_entry(create_time: Any, update_time: Any) -> dict[str, Any]:
    entry: dict[str, Any] = copy.deepcopy(load_fixture("chatgpt-export/simple_text.json")[0])
    entry["create_time"], entry["update_time"] = create_time, update_time
    for node in entry["mapping"].values():
        if node.get("message"):  # the conversation's own times alone say when
            node["message"]["create_time"] = None
    return entry


def dated_messages(*days: int, text: str = "hello") -> dict[str, Any]:
    """A UMF conversation whose messages were written on these days of March 2023."""
    return {
        "messages": [
            {
                "role": "user",
                "content": f"{text} {day}",
                "timestamp": f"2023-03-{day:02d}T10:00:00Z",
            }
            for day in days
        ]
    }


def test_chatgpt_export_dates_are_its_create_and_update_times(alice: Any) -> None:
    stored = store(alice, [chatgpt_entry(MAY_2024, MAY_2024 + 3600)], "chatgpt-export")
    assert stored.started_at == datetime(2024, 5, 6, 12, 53, 20, 500000, tzinfo=UTC)
    assert stored.last_message_at == datetime(2024, 5, 6, 13, 53, 20, 500000, tzinfo=UTC)
    assert stored.created_at.year > 2024  # the import time stays apart


def test_claude_export_dates_are_its_created_and_updated_at(alice: Any) -> None:
    stored = store(alice, load_fixture("claude-export/older_text_only.json"), "claude-export")
    entry = load_fixture("claude-export/older_text_only.json")
    entry = entry[0] if isinstance(entry, list) else entry
    assert stored.started_at == datetime.fromisoformat(entry["created_at"])
    assert stored.last_message_at == datetime.fromisoformat(entry["updated_at"])


def test_without_a_conversation_time_the_messages_give_the_dates(alice: Any) -> None:
    stored = store(alice, dated_messages(5, 3, 9, 4))
    # The earliest and the latest written, wherever they stand in the thread.
    assert stored.started_at == datetime(2023, 3, 3, 10, tzinfo=UTC)
    assert stored.last_message_at == datetime(2023, 3, 9, 10, tzinfo=UTC)


def test_a_source_without_any_time_has_no_dates(alice: Any) -> None:
    stored = store(alice, load_fixture("openai-chat/bare_messages.json"), "openai-chat")
    assert stored.started_at is None and stored.last_message_at is None


def test_source_dates_take_naive_times_as_utc_and_ignore_unreadable_update_times() -> None:
    naive = datetime(2023, 1, 2, 3, 4)
    first, last = source_dates(
        format_id="claude-export",
        started=naive,
        extra={"claude-export": {"updated_at": "not a time"}},
        message_times=[None],
    )
    assert first == last == naive.replace(tzinfo=UTC)


def test_a_newer_export_moves_the_last_message_date(alice: Any) -> None:
    first = store(alice, [chatgpt_entry(MAY_2024, MAY_2024 + 60)], "chatgpt-export")
    newer = chatgpt_entry(MAY_2024, MAY_2024 + 86400)
    newer["title"] = "renamed since"
    again = store(alice, [newer], "chatgpt-export")
    assert again.pk == first.pk
    again.refresh_from_db()
    assert again.last_message_at == datetime(2024, 5, 7, 12, 53, 20, 500000, tzinfo=UTC)


def test_api_outputs_and_filters_by_the_conversations_own_dates(api: APIClient, alice: Any) -> None:
    store(alice, [chatgpt_entry(MAY_2024, MAY_2024 + 60)], "chatgpt-export")
    store(alice, dated_messages(3, 4), title="march 2023")
    store(alice, load_fixture("openai-chat/bare_messages.json"), "openai-chat", title="undated")
    everything = api.get("/api/v1/conversations").json()["results"]
    by_title = {row["title"]: row for row in everything}
    assert by_title["march 2023"]["started_at"] == "2023-03-03T10:00:00Z"
    assert by_title["march 2023"]["last_message_at"] == "2023-03-04T10:00:00Z"
    assert by_title["undated"]["started_at"] is None
    assert by_title["undated"]["created_at"] is not None
    in_2024 = api.get("/api/v1/conversations?started_after=2024-01-01T00:00:00Z").json()
    assert [row["title"] for row in in_2024["results"]] == ["Runny yolk timing"]
    before = api.get("/api/v1/conversations?started_before=2024-01-01T00:00:00Z").json()
    assert [row["title"] for row in before["results"]] == ["march 2023"]
    bad = api.get("/api/v1/conversations?started_after=last-may")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "started_after"


def test_schema_documents_the_dates_and_their_filters(api: APIClient) -> None:
    schema = orjson.loads(
        api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content
    )
    summary = schema["components"]["schemas"]["ConversationSummary"]["properties"]
    assert summary["started_at"]["nullable"] is True
    assert "last_message_at" in summary
    listing = schema["paths"]["/api/v1/conversations/"]["get"]["parameters"]
    assert {"started_after", "started_before"} <= {p["name"] for p in listing}


def test_list_sorts_shows_and_filters_by_the_conversations_own_date(alice: Any) -> None:
    store(alice, dated_messages(3, text="old one"), title="march 2023")
    store(alice, [chatgpt_entry(MAY_2024, MAY_2024 + 60)], "chatgpt-export")
    store(alice, load_fixture("openai-chat/bare_messages.json"), "openai-chat", title="undated")
    client = logged_in(alice)
    newest = html(client.get("/"))
    # Imported last, the March 2023 chat still comes after May 2024; undated ones last.
    assert newest.index("Runny yolk") < newest.index("march 2023") < newest.index("undated")
    assert "2024-05-06 12:53" in newest and "no date" in newest
    oldest = html(client.get("/?sort=oldest"))
    assert oldest.index("march 2023") < oldest.index("Runny yolk") < oldest.index("undated")
    in_2024 = html(client.get("/?after=2024-01-01&before=2024-12-31"))
    assert "Runny yolk" in in_2024 and "march 2023" not in in_2024 and "undated" not in in_2024


def test_the_migration_backfills_dates_from_stored_messages(alice: Any) -> None:
    from importlib import import_module

    migration = import_module("conversations.migrations.0011_conversation_dates")
    export = store(alice, [chatgpt_entry(MAY_2024, MAY_2024 + 60)], "chatgpt-export")
    messages = store(alice, dated_messages(3, 8))
    undated = store(alice, load_fixture("openai-chat/bare_messages.json"), "openai-chat")
    models.Conversation.objects.update(started_at=None, last_message_at=None)
    migration.backfill(apps, SimpleNamespace(connection=connection))
    export.refresh_from_db()
    messages.refresh_from_db()
    undated.refresh_from_db()
    assert export.started_at == datetime(2024, 5, 6, 12, 53, 20, 500000, tzinfo=UTC)
    assert export.last_message_at == datetime(2024, 5, 6, 12, 54, 20, 500000, tzinfo=UTC)
    assert (messages.started_at.day, messages.last_message_at.day) == (3, 8)
    assert undated.started_at is None and undated.last_message_at is None
