"""The fast version of the replay soak (bench/soak.py runs 1,000): 30 replays through a
real Celery worker against a fake provider that fails about a third of its calls in every
way of issue 7 item 9. Every run ends, succeeded or failed with its reason; no turn is lost
or stored twice; the provider saw no call after a fault not to retry, and no retry sooner
than its retry-after. The audit itself is checked on logs that break each rule."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from fakes.provider_server import FakeProviderServer, Fault, RecordedRequest
from fakes.replay_soak import (
    KEY,
    check_soak,
    import_conversations,
    soak_plan,
    soak_providers,
    start_runs,
)
from fakes.replay_soak import start_worker as start_soak_worker
from fakes.request_audit import audit_requests
from tests.conversations.helpers import redis_emptied
from umfsite.celery import app as celery_app

_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
BROKER = os.environ.get("TEST_CELERY_BROKER_URL", f"redis://127.0.0.1:6379/{11 + _PROCESS}")


@pytest.fixture
def queue() -> Iterator[str]:
    redis_emptied(BROKER)
    name = f"soak-{uuid.uuid4().hex[:8]}"
    previous = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    previous["task_default_queue"] = celery_app.conf.task_default_queue
    celery_app.conf.update(broker_url=BROKER, task_always_eager=False, task_default_queue=name)
    celery_app._pool = None  # drop the pools made for the previous broker
    celery_app.amqp._producer_pool = None
    yield name
    celery_app.conf.update(**previous)
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    redis.Redis.from_url(BROKER).flushdb()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_thirty_replays_under_faults_all_end_with_no_loss_and_no_early_retry(
    queue: str, django_user_model: Any, settings: Any, tmp_path: Path
) -> None:
    database = settings.DATABASES["default"]
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )
    plan = soak_plan(seed=3, rate=0.35)
    with (
        FakeProviderServer(api_key=KEY, fault_plan=plan) as server,
        (tmp_path / "worker.log").open("wb") as log,
    ):
        providers = soak_providers(server)
        settings.UMF_PROVIDERS = providers
        worker = start_soak_worker(
            database_url=url,
            broker_url=BROKER,
            queue=queue,
            providers=providers,
            concurrency=8,
            name=queue,  # its own name: only this worker's answer to a ping counts
            log=log,
            loglevel="info",  # each task received and ended: read when the soak fails
        )
        try:
            # The runs are timed from a worker that answers: under the full suite's load
            # (Chromium, gunicorn) a worker once served nothing for 90 s, and a slow start
            # must not read as lost runs (nor a dead worker as a slow one).
            _wait_until_ready(worker, queue, seconds=120)
            owner = django_user_model.objects.create_user("soak")
            started = start_runs(import_conversations(owner=owner, count=30))
            wait_until_ended(started.values(), worker, seconds=90)
        finally:
            exited = worker.poll()  # None while it still runs, as it should
            worker.kill()
            worker.wait(timeout=10)
        report = check_soak(started, server.requests)
        if exited is not None:
            report.violations.append(f"the worker exited during the soak with {exited}")
        diagnosis = _diagnosis(started, tmp_path / "worker.log", queue) if report.violations else ""

    assert not report.violations, f"{report.violations[:5]}\n{diagnosis}"
    assert report.succeeded + sum(report.failed.values()) == 30
    # The seeded plan did inject faults of both kinds: some runs failed for good, and
    # retries after a retry-after happened (and were checked).
    assert report.failed and report.succeeded
    assert report.audit.waits and report.audit.retries > len(report.audit.waits)
    assert report.audit.faults >= 0.2 * report.audit.requests


def wait_until_ended(run_ids: Any, worker: Any, *, seconds: float) -> None:
    """Until every run has ended, ``seconds`` have passed, or the worker has exited."""
    from fakes.replay_soak import unfinished

    deadline = time.monotonic() + seconds
    while unfinished(run_ids) and time.monotonic() < deadline and worker.poll() is None:
        time.sleep(0.2)


def request(key: str, at: float, fault: Fault | None = None) -> RecordedRequest:
    return RecordedRequest(
        method="POST",
        path="/v1/chat/completions",
        query={},
        headers={},
        body=b"{}",
        json={},
        provider="openai-chat",
        stream=False,
        model="fake-1",
        outcome="answer" if fault is None else "fault",
        received_at=at,
        fault=fault,
        key=key,
    )


def audit(*requests: RecordedRequest) -> list[str]:
    return audit_requests(requests, run_of=lambda r: "run").violations


def test_the_audit_accepts_retries_that_waited_and_a_failure_that_stopped() -> None:
    assert not audit(
        request("turn1", 0.0, Fault.rate_limited(retry_after="3")),
        request("turn1", 3.1),
        request("turn2", 3.2, Fault.server_error()),
        request("turn2", 3.3),
        request("turn3", 4.0, Fault.bad_request()),
    )


def test_the_audit_flags_an_early_retry() -> None:
    (violation,) = audit(
        request("turn", 0.0, Fault.rate_limited(retry_after="3")), request("turn", 2.0)
    )
    assert "retry-after asked 3 s" in violation


@pytest.mark.parametrize(
    "fault", [Fault.bad_request(), Fault.unauthorized(), Fault.malformed_json()]
)
def test_the_audit_flags_any_call_after_a_fault_not_to_retry(fault: Fault) -> None:
    violations = audit(request("turn1", 0.0, fault), request("turn2", 5.0))
    assert violations and "not to retry" in violations[0]


def test_the_audit_flags_a_turn_called_again_after_its_answer() -> None:
    (violation,) = audit(request("turn", 0.0), request("turn", 1.0))
    assert "answered was called again" in violation


def _diagnosis(started: dict[str, str], log: Path, queue: str) -> str:
    """What a failed soak leaves to read: where the runs stopped, what waits in the
    broker, and the end of the worker's log."""
    from collections import Counter

    from conversations import models

    runs = models.ReplayRun.objects.filter(pk__in=started.values())
    statuses = Counter(runs.values_list("status", flat=True))
    broker = redis.Redis.from_url(BROKER)
    waiting = {
        key.decode(): broker.llen(key) for key in broker.scan_iter() if broker.type(key) == b"list"
    }
    tail = log.read_bytes()[-6000:].decode(errors="replace")
    return (
        f"runs by status: {dict(statuses)}; lists in the broker: {waiting} (queue {queue})\n"
        f"worker log:\n{tail}"
    )


def _wait_until_ready(worker: Any, name: str, *, seconds: float) -> None:
    """Until the worker answers a ping on the broker; fails if it exits or stays silent."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert worker.poll() is None, f"the worker exited with {worker.returncode}"
        answers = celery_app.control.ping(timeout=1.0)
        if any(host.startswith(f"{name}@") for answer in answers for host in answer):
            return
    raise AssertionError(f"the worker did not answer a ping within {seconds:.0f} s")
