"""A newer data export of a conversation already archived: its new messages are added and
what it says of the whole conversation (ChatGPT's current branch, the update time, the
title and model) replaces the older version's, so re-exporting gives the newer export."""

from __future__ import annotations

import copy
import io
from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db

NEWER = load_fixture("chatgpt-export/branches_regenerated.json")[0]
LATEST = "c9b8a7d6-1111-4e00-8000-000000000007"


def older_version() -> dict[str, Any]:
    """The same conversation before its latest answer was written."""
    entry: dict[str, Any] = copy.deepcopy(NEWER)
    question = entry["mapping"][LATEST]["parent"]
    del entry["mapping"][LATEST]
    entry["mapping"][question]["children"] = []
    entry["update_time"] = 1709251400.5
    entry["title"] = "First language?"
    entry["default_model_slug"] = "gpt-4-older"
    return entry


def import_file(api: APIClient, capture: Any, entries: list[Any]) -> dict[str, Any]:
    file = io.BytesIO(orjson.dumps(entries))
    file.name = "conversations.json"
    with capture(execute=True):
        response = api.post(
            "/api/v1/imports/", {"file": file, "format": "auto"}, format="multipart"
        )
    assert response.status_code == 202, response.json()
    return dict(api.get(f"/api/v1/imports/{response.json()['id']}").json())


def test_a_newer_export_moves_the_current_branch_title_and_model(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    first = import_file(api, django_capture_on_commit_callbacks, [older_version()])
    [item] = first["items"]
    newer = {**NEWER, "current_node": LATEST, "update_time": 1709251403.0}
    second = import_file(api, django_capture_on_commit_callbacks, [newer])
    assert [i["status"] for i in second["items"]] == ["updated"]

    conversation = models.Conversation.objects.get(pk=item["conversation"])
    assert (conversation.title, conversation.model) == ("First language", "gpt-4")
    exported = api.get(f"/api/v1/conversations/{conversation.pk}/export?format=chatgpt-export")
    assert exported.json()["payload"] == [newer]


def test_a_title_given_at_import_is_kept_by_a_merge(api: APIClient) -> None:
    body = {"format": "chatgpt-export", "payload": [older_version()], "title": "Mine"}
    created = api.post("/api/v1/conversations/import", body, format="json").json()
    again = {"format": "chatgpt-export", "payload": [NEWER]}
    assert api.post("/api/v1/conversations/import", again, format="json").status_code == 200
    conversation = models.Conversation.objects.get(pk=created["conversations"][0]["id"])
    assert conversation.title == "Mine" and conversation.model == "gpt-4"
