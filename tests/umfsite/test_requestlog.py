"""Request ids (X-Request-ID in and out, into the tasks a request enqueues), the access
log, and JSON log lines."""

from __future__ import annotations

import logging
import re
from typing import Any

import orjson
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.test import Client

import umfsite.celery as umfsite_celery
from umfsite import requestlog

pytestmark = pytest.mark.django_db


def access_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "umf.access"]


def test_a_request_gets_an_id_and_one_access_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="umf.access"):
        response = Client().get("/accounts/login/?next=/")
    request_id = response["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)
    [line] = access_records(caplog)
    assert line.getMessage().startswith("GET /accounts/login/?next=/ 200 ")
    assert line.__dict__["status"] == 200
    assert line.__dict__["duration_ms"] >= 0


def test_the_callers_id_is_kept_and_on_every_line(
    alice: Any, caplog: pytest.LogCaptureFixture
) -> None:
    handler_filter = requestlog.RequestIdFilter()
    caplog.handler.addFilter(handler_filter)
    with caplog.at_level(logging.INFO):
        response = Client(headers={"X-Request-ID": "lb-7f3a.42"}).get("/api/v1/formats/")
    assert response.status_code == 401
    assert response["X-Request-ID"] == "lb-7f3a.42"
    [line] = access_records(caplog)
    assert line.__dict__["request_id"] == "lb-7f3a.42"


@pytest.mark.parametrize("offered", ["has space", "x" * 129, "new\nline", ""])
def test_an_unfit_id_is_replaced(offered: str) -> None:
    response = Client(headers={"X-Request-ID": offered}).get("/accounts/login/")
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


def test_json_lines_carry_the_request_id_and_the_extra_fields() -> None:
    record = logging.LogRecord("umf.access", logging.INFO, __file__, 1, "GET %s", ("/",), None)
    record.status = 200
    token = requestlog.current_request_id.set("abc-1")
    try:
        requestlog.RequestIdFilter().filter(record)
    finally:
        requestlog.current_request_id.reset(token)
    line = orjson.loads(requestlog.JsonFormatter().format(record))
    assert line["message"] == "GET /"
    assert line["request_id"] == "abc-1"
    assert line["status"] == 200
    assert line["level"] == "INFO"
    assert line["logger"] == "umf.access"


def test_the_id_follows_a_request_into_the_task_it_enqueues() -> None:
    # A real broker round trip (kombu's in-memory transport) and a real worker thread:
    # the id travels in the task message's headers, not in this process's memory.
    worker_app = Celery(
        "request-id-test", broker="memory://", backend="cache+memory://", set_as_current=False
    )
    worker_app.conf.task_always_eager = False
    seen: list[str | None] = []

    @worker_app.task(name="request_id_probe")  # type: ignore[untyped-decorator]
    def probe() -> None:
        seen.append(requestlog.current_request_id.get())

    try:
        with start_worker(worker_app, pool="solo", perform_ping_check=False):
            token = requestlog.current_request_id.set("req-from-web")
            try:
                result = probe.delay()
            finally:
                requestlog.current_request_id.reset(token)
            result.get(timeout=10)
            untraced = probe.delay()
            untraced.get(timeout=10)
    finally:
        # A test worker makes its app the current one, which the project's shared tasks
        # follow: give the project's app its place back for the tests after this one.
        umfsite_celery.app.set_current()
        umfsite_celery.app.set_default()
    assert seen == ["req-from-web", None]
