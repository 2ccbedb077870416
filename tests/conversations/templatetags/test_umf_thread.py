"""The thread's rendered-message cache: read when it holds a message, keyed so that
nothing the page shows can change without a new key."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.cache import caches

from conversations import models, selectors
from conversations.templatetags import umf_thread
from tests.conversations.helpers import html, logged_in, store, tool_conversation

pytestmark = pytest.mark.django_db


def thread_section(page: str) -> str:
    return page[page.index('<section class="thread"') : page.index("</section>")]


def page_keys(conversation: Any) -> list[str]:
    thread = selectors.conversation_thread(conversation=conversation)
    return [umf_thread.message_key(conversation.pk, message) for message in thread.messages]


def test_a_second_view_reads_the_messages_from_the_cache(alice: Any) -> None:
    conversation = store(alice, tool_conversation(2, "c"))
    client = logged_in(alice)
    first = html(client.get(f"/conversations/{conversation.pk}/"))
    keys = page_keys(conversation)
    stored = caches["render"].get_many(keys)
    assert len(stored) == len(keys) == 5
    assert all(part in first for part in stored.values())
    caches["render"].set(keys[0], '<p id="from-the-cache"></p>')
    assert 'id="from-the-cache"' in html(client.get(f"/conversations/{conversation.pk}/"))
    umf_thread.clear_render_caches()
    again = html(client.get(f"/conversations/{conversation.pk}/"))
    assert 'id="from-the-cache"' not in again
    assert thread_section(again) == thread_section(first)


def test_the_key_follows_what_the_page_shows(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "k"))
    thread = selectors.conversation_thread(conversation=conversation)
    message = thread.messages[1]
    key = umf_thread.message_key(conversation.pk, message)
    assert umf_thread.message_key(conversation.pk, copy.deepcopy(message)) == key
    edited = copy.deepcopy(message)
    edited["blocks"][1]["text"] = "another text"
    branched = {**message, "siblings": [*message["siblings"], models.uuid7()]}
    warned = {**message, "warnings": [models.DriftWarning(category="content-dropped", text="x")]}
    for changed in (edited, branched, warned):
        assert umf_thread.message_key(conversation.pk, changed) != key
    assert umf_thread.message_key(models.uuid7(), message) != key


def test_a_replayed_branch_is_shown_on_a_cached_thread(alice: Any) -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    conversation = store(alice, {"messages": messages})
    client = logged_in(alice)
    assert "1/2" not in html(client.get(f"/conversations/{conversation.pk}/"))
    original = models.Message.objects.get(conversation=conversation, position=1)
    run = models.ReplayRun.objects.create(
        owner=alice, conversation=conversation, provider="echo", model="echo-1"
    )
    models.Message.objects.create(
        conversation=conversation, parent=original.parent, position=1, role="assistant",
        replay_run=run,
    )  # fmt: skip
    assert "1/2" in html(client.get(f"/conversations/{conversation.pk}/"))
