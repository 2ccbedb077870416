"""Bulk imports store a batch together and never read twice what they stored already:
duplicates and newer versions inside one file, a re-import read by hash alone, a newer
export adding only what is new, and a collision with a concurrent import."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError
from rest_framework.test import APIClient

from conversations import models, records
from conversations.services import imports, storage
from providers.formats import chatgpt_export

pytestmark = pytest.mark.django_db


def node(node_id: str, parent: str, child: str | None, role: str, text: str) -> dict[str, Any]:
    return {
        "id": node_id,
        "message": {
            "id": node_id,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": 1.7e9,
            "content": {"content_type": "text", "parts": [text]},
            "status": "finished_successfully",
            "metadata": {},
            "recipient": "all",
        },
        "parent": parent,
        "children": [child] if child else [],
    }


def conversation(conversation_id: str, turns: int) -> dict[str, Any]:
    """A linear ChatGPT export entry of ``turns`` messages."""
    ids = [f"{conversation_id}-{n}" for n in range(turns)]
    mapping: dict[str, Any] = {
        "root": {"id": "root", "message": None, "parent": None, "children": ids[:1]}
    }
    for n, node_id in enumerate(ids):
        role = "user" if n % 2 == 0 else "assistant"
        child = ids[n + 1] if n + 1 < turns else None
        mapping[node_id] = node(node_id, ids[n - 1] if n else "root", child, role, f"{n}")
    return {
        "title": conversation_id,
        "create_time": 1.7e9,
        "mapping": mapping,
        "current_node": ids[-1],
        "conversation_id": conversation_id,
    }


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The conversation ids the ChatGPT reader reads."""
    seen: list[str] = []
    read = chatgpt_export.ARCHIVE.read

    def counting(entry: Any, *args: Any) -> Any:
        seen.append(entry["conversation_id"])
        return read(entry, *args)

    monkeypatch.setattr(chatgpt_export.ARCHIVE, "read", counting)
    return seen


def run(api: APIClient, capture: Any, entries: list[dict[str, Any]]) -> dict[str, Any]:
    file = io.BytesIO(json.dumps(entries).encode())  # json: orjson stops at 255 levels
    file.name = "conversations.json"
    with capture(execute=True):
        response = api.post("/api/v1/imports/", {"file": file}, format="multipart")
    assert response.status_code == 202, response.json()
    job: dict[str, Any] = api.get(f"/api/v1/imports/{response.json()['id']}").json()
    assert job["status"] == "succeeded", job
    return job


def counts(job: dict[str, Any]) -> tuple[int, int, int, int]:
    return job["created"], job["updated"], job["unchanged"], job["failed"]


def test_a_re_import_is_recognised_without_reading_a_conversation(
    api: APIClient, django_capture_on_commit_callbacks: Any, reads: list[str]
) -> None:
    export = [conversation(f"c{n}", 4) for n in range(250)]  # three batches
    assert counts(run(api, django_capture_on_commit_callbacks, export)) == (250, 0, 0, 0)
    assert len(reads) == 250
    reads.clear()

    again = run(api, django_capture_on_commit_callbacks, export)

    assert counts(again) == (0, 0, 250, 0)
    assert reads == []
    assert models.Message.objects.count() == 250 * 4


def test_a_newer_export_reads_and_adds_only_what_is_new(
    api: APIClient, django_capture_on_commit_callbacks: Any, reads: list[str]
) -> None:
    run(api, django_capture_on_commit_callbacks, [conversation("a", 4), conversation("b", 4)])
    reads.clear()

    newer = [conversation("a", 4), conversation("b", 6), conversation("c", 2)]
    job = run(api, django_capture_on_commit_callbacks, newer)

    assert counts(job) == (1, 1, 1, 0)
    assert sorted(reads) == ["b", "c"]
    b = models.Conversation.objects.get(source_key="b")
    assert (b.message_count, b.messages.count()) == (6, 6)
    assert models.Message.objects.count() == 4 + 6 + 2


def test_one_conversation_twice_in_a_file_is_stored_once(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    job = run(api, django_capture_on_commit_callbacks, [conversation("a", 4)] * 2)

    assert counts(job) == (1, 0, 1, 0)
    [first, second] = job["items"]
    assert first["conversation"] == second["conversation"]
    assert models.Message.objects.count() == 4


def test_an_older_and_a_newer_version_in_one_file_add_up(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    job = run(api, django_capture_on_commit_callbacks, [conversation("a", 2), conversation("a", 6)])

    assert counts(job) == (1, 1, 0, 0)
    stored = models.Conversation.objects.get()
    assert (stored.message_count, stored.messages.count()) == (6, 6)


def test_a_batch_that_collides_with_a_concurrent_import_is_saved_one_by_one(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def collide(many: Any) -> None:
        # As if another import stored "b" a moment before this batch's insert.
        storage.insert_rows(
            records.conversation_rows(
                User.objects.get(username="alice"),
                chatgpt_export.parse([conversation("b", 4)])[0],
                chatgpt_export.FORMAT,
                "another import's hash",
                None,
            ),
            new_conversation=True,
        )
        raise IntegrityError("conversation_unique_source_key")

    monkeypatch.setattr(imports, "insert_many", collide)
    job = run(api, django_capture_on_commit_callbacks, [conversation(n, 4) for n in "abc"])

    assert job["failed"] == 0
    assert models.Conversation.objects.count() == 3
    assert models.Message.objects.count() == 12
    assert all(item["conversation"] for item in job["items"])


def test_a_list_imported_by_the_api_is_recognised_by_a_bulk_import(
    api: APIClient, django_capture_on_commit_callbacks: Any, reads: list[str]
) -> None:
    export = [conversation("a", 4), conversation("b", 2)]
    response = api.post(
        "/api/v1/conversations/import",
        {"format": "chatgpt-export", "payload": export},
        format="json",
    )
    assert response.status_code == 201, response.json()
    reads.clear()

    job = run(api, django_capture_on_commit_callbacks, export)

    assert counts(job) == (0, 0, 2, 0)
    assert reads == []


def test_an_entry_too_deep_to_hash_is_a_failed_item_and_the_rest_import(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    deep: Any = "x"
    for _ in range(300):
        deep = [deep]
    broken = {**conversation("deep", 2), "extra": deep}
    job = run(api, django_capture_on_commit_callbacks, [broken, conversation("ok", 2)])

    assert counts(job) == (1, 0, 0, 1)
    assert "nested deeper" in job["items"][0]["error"]


def test_a_conversation_id_too_long_to_store_is_a_failed_item(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    long_id = "x" * 201
    job = run(
        api, django_capture_on_commit_callbacks, [conversation(long_id, 2), conversation("ok", 2)]
    )

    assert counts(job) == (1, 0, 0, 1)
    failed = job["items"][0]
    assert failed["field"] == "id" and "longer than 200" in failed["error"]
    assert failed["key"] == long_id[:200]
