"""The conversation page's thread, a window at a time: where the window is, the links to
the others, tool calls paired with results in other windows, in a fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest

from conversations import models, selectors
from conversations.services import replays
from tests.conversations.helpers import message_ids, store, tool_conversation

pytestmark = pytest.mark.django_db


def chat(count: int) -> list[dict[str, Any]]:
    return [
        {"id": f"m{i}", "role": ("user", "assistant")[i % 2], "content": f"message {i}"}
        for i in range(count)
    ]


def shown(thread: selectors.Thread) -> list[str]:
    return [row["source_id"] for row in thread.messages]


def test_the_first_window_by_default_with_links_to_the_next_and_the_end(alice: Any) -> None:
    conversation = store(alice, chat(10))
    ids = message_ids(conversation)
    thread = selectors.conversation_thread(conversation=conversation, size=4)
    window = thread.window
    assert shown(thread) == ["m0", "m1", "m2", "m3"]
    assert (window.start, window.stop, window.total, window.whole) == (0, 4, 10, False)
    assert (window.first, window.previous) == (None, None)
    assert (window.next, window.last) == (ids["m4"], ids["m8"])


def test_at_opens_the_window_that_holds_it(alice: Any) -> None:
    conversation = store(alice, chat(10))
    ids = message_ids(conversation)
    thread = selectors.conversation_thread(conversation=conversation, at=ids["m6"], size=4)
    assert shown(thread) == ["m4", "m5", "m6", "m7"]
    window = thread.window
    assert (window.first, window.previous, window.next, window.last) == (
        ids["m0"],
        ids["m0"],
        ids["m8"],
        ids["m8"],
    )
    last = selectors.conversation_thread(conversation=conversation, at=ids["m9"], size=4)
    assert shown(last) == ["m8", "m9"]
    assert (last.window.next, last.window.last) == (None, None)


def test_a_short_thread_is_one_whole_window(alice: Any) -> None:
    thread = selectors.conversation_thread(conversation=store(alice, chat(3)), size=4)
    assert thread.window.whole
    assert shown(thread) == ["m0", "m1", "m2"]


def test_the_usage_totals_the_whole_path_not_the_window(alice: Any) -> None:
    conversation = store(alice, tool_conversation(5, "u"))
    thread = selectors.conversation_thread(conversation=conversation, size=2)
    assert thread.usage == {"prompt_tokens": 50, "completion_tokens": 25}


def test_the_window_follows_the_branch_of_leaf(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    conversation = store(alice, chat(6))
    ids = message_ids(conversation)
    with django_capture_on_commit_callbacks(execute=True):
        run = replays.replay_start(
            owner=alice, conversation=conversation, provider="echo", model="echo-1"
        )
    replayed = run.messages.get()
    thread = selectors.conversation_thread(conversation=conversation, leaf=replayed.pk, size=4)
    assert [row["id"] for row in thread.messages][-1] == replayed.pk
    assert thread.window.first == ids["m0"]
    # ``at`` moves along the same branch
    start = selectors.conversation_thread(
        conversation=conversation, leaf=replayed.pk, at=ids["m0"], size=4
    )
    assert shown(start) == ["m0", "m1", "m2", "m3"]
    assert start.window.last == ids["m4"]


def test_a_call_shows_its_result_from_the_next_window_and_the_result_links_back(
    alice: Any, django_assert_num_queries: Any
) -> None:
    conversation = store(alice, tool_conversation(2, "w"))  # start, call, result, call, result
    # the path's version, the path, the window's messages, the branches around them,
    # blocks, the calls across windows, warnings, provenance, tools
    with django_assert_num_queries(9):
        first = selectors.conversation_thread(conversation=conversation, size=2)
    call = first.messages[1]["blocks"][-1]
    assert call["type"] == "tool_use" and call["result"]["tool_use_id"] == "call_w_0"
    second = selectors.conversation_thread(conversation=conversation, at=first.window.next, size=2)
    result = second.messages[0]["blocks"][0]
    assert result["paired"] is True
    assert result["call_window"] == {"at": first.messages[1]["id"], "leaf": None}


def test_a_window_without_calls_across_it_needs_no_more_queries(
    alice: Any, django_assert_num_queries: Any
) -> None:
    conversation = store(alice, tool_conversation(3, "n"))
    with django_assert_num_queries(8):
        selectors.conversation_thread(conversation=conversation, size=3)
    with django_assert_num_queries(7):  # the path, from the cache
        selectors.conversation_thread(conversation=conversation, size=3)


def test_a_new_message_is_a_new_path_never_a_stale_one(alice: Any) -> None:
    conversation = store(alice, chat(4))
    assert selectors.conversation_thread(conversation=conversation).window.total == 4
    last = models.Message.objects.get(conversation=conversation, source_id="m3")
    models.Message.objects.create(
        conversation=conversation, parent=last, position=4, role="user", source_id="m4"
    )
    thread = selectors.conversation_thread(conversation=conversation)
    assert thread.window.total == 5 and shown(thread)[-1] == "m4"
