"""What converting a long conversation batch by batch would save: the time per message of
``bench/convert.py``'s openai-chat conversion of N messages (10,000 by default) into each
target, made whole and made as consecutive batches of B messages, each batch parsed and
rendered before the next one is read.

A batch is converted as a conversation of its own, so this is not a conversion anyone
should use (the rules that look across a batch's edge, and the system instruction, see
only their batch): it measures what message-by-message conversion could gain from a
smaller peak of memory, before anyone builds it. Same conversation, same fresh copy per
run, CPU time of this process, the sides interleaved, median of the runs.

    .venv/bin/python bench/convert_batches.py [--messages 10000] [--batches 100,1000]
        [--repeats 7]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from convert import TARGETS, conversation

from providers import formats


def batched(payload: dict[str, Any], size: int) -> list[dict[str, Any]]:
    """The payload's messages as consecutive payloads of ``size`` messages each."""
    messages = payload["messages"]
    return [
        {**payload, "messages": messages[start : start + size]}
        for start in range(0, len(messages), size)
    ]


def converter(target: str, size: int | None) -> Callable[[dict[str, Any]], Any]:
    """The conversion into ``target``, whole (``size`` None) or ``size`` messages at a time."""
    if size is None:
        return lambda payload: formats.convert("openai-chat", target, payload)
    return lambda payload: [
        formats.convert("openai-chat", target, batch) for batch in batched(payload, size)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--batches", default="100,1000")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    sizes: list[int | None] = [None, *(int(size) for size in args.batches.split(","))]
    payload = conversation(args.messages)
    names = ["whole" if size is None else f"batches of {size:,}" for size in sizes]
    print(f"openai-chat -> target, {args.messages:,} messages, us per message (median)")
    print(f"{'target':<18}" + "".join(f"{name:>18}" for name in names))
    for target in TARGETS:
        runs: list[list[float]] = [[] for _ in sizes]
        fns = [converter(target, size) for size in sizes]
        for fn in fns:
            fn(copy.deepcopy(payload))  # warm up
        for _ in range(args.repeats):
            for fn, times in zip(fns, runs, strict=True):
                data = copy.deepcopy(payload)
                start = time.process_time()
                fn(data)
                times.append(time.process_time() - start)
        cells = [statistics.median(times) / args.messages * 1e6 for times in runs]
        print(f"{target:<18}" + "".join(f"{cell:>18.2f}" for cell in cells))


if __name__ == "__main__":
    main()
