"""A long conversation's page shows a window of its thread, says where it is, and links
to the other windows; a result whose call is in another window links to that window."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversations.helpers import html, logged_in, message_ids, store, tool_conversation

pytestmark = pytest.mark.django_db


def chat(count: int) -> list[dict[str, Any]]:
    return [
        {"id": f"m{i}", "role": ("user", "assistant")[i % 2], "content": f"message {i}"}
        for i in range(count)
    ]


def test_a_long_thread_opens_at_its_start_and_moves_by_windows(
    alice: Any, django_assert_num_queries: Any
) -> None:
    conversation = store(alice, chat(450))
    ids = message_ids(conversation)
    client = logged_in(alice)
    page = html(client.get(f"/conversations/{conversation.pk}/"))
    assert "Messages 1\u2013200 of 450" in page
    assert page.count('class="msg ') == 200
    assert f'href="?at={ids["m200"]}" rel="next"' in page
    assert f'href="?at={ids["m400"]}" rel="last"' in page
    # session, user, conversation, the path's version (the path is cached since the first
    # view), the window's messages, the branches around them, blocks, warnings,
    # provenance, tools, replay runs: the same as a short conversation's page
    with django_assert_num_queries(11):
        middle = html(client.get(f"/conversations/{conversation.pk}/?at={ids['m250']}"))
    assert "Messages 201\u2013400 of 450" in middle
    assert "message 250" in middle and "message 199<" not in middle
    assert f'href="?at={ids["m0"]}" rel="prev"' in middle


def test_a_result_links_to_the_window_of_its_call(alice: Any) -> None:
    # the question, then 100 calls each answered: the 100th call is message 199, its
    # result message 200, the first of the second window
    conversation = store(alice, tool_conversation(100, "w"))
    client = logged_in(alice)
    first = html(client.get(f"/conversations/{conversation.pk}/"))
    assert 'id="call-call_w_99"' in first
    assert first.count('<span class="badge ok">answered</span>') == 100
    second_at = first.split('rel="next"')[0].rsplit('href="?at=', 1)[1].split('"')[0]
    second = html(client.get(f"/conversations/{conversation.pk}/?at={second_at}"))
    call_message = first.split('id="call-call_w_99"')[0].rsplit('id="m-', 1)[1].split('"')[0]
    assert f'href="?at={call_message}#call-call_w_99"' in second
