"""The admin: staff see every conversation, read-only, with the thread rendered; replays
start from an action; the big tables never count in full."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from conversations import models
from conversations.admin import CappedCountPaginator
from tests.conftest import load_fixture
from tests.conversations.helpers import html, logged_in, store, tool_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.com", "pw")


def test_staff_see_everyones_conversations(staff: Any, alice: Any, bob: Any) -> None:
    store(alice, [{"role": "user", "content": "alice here"}], title="Alice's")
    store(bob, [{"role": "user", "content": "bob here"}], title="Bob's")
    page = html(logged_in(staff).get("/admin/conversations/conversation/"))
    assert "Alice&#x27;s" in page and "Bob&#x27;s" in page
    assert logged_in(alice).get("/admin/conversations/conversation/").status_code == 302


def test_change_page_renders_the_thread_with_the_page_templates(staff: Any, alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "adm"))
    page = html(
        logged_in(staff).get(f"/admin/conversations/conversation/{conversation.pk}/change/")
    )
    assert 'id="call-call_adm_0"' in page
    assert "<strong>bold</strong>" in page


def test_big_table_lists_open_without_full_counts(staff: Any, alice: Any) -> None:
    conversation = store(alice, tool_conversation(2, "big"))
    client = logged_in(staff)
    for path in [
        "/admin/conversations/message/",
        "/admin/conversations/contentblock/",
        "/admin/conversations/toolcall/",
        "/admin/conversations/driftwarning/",
        "/admin/conversations/replayrun/",
        "/admin/conversations/importjob/",
    ]:
        assert client.get(path).status_code == 200, path
    message = models.Message.objects.filter(conversation=conversation).first()
    assert message is not None
    assert client.get(f"/admin/conversations/message/{message.pk}/change/").status_code == 200


def test_capped_paginator_stops_counting(alice: Any) -> None:
    for index in range(3):
        store(alice, [{"role": "user", "content": f"number {index}"}])
    paginator = CappedCountPaginator(models.Conversation.objects.order_by("pk"), 5)
    paginator.CAP = 2
    assert paginator.count == 2


def test_replay_against_action(
    staff: Any, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    conversation = store(alice, load_fixture("umf/weather-tools.json"))
    client = logged_in(staff)
    url = "/admin/conversations/conversation/"
    form = client.post(url, {"action": "replay_against", "_selected_action": [conversation.pk]})
    assert "Start the replays" in html(form)
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            url,
            {
                "action": "replay_against",
                "_selected_action": [conversation.pk],
                "apply": "1",
                "provider": "echo",
                "model": "echo-1",
                "mode": "last",
            },
        )
    assert done.status_code == 302
    run = models.ReplayRun.objects.get(conversation=conversation)
    assert run.owner == alice and run.status == "succeeded"


def test_retry_action_requeues_failed_runs(
    staff: Any, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    conversation = store(alice, load_fixture("umf/weather-tools.json"))
    run = models.ReplayRun.objects.create(
        owner=alice, conversation=conversation, provider="echo", model="echo-1", status="failed"
    )
    models.ReplayTurn.objects.create(run=run, index=0, status="failed")
    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in(staff).post(
            "/admin/conversations/replayrun/", {"action": "retry", "_selected_action": [run.pk]}
        )
    assert response.status_code == 302
    run.refresh_from_db()
    assert run.status == "succeeded"
    assert Client().get("/admin/conversations/replayrun/").status_code == 302


def test_the_admin_is_read_only_for_staff_who_are_not_superusers(
    django_user_model: Any, alice: Any
) -> None:
    from django.contrib.auth.models import Permission

    conversation = store(alice, load_fixture("umf/weather-tools.json"))
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.set(Permission.objects.filter(content_type__app_label="conversations"))
    client = logged_in(clerk)
    url = "/admin/conversations/conversation/"
    listing = html(client.get(url))
    assert str(conversation.title)[:20] in listing and "replay_against" not in listing
    assert client.get(f"{url}{conversation.pk}/delete/").status_code == 403
    client.post(url, {"action": "delete_selected", "_selected_action": [conversation.pk]})
    client.post(url, {"action": "replay_against", "_selected_action": [conversation.pk]})
    assert models.Conversation.objects.filter(pk=conversation.pk).exists()
    assert not models.ReplayRun.objects.exists()
