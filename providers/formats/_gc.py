"""Pausing Python's cyclic garbage collector while a conversation is parsed or rendered.

Reading or writing a conversation builds many small containers (UMF models, their
``extra`` dicts, the payload's dicts and lists) that reference counting frees: a
conversion makes next to no reference cycles (a failed read's exception, at most). The
cyclic collector nevertheless runs every few hundred allocations, and every time enough
of them survive it walks *every* tracked object of the process, so a 10,000-message
conversion spent more time in it than in converting (more so in a process with a large
heap, such as a web worker). Pausing it for the length of a conversion removes that
work; whatever survives is examined once by the next ordinary collection after the pause.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # conversions (of every thread) currently inside the pause
_was_enabled = False  # the collector's state when the outermost pause began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic garbage collector disabled, then restore its state.

    Re-entrant and thread-safe: the collector is process-wide, so pauses are counted
    across threads; the first one to enter records whether the collector was enabled and
    the last one to leave restores exactly that (a collector the application disabled
    stays disabled). Reference counting frees memory as usual during the pause, and an
    explicit ``gc.collect()`` still works; only the automatic cycle collection waits.
    """
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
