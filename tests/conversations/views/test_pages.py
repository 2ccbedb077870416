"""The browser pages: who sees what, what each page shows, and what it never does."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from conversations import models
from tests.conftest import load_fixture
from tests.conversations.helpers import (
    PNG_1PX,
    html,
    logged_in,
    store,
    tool_conversation,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def weather(alice: Any) -> Any:
    return store(alice, load_fixture("umf/weather-tools.json"))


def test_pages_need_a_login(weather: Any) -> None:
    for path in ["/", f"/conversations/{weather.pk}/", "/import/"]:
        response = Client().get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_login_page_and_logging_in(alice: Any) -> None:
    client = Client()
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get("/").status_code == 200


def test_each_person_sees_only_their_own_conversations(alice: Any, bob: Any) -> None:
    store(alice, [{"role": "user", "content": "alice's secret plan"}])
    store(bob, [{"role": "user", "content": "bob's shopping list"}])
    page = html(logged_in(bob).get("/"))
    assert "shopping list" in page
    assert "secret plan" not in page
    assert "secret plan" not in html(logged_in(bob).get("/?q=secret"))


def test_someone_elses_conversation_replay_and_import_are_404(
    alice: Any, bob: Any, weather: Any
) -> None:
    run = models.ReplayRun.objects.create(
        owner=alice, conversation=weather, provider="echo", model="echo-1"
    )
    job = models.ImportJob.objects.create(owner=alice, filename="x.json")
    client = logged_in(bob)
    for path in [
        f"/conversations/{weather.pk}/",
        f"/conversations/{weather.pk}/export/?format=umf",
        f"/conversations/{weather.pk}/export/warnings/?format=anthropic",
        f"/conversations/{weather.pk}/replays/{run.pk}/",
        f"/conversations/{weather.pk}/replays/{run.pk}/status/",
        f"/import/jobs/{job.pk}/",
        f"/import/jobs/{job.pk}/status/",
    ]:
        assert client.get(path).status_code == 404, path
    response = client.post(
        f"/conversations/{weather.pk}/replays/", {"provider": "echo", "model": "echo-1"}
    )
    assert response.status_code == 404
    assert models.ReplayRun.objects.count() == 1


def test_attachments_are_served_only_to_an_owner(alice: Any, bob: Any) -> None:
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": PNG_1PX},
    }
    pdf = {
        "type": "document",
        "title": "Report",
        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjQK"},
    }
    conversation = store(alice, [{"role": "user", "content": [image, pdf]}])
    sha_image, sha_pdf = (
        models.ContentBlock.objects.filter(message__conversation=conversation)
        .order_by("index")
        .values_list("attachment_id", flat=True)
    )
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert f'src="/attachments/{sha_image}/"' in page
    assert "data:image" not in page
    shown = logged_in(alice).get(f"/attachments/{sha_image}/")
    assert shown.status_code == 200
    assert shown["Content-Type"] == "image/png"
    assert shown["X-Content-Type-Options"] == "nosniff"
    assert "Content-Disposition" not in shown
    document = logged_in(alice).get(f"/attachments/{sha_pdf}/")
    assert document["Content-Type"] == "application/pdf"
    assert document["Content-Disposition"].startswith("attachment;")
    assert logged_in(bob).get(f"/attachments/{sha_image}/").status_code == 404
    assert logged_in(alice).get(f"/attachments/{'0' * 64}/").status_code == 404


def test_every_page_sends_a_strict_content_security_policy(alice: Any, weather: Any) -> None:
    client = logged_in(alice)
    for path in ["/", f"/conversations/{weather.pk}/", "/import/", "/accounts/login/"]:
        policy = client.get(path)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert "unsafe-inline" not in policy
        assert directives["object-src"] == "'none'"


def test_forms_are_csrf_protected(alice: Any, weather: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    posts = [
        ("/import/", {"format": "umf", "payload": '[{"role": "user", "content": "hi"}]'}),
        (f"/conversations/{weather.pk}/replays/", {"provider": "echo", "model": "echo-1"}),
    ]
    for path, data in posts:
        assert client.post(path, data).status_code == 403
    page = html(client.get("/import/"))
    assert 'name="csrfmiddlewaretoken"' in page
    assert '<meta name="csrf-token"' in page


def test_list_shows_each_conversations_summary(alice: Any, weather: Any) -> None:
    page = html(logged_in(alice).get("/"))
    assert weather.title in page
    assert "claude-sonnet-4-5" in page  # a model that answered
    assert f">{weather.message_count}<" in page
    assert weather.created_at.strftime("%Y-%m-%d") in page


def test_search_highlights_the_hit_and_links_to_the_message(alice: Any) -> None:
    conversation = store(alice, tool_conversation(2, "search"))
    store(alice, [{"role": "user", "content": "nothing to see"}])
    page = html(logged_in(alice).get("/?q=lookup"))
    assert "nothing to see" not in page
    hit = models.Message.objects.get(conversation=conversation, position=1)
    assert f"?leaf={hit.pk}#m-{hit.pk}" in page
    assert "<mark>lookup</mark>" in page
    detail = html(logged_in(alice).get(f"/conversations/{conversation.pk}/?leaf={hit.pk}"))
    assert f'id="m-{hit.pk}"' in detail


def test_filters_sorting_and_pages(alice: Any, settings: Any) -> None:
    store(alice, tool_conversation(1, "tools"), title="with tools")
    store(alice, load_fixture("openai-chat/bare_messages.json"), "openai-chat", title="chat one")
    client = logged_in(alice)
    assert "chat one" not in html(client.get("/?tool=lookup"))
    assert "with tools" in html(client.get("/?tool=lookup"))
    only_chat = html(client.get("/?format=openai-chat"))
    assert "chat one" in only_chat and "with tools" not in only_chat
    assert "with tools" not in html(client.get("/?provider=openai"))
    assert "No conversation matches" in html(client.get("/?after=2999-01-01"))
    # Neither source gives a date: a date filter leaves them out (tests/.../test_dates.py).
    assert "No conversation matches" in html(client.get("/?before=2999-01-01"))
    by_title = html(client.get("/?sort=title"))
    assert by_title.index("chat one") < by_title.index("with tools")
    oldest = html(client.get("/?sort=oldest"))
    assert oldest.index("with tools") < oldest.index("chat one")


def test_pagination_goes_on_without_counting(alice: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr("conversations.views.pages.PAGE_SIZE", 2)
    for index in range(5):
        store(alice, [{"role": "user", "content": f"conversation number {index}"}])
    client = logged_in(alice)
    first = html(client.get("/"))
    assert 'rel="next"' in first and 'rel="prev"' not in first
    last = html(client.get("/?page=3"))
    assert "conversation number 0" in last and 'rel="next"' not in last


def test_htmx_filtering_returns_only_the_results(alice: Any, weather: Any) -> None:
    response = logged_in(alice).get("/?q=umbrella", HTTP_HX_REQUEST="true")
    page = html(response)
    assert "<table" in page and "<html" not in page


@pytest.mark.parametrize(
    ("media_type", "served_as"),
    [
        ("image/svg+xml", "image/svg+xml"),
        ("audio/mpeg", "audio/mpeg"),
        ("text/plain", "text/plain"),
        ("Text/Plain; charset=utf-8", "text/plain"),
        ("application/javascript", "application/octet-stream"),
        ("text/javascript", "application/octet-stream"),
        ("text/css", "application/octet-stream"),
        ("text/html", "application/octet-stream"),
        ("application/json", "application/octet-stream"),
        ("image/png\nX-Injected: 1", "application/octet-stream"),
    ],
)
def test_an_attachment_is_served_under_its_own_type_only_from_an_allow_list(
    alice: Any, media_type: str, served_as: str
) -> None:
    # A type a user set must not make the file load as a same-origin script or stylesheet.
    document = {
        "type": "document",
        "source": {"type": "base64", "media_type": media_type, "data": "YWxlcnQoMSk="},
    }
    conversation = store(alice, [{"role": "user", "content": [document]}])
    sha = models.ContentBlock.objects.get(message__conversation=conversation).attachment_id
    served = logged_in(alice).get(f"/attachments/{sha}/")
    assert served.status_code == 200
    assert served["Content-Type"] == served_as
    assert served["X-Content-Type-Options"] == "nosniff"
    assert served["Content-Disposition"].startswith("attachment;")
