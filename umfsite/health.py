"""``/healthz`` and ``/readyz``, for load balancers, orchestrators and compose.

- ``/healthz``: the process is alive and serving (no database, nothing else): restart it
  when this fails.
- ``/readyz``: the database, the broker and the cache Redis answer: send it traffic when
  this passes. 503 with ``down`` naming what does not answer (the reason goes to the log,
  not to whoever asks).

Answered by a middleware placed first: a probe uses the container's own address (not one of
``DJANGO_ALLOWED_HOSTS``) over plain http (no redirect to https), and is left out of the
access log, which it would otherwise fill.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2


def check_database() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")


def check_broker() -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # no broker: tasks run in this process
    from umfsite.celery import app

    with app.connection_for_write() as connection:
        connection.ensure_connection(
            max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS
        )


def check_cache() -> None:
    for alias in settings.CACHES:
        ping = getattr(caches[alias], "ping", None)
        if ping is not None:  # a Redis cache; an in-process one is always there
            ping()


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "broker": check_broker,
    "cache": check_cache,
}


def readiness() -> dict[str, str]:
    """Each dependency and whether it answers: ``ok`` or ``down``."""
    results = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:  # whatever the client library raises, it is down
            logger.warning("readyz: %s down: %s: %s", name, type(error).__name__, error)
            results[name] = "down"
        else:
            results[name] = "ok"
    return results


class HealthMiddleware:
    """Answers the two probe paths before anything else runs (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path.rstrip("/")
        if path == "/healthz":
            return JsonResponse({"status": "ok"})
        if path == "/readyz":
            checks = readiness()
            down = [name for name, result in checks.items() if result != "ok"]
            return JsonResponse(
                {"status": "unavailable" if down else "ok", "down": down, "checks": checks},
                status=503 if down else 200,
            )
        return self.get_response(request)
