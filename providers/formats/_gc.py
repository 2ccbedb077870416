"""Pausing Python's cyclic garbage collector while a conversation is parsed or rendered.

Reading or writing a conversation builds many small containers (UMF models, their
``extra`` dicts, the payload's dicts and lists) that reference counting frees: a
conversion makes next to no reference cycles (a failed read's exception, at most). The
cyclic collector nevertheless runs every few hundred allocations, and every time enough
of them survive it walks *every* tracked object of the process, so a 10,000-message
conversion spent more time in it than in converting (more so in a process with a large
heap, such as a web worker). Pausing it for the length of a conversion removes that
work; whatever survives is examined once by the next ordinary collection after the pause.

Only large conversions pause it (``PAUSE_FROM`` items): the collector is process-wide, and
a worker whose threads convert small requests all the time would otherwise keep it off
for good, leaving the cycles other code makes to pile up; small conversions gain little.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# Messages (or entries) from which a conversion pauses the collector.
PAUSE_FROM = 500

_lock = threading.Lock()
_depth = 0  # conversions (of every thread) currently inside the pause
_was_enabled = False  # the collector's state when the outermost pause began


def payload_size(payload: object) -> int:
    """A rough count of what a payload holds, for :func:`collector_paused`: a list's
    length, else that of the longest list at the top of an object (its messages)."""
    if isinstance(payload, list):
        return len(payload)
    if isinstance(payload, dict):
        return max((len(value) for value in payload.values() if isinstance(value, list)), default=0)
    return 0


@contextmanager
def collector_paused(size: int = PAUSE_FROM) -> Iterator[None]:
    """Run the body with the cyclic garbage collector disabled, then restore its state;
    below ``PAUSE_FROM`` (``size``: the messages converted) run it as it is.

    Re-entrant and thread-safe: the collector is process-wide, so pauses are counted
    across threads; the first one to enter records whether the collector was enabled and
    the last one to leave restores exactly that (a collector the application disabled
    stays disabled). Reference counting frees memory as usual during the pause, and an
    explicit ``gc.collect()`` still works; only the automatic cycle collection waits.
    """
    global _depth, _was_enabled
    if size < PAUSE_FROM:
        yield
        return
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
