"""The trash over the API: delete to the trash, list it, restore (by id, or an action's
undo), purge; trashed conversations are out of the list, search, detail, export and
replays until restored, and purging deletes their rows (attachments only when no other
conversation uses them)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture
from tests.conversations.helpers import PNG_1PX, imported, run_upload

pytestmark = pytest.mark.django_db
UNKNOWN = "01a20180-dc9d-75a0-b49d-8de274b88d6b"


def listed(api: APIClient, path: str = "/api/v1/conversations/") -> set[str]:
    response = api.get(path)
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()["results"]}


def trash(api: APIClient, body: dict[str, Any]) -> Any:
    return api.post("/api/v1/trash", body, format="json")


def test_a_trashed_conversation_is_out_of_sight_but_kept(
    api: APIClient, archive: dict[str, str]
) -> None:
    pk = archive["weather"]
    response = trash(api, {"ids": [pk]})
    assert response.status_code == 200
    assert response.json()["trashed"] == 1

    assert pk not in listed(api)
    assert pk not in listed(api, "/api/v1/conversations/?q=umbrella")
    assert api.get(f"/api/v1/conversations/{pk}").status_code == 404
    assert api.get(f"/api/v1/conversations/{pk}/export?format=umf").status_code == 404
    replay = {"provider": "echo", "model": "echo-1"}
    assert api.post(f"/api/v1/conversations/{pk}/replays", replay, format="json").status_code == 404
    [row] = api.get("/api/v1/trash").json()["results"]
    assert (row["id"], row["deleted_at"]) == (pk, response.json()["deleted_at"])
    assert models.Message.objects.filter(conversation_id=pk).exists()


def test_undo_restores_what_one_action_trashed_and_nothing_else(
    api: APIClient, archive: dict[str, str]
) -> None:
    first = trash(api, {"ids": [archive["rust"]]}).json()
    second = trash(api, {"ids": [archive["weather"], archive["search"]]}).json()
    assert second["trashed"] == 2

    undone = api.post("/api/v1/trash/restore", {"deleted_at": second["deleted_at"]}, format="json")

    assert undone.json() == {"count": 2}
    assert listed(api) == {archive["weather"], archive["search"]}
    assert [row["id"] for row in api.get("/api/v1/trash").json()["results"]] == [archive["rust"]]
    assert first["trashed"] == 1


def test_select_all_that_match_trashes_what_the_filters_match(
    api: APIClient, archive: dict[str, str]
) -> None:
    response = trash(api, {"filter": {"q": "umbrella"}})
    assert response.json()["trashed"] == 1
    assert listed(api) == {archive["rust"], archive["search"]}


def test_restore_by_id_brings_it_back_to_the_list(api: APIClient, archive: dict[str, str]) -> None:
    trash(api, {"ids": [archive["rust"]]})
    restored = api.post("/api/v1/trash/restore/", {"ids": [archive["rust"]]}, format="json")
    assert restored.json() == {"count": 1}
    assert archive["rust"] in listed(api)
    assert api.get("/api/v1/trash/").json()["results"] == []


def test_emptying_the_trash_deletes_the_rows(api: APIClient, archive: dict[str, str]) -> None:
    trash(api, {"ids": [archive["weather"], archive["rust"]]})
    assert api.delete("/api/v1/trash").json() == {"count": 2}
    remaining = {str(pk) for pk in models.Conversation.objects.values_list("pk", flat=True)}
    assert remaining == {archive["search"]}
    assert not models.Message.objects.filter(conversation_id=archive["weather"]).exists()


def image_conversation(text: str) -> dict[str, Any]:
    source = {"type": "base64", "media_type": "image/png", "data": PNG_1PX}
    image = {"type": "image", "source": source}
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": text}, image]}]}


def test_purging_keeps_an_attachment_another_conversation_uses(api: APIClient) -> None:
    first = imported(api, image_conversation("one"), fmt="umf")
    second = imported(api, image_conversation("two"), fmt="umf")
    assert models.Attachment.objects.count() == 1

    trash(api, {"ids": [first]})
    api.post("/api/v1/trash/purge", {"ids": [first]}, format="json")
    assert models.Attachment.objects.count() == 1  # the second still shows it

    trash(api, {"ids": [second]})
    api.delete("/api/v1/trash")
    assert models.Attachment.objects.count() == 0


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/api/v1/trash", {}, 422, "ids"),
        ("/api/v1/trash", {"ids": ["not-an-id"]}, 400, "ids[0]"),
        ("/api/v1/trash", {"ids": []}, 400, "ids"),
        ("/api/v1/trash", {"ids": [UNKNOWN]}, 422, "ids"),
        ("/api/v1/trash", {"filter": {"started_after": "yesterday"}}, 400, "filter.started_after"),
        ("/api/v1/trash", {"ids": [UNKNOWN], "filter": {}}, 422, "filter"),
        ("/api/v1/trash/restore", {}, 422, "ids"),
        ("/api/v1/trash/restore", {"deleted_at": "soon"}, 400, "deleted_at"),
        ("/api/v1/trash/restore", {"ids": [UNKNOWN]}, 422, "ids"),
        ("/api/v1/trash/purge", {}, 400, "ids"),
        ("/api/v1/exports", {}, 400, "format"),
        ("/api/v1/exports", {"format": "word-doc"}, 400, "format"),
        ("/api/v1/exports", {"format": "umf", "ids": [UNKNOWN]}, 422, "ids"),
    ],
)
def test_bad_bodies_are_clear_errors_naming_the_field(
    api: APIClient, path: str, body: dict[str, Any], status: int, field: str
) -> None:
    response = api.post(path, body, format="json")
    assert response.status_code == status, response.content
    assert response.json()["error"]["field"] == field


def test_an_id_already_in_the_trash_cannot_be_trashed_again(
    api: APIClient, archive: dict[str, str]
) -> None:
    trash(api, {"ids": [archive["rust"]]})
    again = trash(api, {"ids": [archive["rust"], archive["search"]]})
    assert again.status_code == 422
    assert again.json()["error"]["ids"] == [archive["rust"]]
    assert archive["search"] in listed(api)  # all or nothing


def test_importing_a_trashed_conversation_again_brings_it_back(
    api: APIClient, archive: dict[str, str]
) -> None:
    trash(api, {"ids": [archive["weather"]]})
    again = imported(api, load_fixture("umf/weather-tools.json"))
    assert again == archive["weather"]
    assert archive["weather"] in listed(api)
    assert api.get("/api/v1/trash").json()["results"] == []


def test_a_file_holding_a_trashed_conversation_brings_it_back(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    content = orjson.dumps(load_fixture("umf/weather-tools.json"))
    first = run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)
    [pk] = [str(c.pk) for c in models.Conversation.objects.all()]
    trash(api, {"ids": [pk]})
    again = run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)
    assert (first["created"], again["unchanged"]) == (1, 1)
    assert pk in listed(api)
