"""bench/convert.py's per-format measures: every format's parse and render at one size
(``--each-format``), and Python calls per message (``--calls``), which a shared machine's
load does not disturb."""

from __future__ import annotations

import copy
import cProfile
import pstats
import time
from collections.abc import Callable, Sequence
from typing import Any

from providers import formats


def each_format(payload: dict[str, Any], repeats: int) -> None:
    """Parse and render of every format, on the same conversation (an openai-chat
    ``payload``) written in each."""
    size = len(payload["messages"])
    conversation_umf = formats.parse("openai-chat", payload).items[0].conversation
    print(f"Each format on its own, {size} messages, us per message (best of {repeats})")
    print(f"{'format':<18} {'parse':>8} {'render':>8} {'both':>8}")
    for fmt in formats.all_formats():
        payload = fmt.render_all([conversation_umf]).payload
        read, write = timed_format(fmt, payload, repeats)
        row = f"{fmt.id:<18} {read / size * 1e6:>8.1f} {write / size * 1e6:>8.1f}"
        print(f"{row} {(read + write) / size * 1e6:>8.1f}")


def timed_format(fmt: formats.Format, payload: Any, repeats: int) -> tuple[float, float]:
    """The least seconds to parse ``payload`` in ``fmt``, and to render what it read: CPU
    time of this process, and the least disturbed run, so that on a shared machine the
    other work counts as little as it can."""
    parse_times: list[float] = []
    render_times: list[float] = []
    for _ in range(repeats + 1):  # the first run warms up
        data = copy.deepcopy(payload)
        start = time.process_time()
        parsed = formats.parse(fmt.id, data)
        middle = time.process_time()
        fmt.render_all([item.conversation for item in parsed.items])
        end = time.process_time()
        parse_times.append(middle - start)
        render_times.append(end - middle)
    return min(parse_times[1:]), min(render_times[1:])


def calls_per_message(payload: dict[str, Any], targets: Sequence[str]) -> None:
    """Python calls per message of the openai-chat parse of ``payload`` and of each
    target's render."""
    size = len(payload["messages"])
    formats.parse("openai-chat", copy.deepcopy(payload))  # warm up: imports, caches
    print(f"Python calls per message, {size} messages (cProfile)")
    parsed = formats.parse("openai-chat", copy.deepcopy(payload))
    parse_calls = counted_calls(formats.parse, "openai-chat", payload)
    print(f"{'parse openai-chat':<26} {parse_calls / size:>6.1f}")
    for target in targets:
        render = formats.get(target).render_all
        render([item.conversation for item in parsed.items])  # warm up
        count = counted_calls(render, [item.conversation for item in parsed.items])
        print(f"{'render ' + target:<26} {count / size:>6.1f}")


def counted_calls(fn: Callable[..., Any], *args: Any) -> int:
    """The calls (Python functions and builtins) one run of ``fn(*args)`` makes; the
    arguments are deep-copied first, outside the count."""
    args = copy.deepcopy(args)
    profile = cProfile.Profile()
    profile.runcall(fn, *args)
    stats: dict[Any, tuple[int, ...]] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(entry[1] for entry in stats.values())
