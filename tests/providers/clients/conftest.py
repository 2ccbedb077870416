"""One fake provider server for the whole module run, reset before every test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from fakes.provider_server import FakeProviderServer
from providers import clients
from providers.clients.base import Client, ProviderConfig
from tests.providers.clients.support import API_KEY

ClientFactory = Callable[..., Client]


@pytest.fixture(scope="session")
def shared_server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def server(shared_server: FakeProviderServer) -> FakeProviderServer:
    shared_server.reset()
    shared_server.api_key = API_KEY
    return shared_server


@pytest.fixture
def make_client(server: FakeProviderServer) -> ClientFactory:
    """``make_client(kind, stream=False, timeout=5.0)``: a client of the fake server."""

    def make(kind: str, *, stream: bool = False, timeout: float = 5.0) -> Client:
        config = ProviderConfig(
            allow_private_network=True,
            name=f"fake-{kind}",
            kind=kind,
            base_url=server.base_url(kind),
            api_key=API_KEY,
            timeout=timeout,
            stream=stream,
        )
        return clients.build(config)

    return make
