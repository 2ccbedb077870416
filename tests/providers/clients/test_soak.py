"""Many concurrent calls through a seeded 25% fault plan: every failure is transient (the plan
holds only transient faults), a caller that retries gets every answer, and the server saw
exactly one request per attempt."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fakes.provider_server import Answer, FakeProviderServer, RandomFaults
from providers import umf
from providers.clients import TransientProviderError
from providers.clients.base import Client
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import HTTP_KINDS, question

CALLS_PER_KIND = 40


def call_until_answered(client: Client, index: int) -> tuple[str, int]:
    """The answer's text and how many attempts it took (the caller's retry, not the client's)."""
    for attempt in range(1, 30):
        try:
            exchange = client.complete(question(f"question {index}"), model="m")
        except TransientProviderError:
            continue
        return umf.extract_text(exchange.response.message), attempt
    raise AssertionError("never answered")


def test_soak_with_random_transient_faults(
    server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.fault_plan = RandomFaults(seed=2024, rate=0.25)
    server.default_answer = Answer(text="steady answer", chunk_size=3)
    clients = [make_client(kind, stream=i % 2 == 0) for i, kind in enumerate(HTTP_KINDS)]
    jobs = [(client, n) for client in clients for n in range(CALLS_PER_KIND)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda job: call_until_answered(*job), jobs))
    assert {text for text, _ in results} == {"steady answer"}
    attempts = sum(attempt for _, attempt in results)
    log = server.requests
    assert len(log) == attempts
    failures = [request for request in log if request.outcome != "answer"]
    assert len(failures) == attempts - len(jobs)
    assert 0.15 < len(failures) / len(log) < 0.35
