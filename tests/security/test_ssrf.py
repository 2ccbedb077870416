"""No outbound request to this machine or a private network: every such URL is refused at
connect time (after DNS, and for each redirect hop), and a canary listener on 127.0.0.1
sees no connection."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

from providers import umf
from providers.clients import build
from providers.clients.base import PermanentProviderError, ProviderConfig
from providers.net import BlockedAddressError, GuardedTransport, check_host


@pytest.fixture
def canary() -> Iterator[tuple[int, list[object]]]:
    """A TCP listener on 127.0.0.1 that records every connection it accepts."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, peer = server.accept()
            except TimeoutError:
                continue
            accepted.append(peer)
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(timeout=2)
    server.close()


def corpus(port: int) -> list[str]:
    hosts = [
        "127.0.0.1",
        "127.1",
        "127.0.0.2",
        "0.0.0.0",
        "0",
        "localhost",
        "[::1]",
        "[::]",
        "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "2130706433",
        "0x7f000001",
        "017700000001",
        "10.0.0.1",
        "10.255.255.254",
        "172.16.0.1",
        "172.31.255.1",
        "192.168.0.1",
        "192.168.1.254",
        "169.254.169.254",
        "169.254.0.1",
        "[fe80::1]",
        "[fc00::1]",
        "[fd12:3456::1]",
        "100.64.0.1",
        "198.18.0.1",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "[::ffff:10.0.0.1]",
        "[::ffff:169.254.169.254]",
        "[64:ff9b::7f00:1]",
        "[2002:7f00:1::]",
        "metadata.google.internal.localhost",
    ]
    return [f"http://{host}:{port}/v1" for host in hosts] + [
        f"https://127.0.0.1:{port}/v1",
        f"http://user:pass@127.0.0.1:{port}/v1",
    ]


def test_the_corpus_is_large_enough(canary: tuple[int, list[object]]) -> None:
    assert len(corpus(canary[0])) >= 30


def test_every_private_url_is_refused_and_the_canary_hears_nothing(
    canary: tuple[int, list[object]],
) -> None:
    port, accepted = canary
    refused = []
    with httpx.Client(transport=GuardedTransport(), timeout=2) as client:
        for url in corpus(port):
            with pytest.raises(httpx.ConnectError) as error:
                client.post(url, json={})
            refused.append((url, type(error.value).__name__))
    assert len(refused) == len(corpus(port))
    assert accepted == []


def test_a_provider_with_a_private_base_url_is_refused(canary: tuple[int, list[object]]) -> None:
    port, accepted = canary
    config = ProviderConfig(name="x", kind="openai-chat", base_url=f"http://127.0.0.1:{port}/v1")
    # Permanent: the address is as private on the next attempt (issue 21).
    with pytest.raises(PermanentProviderError):
        build(config).complete(umf.Conversation(messages=[umf.user("hi")]), model="m")
    assert accepted == []


def test_a_name_that_resolves_to_a_private_address_is_refused() -> None:
    def rebinding(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "10.0.0.7"]  # one public, one private: refused

    with pytest.raises(BlockedAddressError):
        check_host("evil.example", 80, rebinding)


def test_the_connection_goes_to_the_checked_address() -> None:
    calls: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["93.184.216.34"]

    assert check_host("example.com", 443, resolver) == "93.184.216.34"
    assert calls == ["example.com"]


def test_redirects_are_not_followed(canary: tuple[int, list[object]]) -> None:
    port, accepted = canary
    hops: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        hops.append(str(request.url))
        return httpx.Response(302, headers={"location": f"http://127.0.0.1:{port}/"})

    config = ProviderConfig(name="x", kind="openai-chat", base_url="https://api.example.com/v1")
    from providers.clients.openai_chat import OpenAIChatClient

    client = OpenAIChatClient(config, transport=httpx.MockTransport(handler))
    with pytest.raises(Exception):  # noqa: B017 - a 3xx is a permanent provider error
        client.complete(umf.Conversation(messages=[umf.user("hi")]), model="m")
    assert len(hops) == 1 and accepted == []
