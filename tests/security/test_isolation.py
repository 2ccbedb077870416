"""Every route, for two users: nobody reaches another's conversations, messages,
attachments, replay runs, import jobs, exports or trash. The first test fails when a route
is added without a case here."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db

# Routes that read or change one owned object: (method, path); ids are filled in.
OWNED: dict[str, list[tuple[str, str]]] = {
    "api-conversation": [
        ("get", "/api/v1/conversations/{c}"),
        ("delete", "/api/v1/conversations/{c}"),
    ],
    "api-export": [("get", "/api/v1/conversations/{c}/export?format=umf")],
    "api-messages": [("get", "/api/v1/conversations/{c}/messages")],
    "api-replay-start": [("post", "/api/v1/conversations/{c}/replays")],
    "api-replay": [("get", "/api/v1/replays/{r}")],
    "api-import-job": [("get", "/api/v1/imports/{j}")],
    "conversation-detail": [("get", "/conversations/{c}/")],
    "export-download": [("get", "/conversations/{c}/export/?format=umf")],
    "export-warnings": [("get", "/conversations/{c}/export/warnings/?format=umf")],
    "replay-start": [("post", "/conversations/{c}/replays/")],
    "replay-detail": [("get", "/conversations/{c}/replays/{r}/")],
    "replay-status": [("get", "/conversations/{c}/replays/{r}/status/")],
    "replay-turn-request": [("get", "/conversations/{c}/replays/{r}/turns/0/request/")],
    "attachment": [("get", "/attachments/{a}/")],
    "import-job": [("get", "/import/jobs/{j}/")],
    "import-job-status": [("get", "/import/jobs/{j}/status/")],
    "api-export-job": [("get", "/api/v1/exports/{e}")],
    "api-export-job-download": [("get", "/api/v1/exports/{e}/download")],
    "export-job": [("get", "/exports/{e}/")],
    "export-job-status": [("get", "/exports/{e}/status/")],
    "export-job-download": [("get", "/exports/{e}/download/")],
}
# Routes that list or search (must show only the caller's own objects).
LISTS: dict[str, str] = {
    "api-conversations": "/api/v1/conversations?q=umbrella",
    "api-replays": "/api/v1/replays?conversation={c}",
    "api-imports": "/api/v1/imports",
    "conversation-list": "/?q=umbrella",
    "conversation-count": "/conversations/count/?q=umbrella",
    "filter-suggestions": "/conversations/suggest/tool/?tool=get",
    "api-trash": "/api/v1/trash",
    "trash": "/trash/",
    "api-exports": "/api/v1/exports",
    "exports": "/exports/",
}
# Routes that act on conversations named in their body: test_ids_of_anothers_in_trash_and_
# export_bodies_are_refused.
BODIES = {
    "api-trash-restore",
    "api-trash-purge",
    "trash-add",
    "trash-restore",
    "trash-purge",
}
# Routes with no owned object in the path: they act on the caller's own data or none.
UNOWNED = {
    "api-formats",
    "api-import",
    "api-import-batch",
    "api-providers",
    "api-convert",
    "schema",
    "api-docs",
    "login",
    "logout",
    "import",
}


def route_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], namespace: str | None) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue  # the admin is for staff only: tests/conversations/test_admin*
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern):
                names.add(pattern.name or str(pattern.pattern))

    walk(get_resolver().url_patterns, None)
    return names


def test_every_route_has_an_isolation_case() -> None:
    covered = set(OWNED) | set(LISTS) | UNOWNED | BODIES
    assert route_names() - covered == set()


@pytest.fixture
def alices(api: APIClient, alice: Any, django_capture_on_commit_callbacks: Any) -> dict[str, str]:
    payload = load_fixture("umf/seed-tool-calling.json")  # holds a base64 image
    response = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": payload}, format="json"
    )
    weather = api.post(
        "/api/v1/conversations/import",
        {"format": "umf", "payload": load_fixture("umf/weather-tools.json")},
        format="json",
    ).json()["conversations"][0]["id"]
    conversation = response.json()["conversations"][0]["id"]
    with django_capture_on_commit_callbacks(execute=True):
        run = api.post(
            f"/api/v1/conversations/{weather}/replays",
            {"provider": "echo", "model": "echo-1"},
            format="json",
        ).json()["id"]
        upload = io.BytesIO(b'[{"role": "user", "content": "hello"}]')
        upload.name = "hello.json"
        job = api.post("/api/v1/imports/", {"file": upload, "format": "umf"}, format="multipart")
        export = api.post("/api/v1/exports", {"format": "umf"}, format="json").json()["id"]
    trashed = api.post(
        "/api/v1/conversations/import",
        {"format": "umf", "payload": [{"role": "user", "content": "Trashed umbrella"}]},
        format="json",
    ).json()["conversations"][0]["id"]
    deleted_at = api.post("/api/v1/trash", {"ids": [trashed]}, format="json").json()["deleted_at"]
    attachment = models.Attachment.objects.get().sha256
    return {
        "c": weather,
        "r": run,
        "j": job.json()["id"],
        "a": attachment,
        "image_c": conversation,
        "e": export,
        "t": trashed,
        "deleted_at": deleted_at,
    }


def snapshot() -> tuple[int, ...]:
    return (
        models.Conversation.objects.count(),
        models.Message.objects.count(),
        models.ReplayRun.objects.count(),
        models.ImportJob.objects.count(),
        models.ExportJob.objects.count(),
        models.Conversation.objects.filter(deleted_at__isnull=False).count(),
    )


@pytest.mark.parametrize(("route", "case"), [(r, c) for r, cases in OWNED.items() for c in cases])
def test_another_user_gets_404_and_changes_nothing(
    bob: Any, alices: dict[str, str], route: str, case: tuple[str, str]
) -> None:
    method, template = case
    before = snapshot()
    for client in (APIClient(), Client()):
        client.force_login(bob)
        body = {"provider": "echo", "model": "echo-1"}
        response = (
            getattr(client, method)(template.format(**alices), body)
            if method == "post"
            else getattr(client, method)(template.format(**alices))
        )
        assert response.status_code == 404, (route, client, response.status_code)
    assert snapshot() == before


@pytest.mark.parametrize("route", sorted(LISTS))
def test_lists_show_nothing_of_anothers(bob: Any, alices: dict[str, str], route: str) -> None:
    client = Client()
    client.force_login(bob)
    response = client.get(LISTS[route].format(**alices))
    assert response.status_code == 200
    body = response.content.decode()
    mine = (alices["c"], alices["r"], alices["j"], alices["e"], alices["t"])
    for value in (*mine, "Umbrella for Paris", "Trashed umbrella", "get_forecast"):
        assert value not in body, (route, value)
    assert "1 conversation" not in body  # the count is of one's own


def test_ids_of_anothers_in_bodies_are_refused(bob_api: APIClient, alices: dict[str, str]) -> None:
    own = bob_api.post(
        "/api/v1/conversations/import",
        {"format": "umf", "payload": [{"role": "user", "content": "mine"}]},
        format="json",
    ).json()["conversations"][0]["id"]
    alices_message = models.Message.objects.filter(conversation_id=alices["c"]).first()
    assert alices_message is not None
    response = bob_api.post(
        f"/api/v1/conversations/{own}/replays",
        {"provider": "echo", "model": "echo-1", "from_message": str(alices_message.pk)},
        format="json",
    )
    assert response.status_code in (400, 422)
    assert response.json()["error"]["field"] == "from_message"
    assert not models.ReplayRun.objects.filter(conversation_id=own).exists()


def test_ids_of_anothers_in_trash_and_export_bodies_are_refused(
    bob: Any, bob_api: APIClient, alices: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    before = snapshot()
    api_cases = [
        ("/api/v1/trash", {"ids": [alices["c"]]}),
        ("/api/v1/trash/restore", {"ids": [alices["t"]]}),
        ("/api/v1/trash/purge", {"ids": [alices["t"]]}),
        ("/api/v1/exports", {"format": "umf", "ids": [alices["c"]]}),
    ]
    for path, body in api_cases:
        response = bob_api.post(path, body, format="json")
        assert response.status_code == 422, (path, response.status_code)
        assert response.json()["error"]["field"] == "ids"
    pages = Client()
    pages.force_login(bob)
    page_cases = [
        ("/trash/add/", {"ids": alices["c"]}),
        ("/trash/restore/", {"ids": alices["t"]}),
        ("/trash/purge/", {"ids": alices["t"]}),
        ("/exports/", {"ids": alices["c"], "export_format": "umf"}),
    ]
    for path, body in page_cases:
        assert pages.post(path, body).status_code == 404, path
    # Acting on one's own trash, or on everything that matches, never reaches another's.
    undo = {"deleted_at": alices["deleted_at"]}
    assert bob_api.post("/api/v1/trash/restore", undo, format="json").json() == {"count": 0}
    assert bob_api.delete("/api/v1/trash").json() == {"count": 0}
    assert bob_api.post("/api/v1/trash", {"filter": {}}, format="json").json()["trashed"] == 0
    pages.post("/trash/purge/", {"all": "1"})
    pages.post("/trash/add/", {"all": "1"})
    assert snapshot() == before
    with django_capture_on_commit_callbacks(execute=True):
        job = bob_api.post("/api/v1/exports", {"format": "umf", "filter": {}}, format="json")
    done = bob_api.get(f"/api/v1/exports/{job.json()['id']}").json()
    assert (done["status"], done["total"]) == ("succeeded", 0)


@pytest.mark.parametrize(("route", "case"), [(r, c) for r, cases in OWNED.items() for c in cases])
def test_anonymous_users_are_refused(
    alices: dict[str, str], route: str, case: tuple[str, str]
) -> None:
    method, template = case
    response = getattr(Client(), method)(template.format(**alices))
    assert response.status_code in (302, 401, 403), (route, response.status_code)
    if response.status_code == 302:
        assert response["Location"].startswith("/accounts/login/")
