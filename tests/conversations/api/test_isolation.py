"""Every object belongs to its owner: anyone else gets 404 and changes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from conversations import models
from tests.conversations.helpers import weather_imported

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_conversation(api: APIClient) -> str:
    return weather_imported(api)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/conversations/{pk}"),
        ("get", "/api/v1/conversations/{pk}/"),
        ("get", "/api/v1/conversations/{pk}/export?format=umf"),
        ("delete", "/api/v1/conversations/{pk}"),
    ],
)
def test_another_user_gets_404_and_changes_nothing(
    bob_api: APIClient, alices_conversation: str, method: str, path: str
) -> None:
    response = getattr(bob_api, method)(path.format(pk=alices_conversation))
    assert response.status_code == 404
    assert models.Conversation.objects.filter(pk=alices_conversation).exists()
    assert models.Message.objects.filter(conversation_id=alices_conversation).count() == 6


def test_lists_and_search_show_only_your_own(bob_api: APIClient, alices_conversation: str) -> None:
    for query in ["", "?q=umbrella", "?tool=get_forecast", "?format=umf"]:
        response = bob_api.get(f"/api/v1/conversations{query}")
        assert response.status_code == 200
        assert response.json()["results"] == []


def test_anonymous_requests_are_refused_everywhere(alices_conversation: str) -> None:
    anonymous = APIClient()
    for path in [
        "/api/v1/formats",
        "/api/v1/conversations",
        f"/api/v1/conversations/{alices_conversation}",
        f"/api/v1/conversations/{alices_conversation}/export",
    ]:
        assert anonymous.get(path).status_code == 401, path
    assert anonymous.post("/api/v1/convert", {}, format="json").status_code == 401
    assert anonymous.delete(f"/api/v1/conversations/{alices_conversation}").status_code == 401


def test_pages_require_login_and_hide_others(
    client: object, bob: object, alices_conversation: str
) -> None:
    from django.test import Client

    browser = Client()
    assert browser.get("/").status_code == 302
    browser.force_login(bob)  # type: ignore[arg-type]
    assert browser.get(f"/conversations/{alices_conversation}/").status_code == 404
    assert b"Umbrella" not in browser.get("/?q=umbrella").content
