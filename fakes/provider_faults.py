"""Faults the fake provider server injects: one per request (:class:`Fault`), or drawn at
random from a seeded plan for soak tests (:class:`RandomFaults`)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

FaultKind = Literal["status", "hang", "truncate", "incomplete", "error_event", "malformed_json"]

# The error type each provider names a failing status with (for bodies and stream events).
_ERROR_TYPES: dict[str, dict[int, str]] = {
    "openai": {400: "invalid_request_error", 401: "invalid_request_error", 429: "requests"},
    "anthropic": {400: "invalid_request_error", 401: "authentication_error"}
    | {403: "permission_error", 404: "not_found_error", 429: "rate_limit_error"}
    | {500: "api_error", 529: "overloaded_error"},
    "gemini": {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED"}
    | {404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"},
}
STREAM_ERROR_TYPES = {"anthropic": "overloaded_error", "gemini": "UNAVAILABLE"}


@dataclass(frozen=True)
class Fault:
    """A failure to inject into one request. Build them with the class methods."""

    kind: FaultKind
    status: int = 500
    headers: tuple[tuple[str, str], ...] = ()
    body: Any = None
    error_type: str | None = None
    seconds: float = 5.0

    @property
    def retryable(self) -> bool:
        """Whether a client should try again after this fault (as the providers document
        their errors): 408, 409, 429 (but a spend cap), 5xx, a hang, a cut or unfinished
        stream, an error event; not 4xx nor an answer that is not JSON."""
        if self.kind == "malformed_json":
            return False
        if self.kind != "status":
            return True
        if self.status == 429 and "insufficient_quota" in repr(self.body):
            return False
        return self.status in (408, 409, 429) or self.status >= 500

    @property
    def retry_after(self) -> float | None:
        """The seconds this fault asks the client to wait (``retry-after-ms`` first, then
        ``retry-after`` in seconds), or None."""
        headers = dict(self.headers)
        try:
            if "retry-after-ms" in headers:
                return float(headers["retry-after-ms"]) / 1000.0
            return float(headers["retry-after"]) if "retry-after" in headers else None
        except ValueError:  # an HTTP date: not used by the soak plans
            return None

    @classmethod
    def http(cls, status: int, *, retry_after: str | None = None, body: Any = None) -> Fault:
        """Answer ``status`` with the provider's error body (or ``body``)."""
        headers = (("retry-after", retry_after),) if retry_after is not None else ()
        return cls("status", status=status, headers=headers, body=body)

    @classmethod
    def rate_limited(
        cls, *, retry_after: str | None = "1", retry_after_ms: str | None = None
    ) -> Fault:
        """429 with ``retry-after`` (seconds or an HTTP date) and/or ``retry-after-ms``."""
        headers = []
        if retry_after is not None:
            headers.append(("retry-after", retry_after))
        if retry_after_ms is not None:
            headers.append(("retry-after-ms", retry_after_ms))
        return cls("status", status=429, headers=tuple(headers))

    @classmethod
    def server_error(cls) -> Fault:
        """500."""
        return cls.http(500)

    @classmethod
    def overloaded(cls) -> Fault:
        """529, Anthropic's "overloaded"."""
        return cls.http(529)

    @classmethod
    def bad_request(cls) -> Fault:
        """400."""
        return cls.http(400)

    @classmethod
    def unauthorized(cls) -> Fault:
        """401."""
        return cls.http(401)

    @classmethod
    def quota_exhausted(cls) -> Fault:
        """OpenAI's 429 ``insufficient_quota``: a spend cap, not a rate limit."""
        message = "You exceeded your current quota, please check your plan and billing details."
        error = {"message": message, "type": "insufficient_quota", "code": "insufficient_quota"}
        return cls("status", status=429, body={"error": error})

    @classmethod
    def hang(cls, seconds: float = 5.0) -> Fault:
        """Say nothing for ``seconds`` (past the client's timeout), then close."""
        return cls("hang", seconds=seconds)

    @classmethod
    def truncated(cls) -> Fault:
        """Close the connection mid-answer (half the body, or half the stream)."""
        return cls("truncate")

    @classmethod
    def incomplete(cls) -> Fault:
        """End a stream cleanly but without its final event."""
        return cls("incomplete")

    @classmethod
    def error_event(cls, error_type: str | None = None) -> Fault:
        """Answer 200, stream a little, then the provider's ``error`` event (for a plain
        request: the status that error stands for)."""
        return cls("error_event", status=529, error_type=error_type)

    @classmethod
    def malformed_json(cls) -> Fault:
        """200 with a body (or a stream event) that is not JSON."""
        return cls("malformed_json", status=200)


class RandomFaults:
    """A seeded fault plan: each request draws a fault with probability ``rate``."""

    def __init__(self, *, seed: int = 0, rate: float = 0.25, faults: Iterable[Fault] = ()) -> None:
        self.rate = rate
        self.faults = tuple(faults) or (
            Fault.rate_limited(retry_after="0"),
            Fault.server_error(),
            Fault.overloaded(),
            Fault.truncated(),
            Fault.error_event(),
        )
        self._random = random.Random(seed)
        self._lock = threading.Lock()

    def draw(self) -> Fault | None:
        """The next request's fault, or None."""
        with self._lock:
            if self._random.random() >= self.rate:
                return None
            return self._random.choice(self.faults)


def error_type_for(provider: str | None, status: int) -> str:
    """The error type ``provider`` names a failing ``status`` with."""
    family = {"anthropic": "anthropic", "gemini": "gemini"}.get(provider or "", "openai")
    types = _ERROR_TYPES[family]
    if status in types:
        return types[status]
    if family == "gemini":
        return "UNAVAILABLE" if status >= 500 else "FAILED_PRECONDITION"
    return "server_error" if status >= 500 else "invalid_request_error"
