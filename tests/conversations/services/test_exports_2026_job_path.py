"""2026 data exports through the job path (API upload -> job -> stored rows -> page and
export), built from the public descriptions of the layouts: a split ChatGPT zip beside
user.json, chat.html, export_manifest.json, shared_conversations.json,
message_feedback.json and conversation_asset_file_names.json, with .dat files, hidden
context, thoughts, a reasoning recap, canvas and code execution, in any member order;
and a split Claude.ai zip with web search results, an injected prompt and an empty
conversation."""

from __future__ import annotations

import base64
import hashlib
import itertools
from typing import Any

import orjson
import pytest
from django.test import Client
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture
from tests.conversations.helpers import run_upload, zip_of
from tests.providers.formats.claude_export.test_exports_2026 import EMPTY, INJECTED

pytestmark = pytest.mark.django_db

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PDF = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
IMAGE = "file_000000001d2a61f4b7c3e0a9d8f2c111"
HIDDEN_CONTEXT = load_fixture("chatgpt-export/export_2026_hidden_context.json")
SHARDS = [
    load_fixture("chatgpt-export/files/conversations-000.json")[:1],
    load_fixture("chatgpt-export/reasoning_thoughts.json") + HIDDEN_CONTEXT,
]


def chatgpt_members() -> list[tuple[str, bytes]]:
    index = {IMAGE: "watch.png", "file-PlanPdf2026aa": "training-plan.pdf"}
    return [
        ("user.json", b'{"id": "user-1", "email": "robin@example.com", "chatgpt_plus_user": true}'),
        ("export_manifest.json", b'{"version": 2, "files": ["conversations-000.json"]}'),
        ("conversation_asset_file_names.json", orjson.dumps(index)),
        ("chat.html", b"<html><body>Robin's chats</body></html>"),
        ("shared_conversations.json", b"[]"),
        ("message_feedback.json", b'[{"id": "f-1", "rating": "thumbsUp"}]'),
        *[(f"conversations-{n:03d}.json", orjson.dumps(shard)) for n, shard in enumerate(SHARDS)],
        (f"{IMAGE}.dat", PNG),
        ("file-PlanPdf2026aa.dat", PDF),
    ]


def test_a_2026_chatgpt_zip_imports_in_any_member_order(
    api: APIClient, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    members = chatgpt_members()
    orders = [
        members,
        members[::-1],
        list(itertools.islice(itertools.cycle(members), 3, 3 + len(members))),
    ]
    for order in orders:
        job = run_upload(api, django_capture_on_commit_callbacks, "export.zip", zip_of(order))
        assert job["status"] == "succeeded", job["error"]
        assert job["format"] == "chatgpt-export"
        assert sorted(item["status"] for item in job["items"]) in (
            ["created", "created", "created"],
            ["unchanged", "unchanged", "unchanged"],
        )
    assert models.Conversation.objects.count() == 3
    stored = models.Conversation.objects.get(source_key=HIDDEN_CONTEXT[0]["conversation_id"])
    assert stored.model == "gpt-5-thinking" and stored.title == "Half marathon pace"

    attachments = models.Attachment.objects.filter(blocks__message__conversation=stored).distinct()
    media = {attachment.media_type: attachment.sha256 for attachment in attachments}
    assert media == {
        "image/png": hashlib.sha256(PNG).hexdigest(),
        "application/pdf": hashlib.sha256(PDF).hexdigest(),
    }

    browser = Client()
    browser.force_login(alice)
    page = browser.get(f"/conversations/{stored.pk}/").content.decode()
    assert "Hidden context (4 messages)" in page
    assert page.count("Robin") == page.split("</details>", 1)[0].count("Robin")
    assert "training-plan.pdf" in page and "splits.xlsx" in page
    assert "5:19 per km" in page

    exported = api.get(f"/api/v1/conversations/{stored.pk}/export?format=chatgpt-export").json()
    assert exported["payload"] == HIDDEN_CONTEXT
    elsewhere = api.get(f"/api/v1/conversations/{stored.pk}/export?format=anthropic").json()
    assert "Robin" not in orjson.dumps(elsewhere["payload"]).decode()
    document = [
        b for b in elsewhere["payload"]["messages"][0]["content"] if b["type"] == "document"
    ]
    assert document[0]["source"] == {
        "type": "base64",
        "media_type": "application/pdf",
        "data": base64.b64encode(PDF).decode(),
    }


CLAUDE = load_fixture("claude-export/tools_thinking.json")


def test_a_split_claude_zip_imports_with_search_results_an_injected_prompt_and_an_empty_chat(
    api: APIClient, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    content = zip_of(
        [
            ("users.json", b'[{"uuid": "acc-1"}]'),
            ("projects.json", b"[]"),
            ("conversations-000.json", orjson.dumps(CLAUDE)),
            ("conversations-001.json", orjson.dumps([EMPTY, INJECTED])),
        ]
    )
    job = run_upload(api, django_capture_on_commit_callbacks, "export.zip", content)
    assert job["status"] == "succeeded", job["error"]
    assert job["format"] == "claude-export"
    # An empty conversation has nothing to archive: its item says so, the others import.
    [empty] = [item for item in job["items"] if item["status"] == "failed"]
    assert empty["key"] == EMPTY["uuid"] and "holds no message" in empty["error"]
    assert len(job["items"]) == len(CLAUDE) + 2
    searched = models.Conversation.objects.get(source_key=CLAUDE[0]["uuid"])
    [found] = api.get("/api/v1/conversations/?q=announce").json()["results"]
    assert found["id"] == str(searched.pk)
    browser = Client()
    browser.force_login(alice)
    page = browser.get(f"/conversations/{searched.pk}/").content.decode()
    assert "Announcing Rust 1.90.0" in page and "happy to announce" in page
    for entry in (*CLAUDE, INJECTED):
        stored = models.Conversation.objects.get(source_key=entry["uuid"])
        exported = api.get(f"/api/v1/conversations/{stored.pk}/export?format=claude-export")
        assert exported.json()["payload"] == [entry]
