"""/healthz (alive, touches nothing) and /readyz (database, broker, cache: 503 naming what
is down)."""

from __future__ import annotations

import socket
from typing import Any

import pytest
import redis
from django.test import Client

from umfsite import cache as resilient_cache
from umfsite.celery import app


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_reachable() -> bool:
    try:
        return bool(redis.Redis.from_url("redis://127.0.0.1:6379/6").ping())
    except redis.RedisError:
        return False


@pytest.fixture
def production(settings: Any) -> None:
    # A probe asks the container's own address over http: neither a host of the list nor
    # https may turn it away.
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["archive.example.com"]
    settings.SECURE_SSL_REDIRECT = True


def use_broker(settings: Any, monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    # As items, not attributes: reading the attribute broker_write_url gives broker_url
    # when none is set, and restoring that would pin later tests to this broker.
    monkeypatch.setitem(app.conf, "broker_url", url)
    monkeypatch.setitem(app.conf, "broker_write_url", None)


def use_cache(settings: Any, monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setattr(resilient_cache, "_down_until", {})
    redis_cache = {"BACKEND": "umfsite.cache.ResilientRedisCache", "LOCATION": url}
    settings.CACHES = {"default": redis_cache, "render": {**redis_cache, "KEY_PREFIX": "r"}}


def test_healthz_answers_without_the_database(production: None) -> None:
    # No django_db mark: a query here would fail the test.
    response = Client(HTTP_HOST="10.1.2.3:8000").get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert Client(HTTP_HOST="10.1.2.3").get("/healthz/").status_code == 200


@pytest.mark.django_db
def test_readyz_with_everything_up(production: None) -> None:
    response = Client(HTTP_HOST="10.1.2.3").get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "down": [],
        "checks": {"database": "ok", "broker": "ok", "cache": "ok"},
    }


@pytest.mark.django_db
@pytest.mark.skipif(not redis_reachable(), reason="needs Redis at 127.0.0.1:6379")
def test_readyz_reaches_a_real_broker_and_cache(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_broker(settings, monkeypatch, "redis://127.0.0.1:6379/6")
    use_cache(settings, monkeypatch, "redis://127.0.0.1:6379/6")
    response = Client().get("/readyz")
    assert response.status_code == 200, response.json()


@pytest.mark.django_db
def test_readyz_names_the_broker_and_the_cache_when_down(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    use_broker(settings, monkeypatch, f"redis://127.0.0.1:{closed_port()}/0")
    use_cache(settings, monkeypatch, f"redis://127.0.0.1:{closed_port()}/0")
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["down"] == ["broker", "cache"]
    assert body["checks"]["database"] == "ok"
    # The reason is for the operator's log, not for whoever asks.
    assert "Connection refused" not in response.content.decode()
    assert "broker down" in caplog.text


@pytest.mark.django_db
def test_readyz_names_the_database_when_down(monkeypatch: pytest.MonkeyPatch) -> None:
    from umfsite import health

    def refused() -> None:
        raise OSError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", refused)
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert response.json()["down"] == ["database"]
