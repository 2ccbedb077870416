"""Every injected fault, against every HTTP client, plain and streamed, is classified
transient or permanent with the right status and ``retry_after``, and nothing is retried
inside the client (one fault, one request)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from fakes.provider_server import Answer, FakeProviderServer, Fault
from providers import umf
from providers.clients import PermanentProviderError, ProviderError, TransientProviderError, build
from providers.clients.base import ProviderConfig
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import HTTP_KINDS, question

STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
KINDS = pytest.mark.parametrize("kind", HTTP_KINDS)

# fault, expected error class, expected status (None: no HTTP status), expected retry_after
CASES = {
    "429-seconds": (Fault.rate_limited(retry_after="7"), TransientProviderError, 429, 7.0),
    "429-ms": (
        Fault.rate_limited(retry_after=None, retry_after_ms="1500"),
        TransientProviderError,
        429,
        1.5,
    ),
    "500": (Fault.server_error(), TransientProviderError, 500, None),
    "529": (Fault.overloaded(), TransientProviderError, 529, None),
    "503-retry-after": (Fault.http(503, retry_after="3"), TransientProviderError, 503, 3.0),
    "408": (Fault.http(408), TransientProviderError, 408, None),
    "409": (Fault.http(409), TransientProviderError, 409, None),
    "truncated": (Fault.truncated(), TransientProviderError, None, None),
    "400": (Fault.bad_request(), PermanentProviderError, 400, None),
    "401": (Fault.unauthorized(), PermanentProviderError, 401, None),
    "403": (Fault.http(403), PermanentProviderError, 403, None),
    "404": (Fault.http(404), PermanentProviderError, 404, None),
    "422": (Fault.http(422), PermanentProviderError, 422, None),
    "quota": (Fault.quota_exhausted(), PermanentProviderError, 429, None),
    "malformed-json": (Fault.malformed_json(), PermanentProviderError, 200, None),
}


@KINDS
@STREAMING
@pytest.mark.parametrize("case", list(CASES))
def test_fault_is_classified(
    kind: str, stream: bool, case: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    fault, error_class, status, retry_after = CASES[case]
    server.script(fault)
    with pytest.raises(ProviderError) as caught:
        make_client(kind, stream=stream).complete(question(), model="m")
    error = caught.value
    assert type(error) is error_class, error.message
    assert error.transient is (error_class is TransientProviderError)
    assert error.status == status
    assert error.retry_after == retry_after
    assert len(server.requests) == 1  # no retry inside the client


@KINDS
@STREAMING
def test_retry_after_as_an_http_date(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    server.script(Fault.rate_limited(retry_after=when))
    with pytest.raises(TransientProviderError) as caught:
        make_client(kind, stream=stream).complete(question(), model="m")
    assert caught.value.retry_after is not None
    assert 27 <= caught.value.retry_after <= 30


@KINDS
@STREAMING
def test_a_hang_past_the_timeout_is_transient(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.hang(seconds=3))
    with pytest.raises(TransientProviderError) as caught:
        make_client(kind, stream=stream, timeout=0.2).complete(question(), model="m")
    assert "timed out" in caught.value.message
    assert caught.value.status is None


@KINDS
def test_a_stream_without_its_final_event_is_transient(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.incomplete())
    with pytest.raises(TransientProviderError) as caught:
        make_client(kind, stream=True).complete(question(), model="m")
    assert "without its final event" in caught.value.message


@KINDS
def test_an_error_event_after_200_is_classified_by_its_type(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.error_event())  # overloaded_error / server_error
    chunks: list[umf.StreamChunk] = []
    with pytest.raises(TransientProviderError) as caught:
        make_client(kind, stream=True).complete(question(), model="m", on_chunk=chunks.append)
    assert caught.value.status in (500, 503, 529)
    assert isinstance(chunks[-1], umf.StreamError)
    assert chunks[0].type == "start"


@pytest.mark.parametrize("kind", [kind for kind in HTTP_KINDS if kind != "ollama"])
def test_an_invalid_request_error_event_is_permanent(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    # (Ollama's stream errors are bare strings: no type to tell a bad request by.)
    error_type = "INVALID_ARGUMENT" if kind == "gemini" else "invalid_request_error"
    server.script(Fault.error_event(error_type))
    with pytest.raises(PermanentProviderError) as caught:
        make_client(kind, stream=True).complete(question(), model="m")
    assert caught.value.status == 400


@KINDS
def test_a_plain_request_with_an_error_event_fault_gets_its_status(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.error_event())
    with pytest.raises(TransientProviderError) as caught:
        make_client(kind).complete(question(), model="m")
    assert caught.value.status == 529


@KINDS
def test_a_broken_stream_tells_the_chunk_watcher(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.truncated())
    chunks: list[umf.StreamChunk] = []
    with pytest.raises(TransientProviderError):
        make_client(kind, stream=True).complete(question(), model="m", on_chunk=chunks.append)
    assert isinstance(chunks[-1], umf.StreamError)
    assert chunks[-1].code == "transient_error"


@KINDS
def test_after_a_fault_the_same_client_answers_again(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault.truncated(), Fault.hang(seconds=1), Answer(text="back"))
    client = make_client(kind, timeout=0.3)
    for _ in range(2):
        with pytest.raises(TransientProviderError):
            client.complete(question(), model="m")
    assert umf.extract_text(client.complete(question(), model="m").response.message) == "back"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@KINDS
def test_nobody_listening_is_transient(kind: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    config = ProviderConfig(
        allow_private_network=True, name="down", kind=kind, base_url=url, timeout=1.0
    )
    with pytest.raises(TransientProviderError) as caught:
        build(config).complete(question(), model="m")
    assert "connection failed" in caught.value.message


@KINDS
def test_a_url_we_cannot_speak_is_permanent(kind: str) -> None:
    config = ProviderConfig(
        allow_private_network=True, name="odd", kind=kind, base_url="ftp://example.invalid"
    )
    with pytest.raises(PermanentProviderError):
        build(config).complete(question(), model="m")


@KINDS
def test_an_answer_that_is_json_but_not_the_format_is_permanent(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Fault("status", status=200, body={"unexpected": True}))
    with pytest.raises(PermanentProviderError) as caught:
        make_client(kind).complete(question(), model="m")
    assert "not its wire format" in caught.value.message


@KINDS
def test_an_address_the_outbound_guard_refuses_is_permanent(kind: str) -> None:
    # Waiting does not make 127.0.0.1 public: retrying it would only burn the attempts.
    url = f"http://127.0.0.1:{free_port()}"
    config = ProviderConfig(name="private", kind=kind, base_url=url, timeout=1.0)
    with pytest.raises(PermanentProviderError) as caught:
        build(config).complete(question(), model="m")
    assert "not called: refused to connect to 127.0.0.1" in caught.value.message
