"""Replays in a real Celery worker process, through the local Redis broker and PostgreSQL:
runs succeed, and a worker killed with SIGKILL mid-run has its task redelivered and the
run completed with no duplicate turn and no second call for a turn that had succeeded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis
from django.conf import settings
from rest_framework.test import APIClient

from conversations import models
from fakes.provider_server import Answer, FakeProviderServer, Fault
from tests.conversations.helpers import wait_for, weather_imported
from umfsite.celery import app as celery_app

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
]
ROOT = Path(__file__).resolve().parents[3]
# A Redis database of the suite's own, one per test process (pytest-xdist), flushed freely.
_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
BROKER = os.environ.get("TEST_CELERY_BROKER_URL", f"redis://127.0.0.1:6379/{11 + _PROCESS}")


def broker_available() -> bool:
    try:
        return bool(redis.Redis.from_url(BROKER, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def forget_connections() -> None:
    # Celery keeps the connection and producer pools it made for the broker it saw first;
    # after changing broker_url they must be dropped, or tasks go to the old broker.
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def queue() -> Iterator[str]:
    if not broker_available():
        pytest.fail(f"Redis is not reachable at {BROKER}: start it (see .ci/run)")
    # The test broker database is the suite's own: start it clean, so no task or restore
    # mutex left by an earlier run's killed worker is in the way.
    redis.Redis.from_url(BROKER).flushdb()
    name = f"test-{uuid.uuid4().hex[:8]}"
    previous = dict(celery_app.conf)
    celery_app.conf.update(
        broker_url=BROKER,
        task_always_eager=False,
        task_default_queue=name,
        broker_transport_options={"visibility_timeout": 4},
    )
    forget_connections()
    yield name
    celery_app.conf.update(
        broker_url=previous["broker_url"],
        task_always_eager=previous["task_always_eager"],
        task_default_queue=previous["task_default_queue"],
        broker_transport_options=previous["broker_transport_options"],
    )
    forget_connections()
    redis.Redis.from_url(BROKER).flushdb()


@pytest.fixture
def provider() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as server:
        yield server


WorkerFactory = Callable[[], subprocess.Popen[bytes]]


@pytest.fixture
def start_worker(
    queue: str, provider: FakeProviderServer, tmp_path: Path
) -> Iterator[WorkerFactory]:
    database = settings.DATABASES["default"]
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )
    providers = [provider.provider_settings("openai-chat", "fake-1", timeout=30)]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": BROKER,
        "CELERY_QUEUE": queue,
        "CELERY_VISIBILITY_TIMEOUT": "4",
        "CELERY_RESTORE_INTERVAL": "1",
        "CELERY_RESTORE_THROTTLE": "1",
        # A worker SIGKILLed during a sweep holds its lock until this expires.
        "CELERY_RESTORE_LOCK_SECONDS": "3",
        "UMF_REPLAY_LEASE_SECONDS": "3",
        "UMF_EXTRA_PROVIDERS": orjson.dumps(providers).decode(),
    }
    workers: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        log = (tmp_path / f"worker{len(workers)}.log").open("wb")
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "umfsite",
                "worker",
                "--pool=solo",
                "--loglevel=info",
                "-Q",
                queue,
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        if worker.poll() is None:
            worker.kill()
        worker.wait(timeout=10)


def import_and_replay(api: APIClient, settings: Any, mode: str) -> str:
    settings.UMF_PROVIDERS = [{"name": "fake", "kind": "openai-chat", "base_url": "unused"}]
    conversation = weather_imported(api)
    response = api.post(
        f"/api/v1/conversations/{conversation}/replays",
        {"provider": "fake", "model": "fake-1", "mode": mode},
        format="json",
    )
    assert response.status_code == 202, response.json()
    return str(response.json()["id"])


def finished(run_id: str) -> bool:
    return models.ReplayRun.objects.get(pk=run_id).status in ("succeeded", "failed")


def test_a_worker_runs_a_replay(
    api: APIClient, settings: Any, start_worker: WorkerFactory, provider: FakeProviderServer
) -> None:
    start_worker()
    run_id = import_and_replay(api, settings, "each")
    wait_for(lambda: finished(run_id), 60, "the run to finish")

    run = models.ReplayRun.objects.get(pk=run_id)
    assert run.status == "succeeded", run.error
    assert run.provider_calls == 2 == len(provider.requests)
    assert models.Message.objects.filter(replay_run=run).count() == 2


def test_a_killed_worker_hands_the_run_over_without_duplicates(
    api: APIClient, settings: Any, start_worker: WorkerFactory, provider: FakeProviderServer
) -> None:
    # The second call hangs: the worker is killed in the middle of it.
    provider.script(Answer(text="first turn"), Fault.hang(60))
    first = start_worker()
    run_id = import_and_replay(api, settings, "each")
    wait_for(lambda: len(provider.requests) >= 2, 60, "the second call")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)

    start_worker()
    wait_for(lambda: finished(run_id), 90, "the redelivered run to finish")

    run = models.ReplayRun.objects.get(pk=run_id)
    assert run.status == "succeeded", run.error
    turns = list(run.turns.order_by("index"))
    assert [t.status for t in turns] == ["succeeded", "succeeded"]
    assert models.Message.objects.filter(replay_run=run).count() == 2
    # The first turn had succeeded before the kill: it was never sent again.
    first_turn_prefix = [r for r in provider.requests if "upstream timeout" not in str(r.json)]
    assert len(first_turn_prefix) == 1
    assert turns[0].attempts == 1
