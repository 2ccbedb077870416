"""What every HTTP client shares: render, send (plain or streamed), parse, classify.

A provider client is a subclass of :class:`HttpClient` that names its kind (the id of
the format it speaks) and the path it posts to, and fills in small hooks: the reader that
turns its stream back into the payload a plain answer would have been, and, where its
provider differs from the defaults (one path, a Bearer key, a ``stream`` field), the
endpoint, the credential headers and how the rendered payload asks for a stream. A
streamed and a plain answer then go through the very same format parser, so they give
equal UMF responses.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator
from functools import cache
from types import TracebackType
from typing import Any, ClassVar, Protocol

import httpx
import httpx_sse
import orjson

from providers import formats
from providers.clients._errors import (
    error_from_exception,
    error_from_status,
    malformed,
    truncated_stream,
)
from providers.clients._prepare import request_conversation
from providers.clients._stream import ChunkEmitter
from providers.clients.base import (
    ChunkCallback,
    Exchange,
    PermanentProviderError,
    ProviderConfig,
    ProviderError,
    redact_headers,
)
from providers.clients.limits import clamp_request
from providers.formats import FormatError
from providers.net import GuardedTransport
from providers.umf import JSON, Conversation, DriftWarning, Metadata, Provenance, Response


class StreamReader(Protocol):
    """Reads one provider's stream, event by event, into its plain answer's payload."""

    finished: bool
    last_event: str | None

    def feed(self, event: str, data: str) -> None:
        """Take one SSE event (its name and data) or one NDJSON line (event ``"line"``)."""
        ...

    def payload(self) -> JSON:
        """The answer as the provider's non-streaming endpoint would have sent it."""
        ...


class StreamState:
    """What every stream reader starts from: where its chunks go (``emitter``), whether the
    answer is complete (``finished``) and the last event it read (for the error that names
    where a stream broke off)."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        self.emitter = emitter
        self.finished = False
        self.last_event: str | None = None


def decode_json(data: str | bytes, context: str) -> Any:
    """JSON from a provider answer; :func:`malformed` (permanent) when it is not JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        raise malformed(context, f"invalid JSON ({error})", text) from None


def decode_object(data: str, context: str, what: str) -> dict[str, Any]:
    """The JSON object of one streamed event; :func:`malformed` (permanent) when it is not
    JSON or not an object, ``what`` naming the event in the error ("a stream chunk")."""
    value = decode_json(data, context)
    if not isinstance(value, dict):
        raise malformed(context, f"{what} is not an object", data)
    return value


def normalize_base_url(base_url: str) -> str:
    """``base_url`` without a trailing slash, ``http://`` assumed when it has no scheme
    (``OLLAMA_HOST=127.0.0.1:11434``)."""
    url = base_url.strip().rstrip("/")
    return url if "://" in url else f"http://{url}"


# Keep as many idle connections as a worker has threads calling at once (httpx keeps 20
# by default, so a worker of 32 threads would reconnect for a third of its calls).
POOL_LIMITS = httpx.Limits(max_connections=200, max_keepalive_connections=200)


@cache
def _tls_context() -> ssl.SSLContext:
    """One verifying TLS context per process: building one reads the CA bundle (~25 ms),
    too slow to repeat for every client a worker builds."""
    return httpx.create_ssl_context()


