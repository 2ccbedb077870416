"""The list page's helpers: the search syntax hint, the total count, headers that sort,
and model and tool filters that match by prefix with suggestions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversations.helpers import html, logged_in, replayed_from_page, store

pytestmark = pytest.mark.django_db


def chat(model: str, tool: str, text: str) -> dict[str, Any]:
    return {
        "model": model,
        "tools": [{"type": "function", "function": {"name": tool, "parameters": {}}}],
        "messages": [
            {"role": "user", "content": text},
            {"role": "assistant", "content": f"answer to {text}"},
        ],
    }


@pytest.fixture
def archive(alice: Any) -> Any:
    store(alice, chat("gpt-4o-mini", "get_weather", "small one"), "openai-chat", title="mini")
    store(alice, chat("gpt-4o", "get_time", "big one"), "openai-chat", title="full")
    store(alice, chat("o3", "search_web", "reasoning one"), "openai-chat", title="o3 chat")
    return alice


def test_the_search_box_says_its_syntax(alice: Any) -> None:
    page = html(logged_in(alice).get("/"))
    assert 'aria-describedby="search-hint"' in page
    assert '<code>"exact phrase"</code>' in page and "-word" in page and "this or that" in page


def test_model_and_tool_filters_match_by_prefix(archive: Any) -> None:
    client = logged_in(archive)
    both = html(client.get("/", {"model": "gpt-4o"}))
    assert "mini" in both and "full" in both and "o3 chat" not in both
    getters = html(client.get("/", {"tool": "get_"}))
    assert "mini" in getters and "full" in getters and "o3 chat" not in getters
    assert "o3 chat" in html(client.get("/", {"tool": "search"}))


def test_filters_suggest_names_by_prefix_from_ones_own_archive(archive: Any, bob: Any) -> None:
    store(bob, chat("gpt-4.1", "get_secret", "bob's"), "openai-chat")
    client = logged_in(archive)
    models = html(client.get("/conversations/suggest/model/", {"model": "gpt"}))
    assert models == '<option value="gpt-4o"></option><option value="gpt-4o-mini"></option>\n'
    tools = html(client.get("/conversations/suggest/tool/", {"tool": "get"}))
    assert "get_weather" in tools and "get_time" in tools and "get_secret" not in tools
    assert client.get("/conversations/suggest/owner/").status_code == 404


def test_the_list_counts_what_its_filters_match(archive: Any) -> None:
    client = logged_in(archive)
    page = html(client.get("/", {"model": "gpt"}))
    assert 'hx-get="/conversations/count/?model=gpt"' in page
    assert "2 conversations" in html(client.get("/conversations/count/", {"model": "gpt"}))
    assert "1 conversation<" in html(client.get("/conversations/count/", {"q": "reasoning"}))


def test_column_headers_sort_and_keep_the_filters(archive: Any) -> None:
    client = logged_in(archive)
    page = html(client.get("/", {"model": "gpt", "sort": "title", "page": "1"}))
    assert 'href="?model=gpt&amp;sort=messages"' in page
    assert 'aria-sort="ascending"><a href="?model=gpt&amp;sort=title">Title ↑' in page
    # The date header turns the order around.
    assert 'href="?model=gpt&amp;sort=newest"' in page
    newest = html(client.get("/"))
    assert 'href="?&amp;sort=oldest"' in newest and "Date ↓" in newest


def test_after_a_replay_the_list_keeps_the_conversations_own_model(
    archive: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from conversations import models

    mini = models.Conversation.objects.get(owner=archive, title="mini")
    client = logged_in(archive)
    run = replayed_from_page(client, django_capture_on_commit_callbacks, mini, "last")
    replayed = models.Message.objects.filter(replay_run=run).values_list("model", flat=True)
    assert run.status == "succeeded" and list(replayed) == ["echo-1"], (run.error, list(replayed))
    page = html(client.get("/"))
    assert "gpt-4o-mini" in page and "echo-1" not in page
    assert "No conversation matches" in html(client.get("/", {"model": "echo"}))
