"""The trash and exports from the pages, without a browser: a deletion offers its undo
once, "all that match" follows the list's filters, nothing ticked is said, and an export
of the results is a job whose page links its file."""

from __future__ import annotations

from typing import Any

import pytest

from conversations import models
from tests.conversations.helpers import html, logged_in, store, tool_conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(alice: Any) -> list[Any]:
    return [store(alice, tool_conversation(1, tag), title=f"Chat {tag}") for tag in "abc"]


def live_titles(owner: Any) -> set[str]:
    return set(
        models.Conversation.objects.filter(owner=owner, deleted_at__isnull=True).values_list(
            "title", flat=True
        )
    )


def test_a_deletion_offers_its_undo_once(alice: Any, stored: list[Any]) -> None:
    client = logged_in(alice)
    response = client.post("/trash/add/", {"ids": [stored[0].pk], "next": "/?sort=title"})
    assert response.status_code == 302 and response["Location"] == "/?sort=title"
    page = html(client.get("/?sort=title"))
    assert "Moved 1 conversation to the trash." in page
    assert "Moved 1" not in html(client.get("/"))  # once

    deleted_at = models.Conversation.objects.get(pk=stored[0].pk).deleted_at
    assert deleted_at is not None
    client.post("/trash/restore/", {"deleted_at": deleted_at.isoformat(), "next": "/"})
    assert live_titles(alice) == {"Chat a", "Chat b", "Chat c"}


def test_all_that_match_follows_the_filters_sent_with_it(alice: Any, stored: list[Any]) -> None:
    client = logged_in(alice)
    client.post("/trash/add/", {"all": "1", "q": "start b"})
    assert live_titles(alice) == {"Chat a", "Chat c"}


def test_nothing_ticked_is_said_and_nothing_changes(alice: Any, stored: list[Any]) -> None:
    client = logged_in(alice)
    page = html(client.post("/trash/add/", {"next": "/"}, follow=True))
    assert "Tick the conversations to delete first." in page
    assert len(live_titles(alice)) == 3


def test_the_trash_page_restores_and_purges(alice: Any, stored: list[Any]) -> None:
    client = logged_in(alice)
    client.post("/trash/add/", {"ids": [stored[0].pk, stored[1].pk]})
    page = html(client.get("/trash/"))
    assert "Chat a" in page and "Chat b" in page and "Chat c" not in page
    html(client.post("/trash/restore/", {"ids": [stored[0].pk]}, follow=True))
    page = html(client.post("/trash/purge/", {"all": "1"}, follow=True))
    assert "Deleted 1 conversation for good." in page
    assert set(models.Conversation.objects.values_list("title", flat=True)) == {"Chat a", "Chat c"}


def test_export_these_results_is_a_job_with_its_file(
    alice: Any, stored: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/exports/", {"all": "1", "q": "start b", "export_format": "umf"})
    job = models.ExportJob.objects.get()
    assert response["Location"] == f"/exports/{job.pk}/"
    page = html(client.get(response["Location"]))
    assert "Exported as umf" in page and f"/exports/{job.pk}/download/" in page
    assert (job.total, job.selection) == (1, {"filters": {"query": "start b"}})


def test_a_form_goes_back_only_to_a_page_of_this_site(alice: Any, stored: list[Any]) -> None:
    client = logged_in(alice)
    for path in ("/trash/add/", "/exports/"):
        response = client.post(path, {"next": "https://evil.example/"})
        assert response.status_code == 302 and response["Location"] == "/", path
