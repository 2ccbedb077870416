"""Celery beat's scheduler, with a heartbeat a healthcheck can read.

beat answers no ping: a beat that hangs looks alive from outside. This scheduler touches
``UMF_BEAT_HEARTBEAT_FILE`` at every tick (at least every ``CELERY_BEAT_MAX_LOOP_INTERVAL``
seconds), and ``python -m umfsite.beat`` exits non-zero when that file is older than
``STALE_SECONDS``: compose's healthcheck of the beat service.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler

HEARTBEAT_FILE = Path(os.environ.get("UMF_BEAT_HEARTBEAT_FILE") or "/tmp/umf-beat-heartbeat")
STALE_SECONDS = 120


class Scheduler(PersistentScheduler):  # type: ignore[misc]  # celery is untyped
    def tick(self, *args: Any, **kwargs: Any) -> float:
        HEARTBEAT_FILE.touch()
        return float(super().tick(*args, **kwargs))


def heartbeat_age() -> float:
    """Seconds since beat's last tick (infinite when it never ticked)."""
    try:
        return time.time() - HEARTBEAT_FILE.stat().st_mtime
    except FileNotFoundError:
        return float("inf")


if __name__ == "__main__":
    age = heartbeat_age()
    if age > STALE_SECONDS:
        sys.exit(f"beat has not ticked for {age:.0f} s ({HEARTBEAT_FILE})")
