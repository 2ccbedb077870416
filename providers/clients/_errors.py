"""Failure classification, in one place for every client: which provider failures are worth
trying again (:class:`TransientProviderError`) and which are not
(:class:`PermanentProviderError`), and how long the provider asked us to wait.

Three doors lead here: an HTTP status with its headers and body (:func:`error_from_status`),
an ``error`` the provider sends inside a stream that had already answered 200
(:func:`error_from_event`, which maps the error's type to the status it stands for and
classifies that), and a transport failure raised by httpx (:func:`error_from_exception`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
import orjson

from providers.clients.base import PermanentProviderError, ProviderError, TransientProviderError
from providers.net import BlockedAddressError

# 408 timeout, 409 conflict (a concurrent request on the same resource), 429 rate limit,
# 529 Anthropic's "overloaded"; every other 5xx is transient too.
TRANSIENT_STATUSES = frozenset({408, 409, 429})

# Bodies that say the account is out of money or quota: retrying cannot help, whatever the
# status (OpenAI answers 429 insufficient_quota; Anthropic 400 about the credit balance).
_SPEND_CAP_MARKERS = (
    "insufficient_quota",
    "billing_hard_limit_reached",
    "billing_not_active",
    "spend limit",
    "spending limit",
    "credit balance is too low",
)

# The error types providers put in a body or a stream ``error`` event, as the status each
# stands for (Anthropic's names, OpenAI's, Google's RPC status names).
ERROR_TYPE_STATUS: dict[str, int] = {
    "invalid_request_error": 400,
    "invalid_prompt": 400,
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "authentication_error": 401,
    "UNAUTHENTICATED": 401,
    "permission_error": 403,
    "PERMISSION_DENIED": 403,
    "not_found_error": 404,
    "NOT_FOUND": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "rate_limit_exceeded": 429,
    "RESOURCE_EXHAUSTED": 429,
    "api_error": 500,
    "server_error": 500,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
    "timeout_error": 504,
    "overloaded_error": 529,
}
# An error the provider reports after it accepted the request, under a name we do not know:
# the request was good enough to start on, so the failure is most likely on its side.
UNKNOWN_EVENT_STATUS = 500

_BODY_LIMIT = 2000
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def is_transient_status(status: int) -> bool:
    """Whether an HTTP status is worth retrying (408, 409, 429, every 5xx including 529)."""
    return status in TRANSIENT_STATUSES or 500 <= status <= 599


def error_from_status(
    status: int, headers: Mapping[str, str], body: str, *, context: str = ""
) -> ProviderError:
    """The error for a provider answer with a failing ``status`` (or an error event mapped
    to one): transient or permanent per the table above, with ``retry_after`` from the
    headers (or a Google ``retryDelay`` in the body) and a spend cap always permanent."""
    summary = _summary(body)
    message = f"{context or 'provider'} answered HTTP {status}"
    message += f": {summary}" if summary else ""
    lowered = body.lower()
    if any(marker in lowered for marker in _SPEND_CAP_MARKERS):
        return PermanentProviderError(
            message + " (spend cap or quota exhausted)", status=status, body=body[:_BODY_LIMIT]
        )
    if is_transient_status(status):
        return TransientProviderError(
            message,
            status=status,
            retry_after=retry_after_seconds(headers) or _retry_delay_in_body(body),
            body=body[:_BODY_LIMIT],
        )
    return PermanentProviderError(message, status=status, body=body[:_BODY_LIMIT])


def error_from_event(error: Any, *, context: str = "") -> ProviderError:
    """The error for an ``error`` object sent inside a stream after a 200 (Anthropic's
    ``{"type": "overloaded_error", "message"}``, OpenAI's ``{"type"|"code", "message"}``,
    Google's ``{"code", "status", "message"}``, Ollama's bare string)."""
    body = orjson.dumps(error).decode() if not isinstance(error, str) else error
    status = UNKNOWN_EVENT_STATUS
    if isinstance(error, Mapping):
        for key in ("type", "code", "status"):
            value = error.get(key)
            if isinstance(value, str) and value in ERROR_TYPE_STATUS:
                status = ERROR_TYPE_STATUS[value]
                break
            if key == "code" and isinstance(value, int) and 400 <= value <= 599:
                status = value
                break
    return error_from_status(status, {}, body, context=(context or "provider") + " stream")


def error_from_exception(error: Exception, *, context: str = "") -> ProviderError:
    """The error for a transport failure: timeouts, refused or dropped connections and
    a connection closed mid-answer are transient; a URL or protocol we cannot speak, and
    an address the outbound guard refuses, are permanent (a configuration mistake that
    waiting will not fix)."""
    where = context or "provider"
    if isinstance(error, BlockedAddressError):
        # The outbound guard's refusal: the address will be as private on every attempt.
        return PermanentProviderError(f"{where} not called: {error}")
    if isinstance(error, httpx.TimeoutException):
        return TransientProviderError(f"{where} timed out: {type(error).__name__}: {error}")
    transient_kinds = (httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError)
    if isinstance(error, transient_kinds):
        return TransientProviderError(f"{where} connection failed: {type(error).__name__}: {error}")
    return PermanentProviderError(f"{where} request failed: {type(error).__name__}: {error}")


def truncated_stream(context: str, last_event: str | None) -> TransientProviderError:
    """The error for a stream that ended before its terminal event."""
    after = f" after {last_event!r}" if last_event else " before any event"
    return TransientProviderError(f"{context} stream ended without its final event{after}")


def malformed(context: str, detail: str, body: str = "") -> PermanentProviderError:
    """The error for an answer that is not the provider's wire format (bad JSON, a shape
    the format cannot read): the same request would get the same answer."""
    return PermanentProviderError(
        f"{context} answered something that is not its wire format: {detail}",
        status=200,
        body=body[:_BODY_LIMIT] or None,
    )


def retry_after_seconds(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """How long the provider asked us to wait: ``retry-after-ms`` (milliseconds), else
    ``retry-after`` as seconds or as an HTTP date; None when absent or unreadable."""
    lowered = {name.lower(): value for name, value in headers.items()}
    milliseconds = _number(lowered.get("retry-after-ms"))
    if milliseconds is not None:
        return max(milliseconds / 1000.0, 0.0)
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _number(value)
    if seconds is not None:
        return max(seconds, 0.0)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


def _number(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        number = float(value.strip())
    except ValueError:
        return None
    return number if number == number and number != float("inf") else None


def _retry_delay_in_body(body: str) -> float | None:
    """Google puts the wait in the error body: ``details[].retryDelay: "30s"``."""
    if "retryDelay" not in body:
        return None
    try:
        decoded = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    error = decoded.get("error") if isinstance(decoded, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        match = _DURATION.match(delay) if isinstance(delay, str) else None
        if match:
            return float(match.group(1))
    return None


def _summary(body: str) -> str:
    """The provider's own error message when the body has one, else the body's start."""
    try:
        decoded = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body.strip()[:200]
    error = decoded.get("error", decoded) if isinstance(decoded, dict) else decoded
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])[:200]
    if isinstance(error, str):
        return error[:200]
    return body.strip()[:200]
