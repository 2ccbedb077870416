"""Request ids, the access log and JSON logs.

Every request gets an id: the caller's ``X-Request-ID`` when it sends a sensible one (a
load balancer's), a new one otherwise; it is sent back in ``X-Request-ID``, put on every
log line written while the request runs, and carried in the headers of each Celery task
the request enqueues, so the worker's lines for that task carry it too. One access log
line (logger ``umf.access``) is written per request. ``UMF_LOG_FORMAT=json`` writes each
line as one JSON object, for a log collector.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import orjson
from celery import signals
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)

HEADER = "X-Request-ID"
# Ids taken from a caller: short and plain, as they end up in logs.
ACCEPTED_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
TASK_HEADER = "umf_request_id"

access_log = logging.getLogger("umf.access")


def user_id(request: HttpRequest) -> Any:
    """The logged-in user's id, if this request has looked its user up (never a query)."""
    user = request.__dict__.get("user")
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return getattr(user, "pk", None)


class RequestIdMiddleware:
    """Gives each request its id, sends it back, and writes the access log line."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        offered = request.headers.get(HEADER, "")
        request_id = offered if ACCEPTED_ID.fullmatch(offered) else uuid.uuid4().hex
        token = current_request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[HEADER] = request_id
            milliseconds = round((time.perf_counter() - started) * 1000, 1)
            access_log.info(
                "%s %s %s %sms",
                request.method,
                request.get_full_path(),
                response.status_code,
                milliseconds,
                extra={
                    "method": request.method,
                    "path": request.get_full_path(),
                    "status": response.status_code,
                    "duration_ms": milliseconds,
                    "user_id": user_id(request),
                    "remote_addr": request.META.get("REMOTE_ADDR"),
                },
            )
            return response
        finally:
            current_request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request id (or ``-``) on every record, for the formatters."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get() or "-"
        return True


# What every LogRecord has: the rest of its attributes came from ``extra=``.
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, the ``extra``
    fields, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        line.update((key, value) for key, value in record.__dict__.items() if key not in _STANDARD)
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def _carry_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    request_id = current_request_id.get()
    if request_id and headers is not None:
        headers.setdefault(TASK_HEADER, request_id)


_task_tokens: dict[str, Any] = {}


def _adopt_request_id(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    request_id = getattr(getattr(task, "request", None), TASK_HEADER, None)
    if request_id:  # an eager task already runs in its request's context
        _task_tokens[task_id] = current_request_id.set(str(request_id))


def _drop_request_id(task_id: str = "", **kwargs: Any) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        current_request_id.reset(token)


signals.before_task_publish.connect(_carry_request_id, weak=False)
signals.task_prerun.connect(_adopt_request_id, weak=False)
signals.task_postrun.connect(_drop_request_id, weak=False)
