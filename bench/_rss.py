"""The resident memory of a process, and its peak while something runs (the benches that
report memory share it)."""

from __future__ import annotations

import threading
import time
from pathlib import Path


def rss(pid: int) -> int:
    """The resident set size of process ``pid``, in bytes (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class PeakRss:
    """The RSS of a process from now on, sampled every 10 ms: ``start``, and ``peak``
    once :meth:`stop` returns its growth."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start = self.peak = rss(pid)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.is_set():
            self.peak = max(self.peak, rss(self.pid))
            time.sleep(0.01)

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.peak - self.start
