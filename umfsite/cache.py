"""The Redis cache, and what happens when Redis cannot be reached: never a 500.

The cache holds two kinds of things: rendered messages (``render``: a miss only costs a
render) and the throttles' counters (``default``: imports, replays, failed logins). While
the cache Redis is down, each operation goes to an in-process cache instead: pages render
(and are cached per process), and throttles keep counting, per process, so they still
refuse a flood instead of letting it through or refusing everyone. One warning is logged
when Redis goes away and one line when it is back; in between Redis is tried again every
``RETRY_SECONDS`` (a request never waits for a dead Redis more than its connect timeout).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
# Errors that mean "Redis is not there", as opposed to a misuse of the cache.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
# Until when (time.monotonic) each Redis, by address, is taken as down, for the process.
_down_until: dict[str, float] = {}


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that falls back to an in-process cache while Redis is down."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        parts = urlsplit(str(server).split(",")[0])
        # The address without credentials, for the log and as the outage's key.
        self.address = f"{parts.hostname}:{parts.port or 6379}/{parts.path.lstrip('/') or 0}"
        fallback_params = {key: value for key, value in params.items() if key != "OPTIONS"}
        # One in-process cache per Redis cache and prefix, shared by the process's threads.
        self.fallback = LocMemCache(
            f"fallback:{self.address}:{params.get('KEY_PREFIX', '')}",
            {**fallback_params, "OPTIONS": {"MAX_ENTRIES": 10_000}},
        )

    def ping(self) -> None:
        """Raise unless Redis answers (``/readyz``); the fallback does not count."""
        self._cache.get_client(write=True).ping()

    def _either(self, redis_call: Callable[[], Any], fallback_call: Callable[[], Any]) -> Any:
        down_until = _down_until.get(self.address)
        if down_until is None or time.monotonic() >= down_until:
            try:
                result = redis_call()
            except UNREACHABLE as error:
                if down_until is None:
                    logger.warning(
                        "cache Redis %s unreachable (%s): rendered messages and throttle "
                        "counters are kept per process until it is back",
                        self.address,
                        error,
                    )
                _down_until[self.address] = time.monotonic() + RETRY_SECONDS
            else:
                if down_until is not None:
                    _down_until.pop(self.address, None)
                    logger.warning("cache Redis %s reachable again", self.address)
                return result
        return fallback_call()

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda: self.fallback.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: self.fallback.get(key, default, version),
        )

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._either(
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            lambda: self.fallback.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda: self.fallback.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).delete(key, version),
            lambda: self.fallback.delete(key, version),
        )

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda: self.fallback.get_many(keys, version),
        )

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).has_key(key, version),
            lambda: self.fallback.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).incr(key, delta, version),
            lambda: self.fallback.incr(key, delta, version),
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._either(
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda: self.fallback.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._either(
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: self.fallback.delete_many(keys, version),
        )

    def clear(self) -> Any:
        self.fallback.clear()
        return self._either(lambda: super(ResilientRedisCache, self).clear(), lambda: True)
