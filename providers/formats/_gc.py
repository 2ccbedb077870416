"""Pausing Python's cyclic garbage collector while a conversation is parsed or rendered.

Reading or writing a conversation builds many small containers (UMF models, their
``extra`` dicts, the payload's dicts and lists) that reference counting frees: a
conversion makes next to no reference cycles (a failed read's exception, at most). The
cyclic collector nevertheless runs every few hundred allocations, and every time enough
of them survive it walks *every* tracked object of the process, so a 10,000-message
conversion spent more time in it than in converting (more so in a process with a large
heap, such as a web worker). Pausing it for the length of a conversion removes that
work.

What the conversion built and still holds (the conversation, the payload, the warnings)
is long-lived by then: when the pause ends, those objects join the oldest generation
directly (``gc.freeze()`` then ``gc.unfreeze()``, two constant-time list moves) instead
of being walked by a young collection right away and again by each older one, which cost
3-5 ms per 1,000 messages. Whatever of it becomes garbage is freed by reference
counting as usual; a cycle among it waits for the next full collection. A process that
froze objects itself (``gc.get_freeze_count()``) is left as it was: its frozen objects
must stay out of the collector's sight, so its young objects are walked as usual.

Only large conversions pause it (``PAUSE_FROM`` items): the collector is process-wide, and
a worker whose threads convert small requests all the time would otherwise keep it off
for good, leaving the cycles other code makes to pile up; small conversions gain little.
"""

from __future__ import annotations

import gc
import threading
from types import TracebackType

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


class collector_paused:  # lower case: it reads as a function, ``with collector_paused(n):``
    """Run the body with the cyclic garbage collector disabled, then restore its state;
    below ``PAUSE_FROM`` (``size``: the messages converted) run it as it is.

    Re-entrant and thread-safe: the collector is process-wide, so pauses are counted
    across threads; the first one to enter records whether the collector was enabled and
    the last one to leave restores exactly that (a collector the application disabled
    stays disabled), moving what the pause built to the oldest generation (see the module
    docstring). Reference counting frees memory as usual during the pause, and an
    explicit ``gc.collect()`` still works; only the automatic cycle collection waits.
    """

    __slots__ = ("_pauses",)

    def __init__(self, size: int = PAUSE_FROM) -> None:
        self._pauses = size >= PAUSE_FROM

    def __enter__(self) -> None:
        global _depth, _was_enabled
        if not self._pauses:
            return
        with _lock:
            if _depth == 0:
                _was_enabled = gc.isenabled()
                gc.disable()
            _depth += 1

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        global _depth
        if not self._pauses:
            return
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                if gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()
