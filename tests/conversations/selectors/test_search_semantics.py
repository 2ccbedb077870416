"""The search box means the same on PostgreSQL and on SQLite (``make run``'s default):
words are ANDed, "quoted phrases" are words in a row, -word excludes, ``or`` gives
alternatives, English words match their other forms, and a word inside Chinese or
Japanese text is found.

The suite runs this module on PostgreSQL; ``make test`` runs it once more on SQLite
(``DATABASE_URL=sqlite:///...``), where search is SQLite's FTS5.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from conversations import selectors
from conversations.search_syntax import Term, cjk_terms, parse, to_websearch
from tests.conversations.helpers import html, logged_in, store

pytestmark = pytest.mark.django_db

CORPUS = {
    "bat and ball": "A bat and a ball cost $1.10 in total; the bat costs one dollar more.",
    "bats at dusk": "Three bats flew out of the barn at dusk.",
    "ball games": "Ball games in the park: football, then tennis.",
    "tokyo weather": "東京の天気は晴れのち曇りです。",
    "rain today": "今日は雨が降っています",
    "python course": "这个Python教程很好\uff0c适合初学者。",
}

QUERIES = {
    "bat ball": {"bat and ball"},
    "bat dollar": {"bat and ball"},
    "bats": {"bat and ball", "bats at dusk"},  # a word matches its other forms
    "balls": {"bat and ball", "ball games"},
    '"ball cost"': {"bat and ball"},
    '"cost ball"': set(),
    "bat -dollar": {"bats at dusk"},
    "flew or tennis": {"bats at dusk", "ball games"},
    "ball -football or barn": {"bat and ball", "bats at dusk"},
    "BALL GAMES": {"ball games"},
    "zanzibar": set(),
    "天気": {"tokyo weather"},
    "東京": {"tokyo weather"},
    "曇り": {"tokyo weather"},
    "雨": {"rain today"},  # one character
    "降って": {"rain today"},
    "天気 -雨": {"tokyo weather"},
    "京天": set(),  # two characters that are not side by side
    "教程": {"python course"},
    "python": {"python course"},
    "Python教程": {"python course"},
    "天気 or 教程": {"tokyo weather", "python course"},
}


@pytest.fixture
def archive(alice: Any) -> Any:
    for title, text in CORPUS.items():
        store(alice, [{"role": "user", "content": text}], title=title)
    return alice


@pytest.mark.parametrize("query", list(QUERIES))
def test_search_finds_the_same_on_every_database(archive: Any, query: str) -> None:
    found = selectors.conversation_list(owner=archive, query=query)
    assert {c.title for c in found} == QUERIES[query], connection.vendor


def test_search_hits_mark_the_word_found(archive: Any) -> None:
    page = html(logged_in(archive).get("/", {"q": "天気"}))
    assert "<mark>天気</mark>" in page
    page = html(logged_in(archive).get("/", {"q": "bat -dollar"}))
    assert "<mark>bats</mark>" in page or "<mark>bat" in page


def test_a_query_of_punctuation_finds_nothing_and_is_no_error(archive: Any) -> None:
    assert not selectors.conversation_list(owner=archive, query='"" - -- or').exists()


def test_the_syntax_is_read_as_websearch() -> None:
    query = parse('fat "big rats" or -cats "unclosed')
    assert query.groups == [
        [Term(["fat"]), Term(["big", "rats"])],
        [Term(["cats"], negated=True), Term(["unclosed"])],
    ]
    assert to_websearch(parse("東京の天気 rain")) == '"東京 京の の天 天気" rain'
    assert to_websearch(parse("-雨")) == "-雨"


def test_cjk_text_is_stored_as_characters_and_pairs() -> None:
    assert cjk_terms("plain English") == ""
    assert cjk_terms("Python教程") == "教程 教 程 Python "


def test_sqlite_search_table_is_mended_after_a_migration_drops_its_triggers(archive: Any) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's FTS5 table")
    from conversations.sqlite_search import ensure_message_fts

    with connection.cursor() as cursor:  # as Django's copy of a changed table leaves it
        cursor.execute("DROP TRIGGER message_fts_insert")
        cursor.execute("DELETE FROM message_fts")
    assert ensure_message_fts(connection) is True
    assert ensure_message_fts(connection) is False  # nothing missing now
    store(archive, [{"role": "user", "content": "a new zebra"}], title="zebra")
    assert {c.title for c in selectors.conversation_list(owner=archive, query="天気 or zebra")} == {
        "tokyo weather",
        "zebra",
    }
