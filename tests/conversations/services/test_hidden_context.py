"""Hidden context of a 2026 ChatGPT export (the person's profile, custom instructions and
saved memories): stored for the exact round trip, and never on the page's thread, in a
search, in an export to another format or in a replay's request."""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest
from django.test import Client
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db

FIXTURE = "chatgpt-export/export_2026_hidden_context.json"
PRIVATE = ["Robin", "Lyon", "metric units", "half marathon.", "Knowledge cutoff"]


@pytest.fixture
def imported(api: APIClient) -> str:
    body = {"format": "chatgpt-export", "payload": load_fixture(FIXTURE)}
    response = api.post("/api/v1/conversations/import", body, format="json")
    assert response.status_code == 201, response.json()
    return str(response.json()["conversations"][0]["id"])


def leaks(value: Any) -> list[str]:
    text = value if isinstance(value, str) else orjson.dumps(value).decode()
    return [word for word in PRIVATE if word in text]


def test_hidden_context_is_stored_marked_hidden(api: APIClient, imported: str) -> None:
    detail = api.get(f"/api/v1/conversations/{imported}").json()
    hidden = [m["id"] for m in detail["conversation"]["messages"] if m.get("hidden")]
    assert hidden == ["sys-2026-0001", "sys-2026-0002", "ctx-2026-0003", "mem-2026-0004"]
    assert models.Message.objects.filter(conversation_id=imported, hidden=True).count() == 4
    conversation = models.Conversation.objects.get(pk=imported)
    assert conversation.model == "gpt-5-thinking"


def test_the_same_export_comes_back_exactly(api: APIClient, imported: str) -> None:
    exported = api.get(f"/api/v1/conversations/{imported}/export?format=chatgpt-export").json()
    assert exported["payload"] == load_fixture(FIXTURE)


def test_other_formats_leave_it_out_with_a_note(api: APIClient, imported: str) -> None:
    for target in ("openai-chat", "anthropic", "claude-export"):
        exported = api.get(f"/api/v1/conversations/{imported}/export?format={target}").json()
        assert not leaks(exported["payload"]), target
        notes = [w for w in exported["warnings"] if "hidden context" in w["message"]]
        assert len(notes) == 4 and {w["severity"] for w in notes} == {"info"}, target


def test_a_search_never_finds_it(api: APIClient, imported: str) -> None:
    assert api.get("/api/v1/conversations/?q=Robin").json()["results"] == []
    assert api.get("/api/v1/conversations/?q=Lyon").json()["results"] == []
    assert api.get("/api/v1/conversations/?q=metric").json()["results"] == []
    [found] = api.get("/api/v1/conversations/?q=watch").json()["results"]
    assert found["id"] == imported


def test_the_page_shows_it_only_behind_a_disclosure(
    client: Client, alice: Any, imported: str
) -> None:
    client.force_login(alice)
    html = client.get(f"/conversations/{imported}/").content.decode()
    disclosure = re.search(r'<details class="hidden-context.*?</details>', html, re.S)
    assert disclosure is not None and "Hidden context (4 messages)" in disclosure.group(0)
    assert "Robin" in disclosure.group(0)
    assert not leaks(html.replace(disclosure.group(0), ""))
    assert "5:19 per km" in html


def test_a_replay_never_sends_it(
    api: APIClient, imported: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            f"/api/v1/conversations/{imported}/replays",
            {"provider": "echo", "model": "echo-1", "mode": "each"},
            format="json",
        )
    assert response.status_code == 202, response.json()
    run = api.get(f"/api/v1/replays/{response.json()['id']}").json()
    assert run["status"] == "succeeded"
    originals = [turn["original_message"] for turn in run["turns"]]
    hidden = models.Message.objects.filter(conversation_id=imported, hidden=True)
    assert not set(originals) & {str(pk) for pk in hidden.values_list("pk", flat=True)}
    assert not leaks([turn["request"] for turn in run["turns"]])
    memory = hidden.get(source_id="mem-2026-0004")
    refused = api.post(
        f"/api/v1/conversations/{imported}/replays",
        {"provider": "echo", "model": "echo-1", "from_message": str(memory.pk)},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "from_message"
