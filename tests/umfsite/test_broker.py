"""The worker's Redis transport (umfsite/broker.py) shares one Redis client per channel,
makes a new one when the channel's connection pool is replaced, and still moves tasks
through a real Redis: sent, received, acknowledged and, unacknowledged, restored."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from kombu import Connection
from kombu.simple import SimpleQueue

from tests.conversations.helpers import redis_emptied
from umfsite import broker

_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
# A database of the suite's own, one per test process, flushed freely.
URL = os.environ.get("TEST_BROKER_TRANSPORT_URL", f"redis://127.0.0.1:6379/{8 + _PROCESS % 3}")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def connection() -> Iterator[Connection]:
    redis_emptied(URL)
    with Connection(URL, transport=broker.Transport) as conn:
        yield conn
    redis.Redis.from_url(URL).flushdb()


def test_a_channel_makes_one_client_until_its_pool_is_replaced(connection: Connection) -> None:
    channel = connection.default_channel
    assert isinstance(channel, broker.Channel)
    first = channel._create_client()
    assert channel._create_client() is first
    assert first.connection_pool is channel.pool

    channel._disconnect_pools()  # what kombu does after a fork or a lost connection
    second = channel._create_client()
    assert second is not first
    assert second.connection_pool is channel.pool
    assert channel._create_client() is second


def test_the_publish_and_subscribe_clients_are_not_shared(connection: Connection) -> None:
    channel = connection.default_channel
    assert channel.client is not channel._create_client()
    assert channel.client.connection_pool is channel.async_pool


def test_tasks_are_delivered_acknowledged_and_restored(connection: Connection) -> None:
    name = f"broker-{uuid.uuid4().hex[:8]}"
    queue = SimpleQueue(connection, name)
    for n in range(3):
        queue.put({"n": n})
    first = queue.get(timeout=5)
    second = queue.get(timeout=5)
    assert (first.payload, second.payload) == ({"n": 0}, {"n": 1})
    first.ack()  # acknowledged: gone for good
    store = redis.Redis.from_url(URL)
    assert store.hlen("unacked") == 1  # the second is held, unacknowledged
    second.reject(requeue=True)  # given back
    assert store.hlen("unacked") == 0
    got = sorted(queue.get(timeout=5).payload["n"] for _ in range(2))
    assert got == [1, 2]
    queue.close()


@pytest.mark.parametrize(
    ("url", "transport"),
    [
        ("redis://127.0.0.1:6379/0", "umfsite.broker:Transport"),
        ("rediss://cache.example:6380/0", None),  # TLS: kombu's own, which knows the scheme
        ("amqp://guest@127.0.0.1//", None),
        ("", None),
    ],
)
def test_settings_use_the_shared_client_transport_for_redis_only(
    url: str, transport: str | None
) -> None:
    probe = (
        "from django.conf import settings; "
        "print(getattr(settings, 'CELERY_BROKER_TRANSPORT', None))"
    )
    env = {**os.environ, "CELERY_BROKER_URL": url, "DJANGO_SETTINGS_MODULE": "umfsite.settings"}
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {probe}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == str(transport)