class HttpClient:
    """The shared call flow; see the module docstring for the hooks a subclass fills."""

    # The provider kind, named after the wire format it speaks (``providers.formats``).
    kind: ClassVar[str]
    label: ClassVar[str]
    # Where requests go under ``base_url`` (unless ``endpoint`` says otherwise).
    path: ClassVar[str]
    # False where the model travels in the URL (Gemini): the body then does not name it.
    model_in_body: ClassVar[bool] = True

    def __init__(
        self, config: ProviderConfig, *, transport: httpx.BaseTransport | None = None
    ) -> None:
        self.config = config
        self.base_url = normalize_base_url(config.base_url)
        if transport is None and not config.allow_private_network:
            # Connect-time check of every address: no request to this machine or a private
            # network unless the operator configured this provider as local.
            transport = GuardedTransport(verify=_tls_context(), limits=POOL_LIMITS)
        # One pooled connection set per client, shared by the threads of a replay worker
        # (httpx clients are thread-safe): connections stay open from one call to the next.
        self._http = httpx.Client(
            timeout=httpx.Timeout(config.timeout),
            transport=transport,
            verify=_tls_context(),
            limits=POOL_LIMITS,
            follow_redirects=False,
        )

    @property
    def format_id(self) -> str:
        """The id of the format requests and answers are written in: the kind's."""
        return self.kind

    # ----------------------------------------------------------------- hooks

    def endpoint(self, model: str, stream: bool) -> str:
        """The URL to POST to: ``path`` under ``base_url``, whatever the model."""
        return f"{self.base_url}{self.path}"

    def credential_headers(self) -> dict[str, str]:
        """The headers that carry the key (and API version); never the body. Most
        providers take ``Authorization: Bearer <key>``, and no header without a key (a
        local server needs none)."""
        key = self.config.api_key
        return {"authorization": f"Bearer {key}"} if key else {}

    def set_streaming(self, payload: dict[str, Any], stream: bool) -> None:
        """Ask for a stream (or not) in the payload; most providers take ``stream``."""
        if stream:
            payload["stream"] = True
        else:
            payload.pop("stream", None)

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A fresh reader for one streamed answer."""
        raise NotImplementedError

    def stream_events(self, response: httpx.Response) -> Iterator[tuple[str, str]]:
        """The stream as ``(event name, data)`` pairs: SSE by default."""
        try:
            for event in httpx_sse.EventSource(response).iter_sse():
                yield event.event, event.data
        except httpx_sse.SSEError as error:
            raise malformed(self.label, str(error)) from None

    # ----------------------------------------------------------------- the call

    def complete(
        self,
        conversation: Conversation,
        *,
        model: str,
        parameters: dict[str, Any] | None = None,
        on_chunk: ChunkCallback | None = None,
    ) -> Exchange:
        """Render ``conversation`` for ``model``, send it, and parse the answer (see
        :class:`providers.clients.base.Client`)."""
        stream = self.config.stream
        request = request_conversation(
            conversation, model=model, parameters=parameters, provider_format=self.format_id
        )
        if not self.model_in_body:
            request.parameters.model = None
        rendered = formats.get(self.format_id).render(request)
        payload = rendered.payload
        if not isinstance(payload, dict):
            raise PermanentProviderError(f"{self.format_id} rendered no request object")
        self.set_streaming(payload, stream)
        clamped = clamp_request(
            self.format_id, payload, max_tokens=self.config.max_tokens, max_n=self.config.max_n
        )
        url = self.endpoint(model, stream)
        headers = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            **self.credential_headers(),
        }
        emitter = ChunkEmitter(on_chunk)
        started = time.perf_counter()
        body = orjson.dumps(payload)
        if stream:
            raw = self._send_streaming(url, headers, body, emitter)
        else:
            raw = self._send(url, headers, body)
        response, parse_warnings = self._parse(raw)
        latency_ms = (time.perf_counter() - started) * 1000.0
        if stream:
            emitter.finish(response)
        return Exchange(
            url=url,
            request=payload,
            headers=redact_headers(headers),
            response=response,
            raw_response=raw,
            latency_ms=latency_ms,
            warnings=[*rendered.warnings, *clamped, *parse_warnings],
        )

    def _send(self, url: str, headers: dict[str, str], body: bytes) -> JSON:
        try:
            response = self._http.post(url, content=body, headers=headers)
        except (httpx.HTTPError, httpx.InvalidURL) as error:
            raise error_from_exception(error, context=self.label) from error
        if response.status_code >= 300:
            raise error_from_status(
                response.status_code, response.headers, response.text, context=self.label
            )
        return decode_json(response.content, self.label)

    def _send_streaming(
        self, url: str, headers: dict[str, str], body: bytes, emitter: ChunkEmitter
    ) -> JSON:
        reader = self.stream_reader(emitter)
        try:
            self._read_stream(url, headers, body, reader)
        except ProviderError as error:
            # Whoever watches the stream learns it broke; the caller gets the exception.
            if emitter.started and not emitter.errored:
                code = "transient_error" if error.transient else "permanent_error"
                emitter.error(code, error.message)
            raise
        return reader.payload()

    def _read_stream(
        self, url: str, headers: dict[str, str], body: bytes, reader: StreamReader
    ) -> None:
        try:
            with self._http.stream("POST", url, content=body, headers=headers) as response:
                if response.status_code >= 300:
                    response.read()
                    raise error_from_status(
                        response.status_code, response.headers, response.text, context=self.label
                    )
                for event, data in self.stream_events(response):
                    reader.feed(event, data)
        except (httpx.HTTPError, httpx.InvalidURL) as error:
            raise error_from_exception(error, context=self.label) from error
        if not reader.finished:
            raise truncated_stream(self.label, reader.last_event)

    def _parse(self, raw: JSON) -> tuple[Response, list[DriftWarning]]:
        """The answer payload as a UMF response, through the format's own parser."""
        try:
            results = formats.get(self.format_id).parse(raw)
        except (FormatError, ValueError) as error:
            raise malformed(self.label, str(error), orjson.dumps(raw).decode()) from None
        messages = results[0].conversation.messages if results else []
        if not messages or messages[-1].role != "assistant":
            body = orjson.dumps(raw).decode()  # for the error only: not on every answer
            raise malformed(self.label, "no assistant message in the answer", body)
        message = messages[-1]
        response = Response(
            message=message,
            finish_reason=message.finish_reason,
            provider_finish_reason=message.provider_finish_reason,
            usage=message.usage,
            metadata=Metadata(
                provider_response_id=message.id,
                provenance=Provenance(backend=self.config.name, model=message.model),
            ),
        )
        return response, [warning for result in results for warning in result.warnings]

    # ----------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Close the pooled connections."""
        self._http.close()

    def __enter__(self) -> HttpClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
