"""What every provider client offers, and the errors they raise.

A client takes a UMF conversation, renders it with its provider's format module, sends it
over HTTP (plain or streaming), and parses the answer back into a UMF :class:`Response`.
It never retries: it classifies each failure as transient or permanent (with the
provider's ``retry-after`` when there is one) and the caller's single retry policy
decides (``conversations.services.replays.retry_backoff``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from providers.clients.limits import DEFAULT_MAX_N, DEFAULT_MAX_TOKENS, DEFAULT_PARAMETERS
from providers.umf import JSON, Conversation, DriftWarning, Response, StreamChunk


class ProviderError(Exception):
    """A call to a provider failed. ``status`` is the HTTP status when there was one."""

    transient = False

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        body: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.body = body


class TransientProviderError(ProviderError):
    """Worth trying again later: 408, 409, 429, 5xx (529 overloaded), timeouts, dropped
    connections, a stream that ended before its final event."""

    transient = True


class PermanentProviderError(ProviderError):
    """Trying again cannot help: 400, 401, 403, 404, 422, spend caps, an answer that is
    not the provider's wire format."""


@dataclass(frozen=True)
class ProviderConfig:
    """One callable provider. ``api_key`` is sent in headers only, never stored or logged.
    ``allow_private_network`` lets it reach loopback and private addresses (a local Ollama
    or vLLM); without it such a base URL is refused when connecting (providers.net).
    ``models``, ``parameters``, ``max_tokens`` and ``max_n`` bound what a call may cost
    (:mod:`providers.clients.limits`)."""

    name: str
    kind: str
    base_url: str
    api_key: str = field(default="", repr=False)
    models: tuple[str, ...] = ()
    timeout: float = 60.0
    stream: bool = False
    allow_private_network: bool = False
    parameters: frozenset[str] = DEFAULT_PARAMETERS
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_n: int = DEFAULT_MAX_N


@dataclass
class Exchange:
    """One call: exactly what was sent (keys redacted), what came back, and how long it took."""

    url: str
    request: JSON
    headers: dict[str, str]
    response: Response
    raw_response: JSON
    latency_ms: float
    warnings: list[DriftWarning] = field(default_factory=list)


ChunkCallback = Callable[[StreamChunk], None]


class Client(Protocol):
    """The call surface every provider client has."""

    config: ProviderConfig

    def complete(
        self,
        conversation: Conversation,
        *,
        model: str,
        parameters: dict[str, Any] | None = None,
        on_chunk: ChunkCallback | None = None,
    ) -> Exchange:
        """Send ``conversation`` to ``model`` and return the exchange.

        ``parameters`` override the conversation's UMF parameters (temperature, max_tokens,
        ...). With ``config.stream`` the answer is streamed and each UMF stream chunk is
        passed to ``on_chunk`` as it arrives. Raises :class:`TransientProviderError` or
        :class:`PermanentProviderError`.
        """
        ...


REDACTED = "[redacted]"
SECRET_HEADERS = frozenset({"authorization", "x-api-key", "x-goog-api-key", "api-key"})


def redact_headers(headers: dict[str, str]) -> dict[str, str]:
    """Headers safe to store: credentials replaced by a marker."""
    return {
        name: REDACTED if name.lower() in SECRET_HEADERS else value
        for name, value in headers.items()
    }
