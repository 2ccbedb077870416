"""The one classification table every client shares (statuses, bodies, stream error
objects, transport failures) and ``retry-after`` parsing."""

from __future__ import annotations

import httpx
import pytest

from providers.clients import PermanentProviderError, TransientProviderError
from providers.clients._errors import (
    error_from_event,
    error_from_exception,
    error_from_status,
    retry_after_seconds,
)

NOW = 1_700_000_000.0  # Tue, 14 Nov 2023 22:13:20 GMT


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529, 599])
def test_transient_statuses(status: int) -> None:
    error = error_from_status(status, {}, "")
    assert isinstance(error, TransientProviderError)
    assert error.status == status


@pytest.mark.parametrize("status", [300, 400, 401, 402, 403, 404, 413, 422])
def test_permanent_statuses(status: int) -> None:
    assert isinstance(error_from_status(status, {}, ""), PermanentProviderError)


@pytest.mark.parametrize(
    "body",
    [
        '{"error": {"type": "insufficient_quota", "code": "insufficient_quota"}}',
        '{"error": {"code": "billing_hard_limit_reached"}}',
        '{"type": "error", "error": {"message": "Your credit balance is too low to access"}}',
    ],
)
def test_spend_caps_are_permanent_whatever_the_status(body: str) -> None:
    for status in (400, 429, 403):
        error = error_from_status(status, {"retry-after": "5"}, body)
        assert isinstance(error, PermanentProviderError)
        assert "spend cap" in error.message


def test_the_message_names_the_provider_and_its_own_words() -> None:
    body = '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}'
    error = error_from_status(529, {}, body, context="Anthropic")
    assert error.message == "Anthropic answered HTTP 529: Overloaded"
    assert error.body == body


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "12"}, 12.0),
        ({"Retry-After": "0.5"}, 0.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "Tue, 14 Nov 2023 22:14:00 GMT"}, 40.0),
        ({"retry-after": "Tue, 14 Nov 2023 22:00:00 GMT"}, 0.0),
        ({"retry-after": "-3"}, 0.0),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "nan"}, None),
        ({}, None),
    ],
)
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_seconds(headers, now=NOW) == expected


def test_google_retry_delay_in_the_body() -> None:
    body = (
        '{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": '
        '[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "17s"}]}}'
    )
    assert error_from_status(429, {}, body).retry_after == 17.0
    assert error_from_status(429, {"retry-after": "2"}, body).retry_after == 2.0


@pytest.mark.parametrize(
    ("error", "status", "transient"),
    [
        ({"type": "overloaded_error", "message": "Overloaded"}, 529, True),
        ({"type": "server_error", "message": "x"}, 500, True),
        ({"code": "rate_limit_exceeded", "message": "x"}, 429, True),
        ({"code": 503, "status": "UNAVAILABLE", "message": "x"}, 503, True),
        ({"code": 400, "status": "INVALID_ARGUMENT", "message": "x"}, 400, False),
        ({"type": "invalid_request_error", "message": "x"}, 400, False),
        ({"type": "something_new"}, 500, True),
        ("model runner has unexpectedly stopped", 500, True),
    ],
)
def test_stream_error_objects(error: object, status: int, transient: bool) -> None:
    classified = error_from_event(error, context="P")
    assert classified.status == status
    assert classified.transient is transient
    assert classified.message.startswith("P stream answered")


@pytest.mark.parametrize(
    ("exception", "transient"),
    [
        (httpx.ReadTimeout("slow"), True),
        (httpx.ConnectTimeout("slow"), True),
        (httpx.ConnectError("refused"), True),
        (httpx.ReadError("reset"), True),
        (httpx.RemoteProtocolError("peer closed"), True),
        (httpx.UnsupportedProtocol("ftp"), False),
        (httpx.InvalidURL("bad"), False),
        (httpx.LocalProtocolError("bad header"), False),
    ],
)
def test_transport_failures(exception: Exception, transient: bool) -> None:
    error = error_from_exception(exception)
    assert error.transient is transient
    assert error.status is None
