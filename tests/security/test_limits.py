"""Limits: rate limits on imports and replays (429 with Retry-After), capped page sizes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters() -> None:
    cache.clear()


def test_imports_past_the_rate_get_429_with_retry_after(api: APIClient, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "3/min", "replays": "3/min"},
    }
    statuses = []
    for index in range(5):
        body = {"format": "umf", "payload": [{"role": "user", "content": f"hello {index}"}]}
        statuses.append(api.post("/api/v1/conversations/import", body, format="json"))
    assert [r.status_code for r in statuses] == [201, 201, 201, 429, 429]
    limited = statuses[-1]
    assert int(limited["Retry-After"]) > 0
    assert limited.json()["error"]["code"] == "throttled"
    # Reading is not limited.
    assert api.get("/api/v1/conversations").status_code == 200


def test_replays_past_the_rate_get_429(api: APIClient, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "100/min", "replays": "2/min"},
    }
    body = {"format": "umf", "payload": [{"role": "user", "content": "question?"}]}
    pk = api.post("/api/v1/conversations/import", body, format="json").json()["conversations"][0][
        "id"
    ]
    codes = [
        api.post(
            f"/api/v1/conversations/{pk}/replays",
            {"provider": "echo", "model": "echo-1"},
            format="json",
        ).status_code
        for _ in range(3)
    ]
    assert codes == [202, 202, 429]


def test_page_sizes_are_capped(api: APIClient) -> None:
    response = api.get("/api/v1/conversations?page_size=100000")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "page_size"
