"""The cache Redis down (REDIS_CACHE_URL at a closed port): pages, imports and logins still
answer, the render cache fails open, the throttles keep counting per process, and a warning
is logged; never a 500."""

from __future__ import annotations

import logging
import socket
from typing import Any

import pytest
from django.core.cache.backends.redis import RedisCache
from django.test import Client
from rest_framework.test import APIClient

from umfsite import cache as resilient_cache

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cache_down(settings: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"redis://127.0.0.1:{closed_port()}/0"
    redis = {"BACKEND": "umfsite.cache.ResilientRedisCache", "LOCATION": url}
    settings.CACHES = {"default": redis, "render": {**redis, "KEY_PREFIX": "render"}}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "3/min", "replays": "3/min", "login": "2/hour"},
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(resilient_cache, "_down_until", {})
    return url


def test_pages_and_imports_answer_and_throttles_still_count(
    cache_down: str, api: APIClient, alice: Any, caplog: pytest.LogCaptureFixture
) -> None:
    statuses = []
    for index in range(4):
        body = {"format": "umf", "payload": [{"role": "user", "content": f"hello {index}"}]}
        statuses.append(api.post("/api/v1/conversations/import", body, format="json"))
    assert [response.status_code for response in statuses] == [201, 201, 201, 429]
    conversation_id = statuses[0].json()["conversations"][0]["id"]
    browser = Client()
    browser.force_login(alice)
    for _ in range(2):  # the second time from the per-process render cache
        page = browser.get(f"/conversations/{conversation_id}/")
        assert page.status_code == 200
        assert "hello 0" in page.content.decode()
    warnings = [r.message for r in caplog.records if r.levelno == logging.WARNING]
    assert any("cache Redis" in line and "unreachable" in line for line in warnings)
    # One line for the outage, not one per request.
    assert sum("unreachable" in line for line in warnings) == 1


def test_failed_logins_are_still_throttled(cache_down: str, alice: Any) -> None:
    client = Client()
    statuses = [
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"}).status_code
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]


def test_redis_is_tried_again_after_a_while(
    cache_down: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from django.core.cache import caches

    cache = caches["default"]
    assert isinstance(cache, resilient_cache.ResilientRedisCache)
    cache.set("key", "kept per process")
    assert cache.get("key") == "kept per process"
    attempts: list[str] = []

    def redis_get(*args: Any, **kwargs: Any) -> str:
        attempts.append("get")
        return "from redis"

    monkeypatch.setattr(RedisCache, "get", redis_get)
    assert cache.get("key") == "kept per process"  # within RETRY_SECONDS: not asked
    assert attempts == []
    resilient_cache._down_until[cache.address] = 0.0
    assert cache.get("key") == "from redis"
    assert "reachable again" in caplog.text
