"""kombu's Redis transport, with one Redis client per channel instead of one per command.

kombu's Redis channel builds a new ``redis.Redis`` for every synchronous operation: each
task a worker receives (acknowledged late) and each acknowledgement. Building one
sets up its response callbacks and costs more than the command it sends: a profile of a
replay worker put 8% of its CPU there. A ``redis.Redis`` is safe to share between
threads (each command borrows a connection from the pool), so the channel keeps the one it
made and makes a new one only when its connection pool has been replaced (after a fork
or a lost connection). Everything else is kombu's.

Used when the broker URL is ``redis://`` (settings ``CELERY_BROKER_TRANSPORT``).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _shared: tuple[Any, Any] | None = None  # (the pool, the client made on it)

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        shared = self._shared
        if shared is None or shared[0] is not pool:
            shared = self._shared = (pool, super()._create_client())
        return shared[1]


class Transport(redis.Transport):
    Channel = Channel
