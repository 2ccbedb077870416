"""The kernel's share of a conversion: system time and page faults per message, ours and
LiteLLM's, in one process.

``bench/convert.py`` times both sides in process time, which counts the time the kernel
spends for the process as well as the process's own. This splits it (``getrusage``):
user and system microseconds per message and minor page faults per message, for the
same conversions (openai-chat to each target, a fresh copy of the payload each run, the
output freed after it). A conversion whose objects do not fit in the memory the process
already holds makes CPython map new arenas, and the kernel hands out zeroed pages at a
fault each; once the output is freed, the arenas go back, and the next conversion pays
again. Medians of ``--repeats`` runs, after one warm-up run per side.

    .venv/bin/python bench/convert_faults.py [--sizes 1000,10000] [--targets gemini] [--repeats 5]
"""

from __future__ import annotations

import argparse
import copy
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import convert  # bench/convert.py (this script's folder): the payload, both converters

Converter = Callable[[dict[str, Any]], Any]


def measured(fn: Converter, payload: dict[str, Any], repeats: int) -> tuple[float, ...]:
    """Median (process, user, system) seconds and minor faults of ``repeats`` runs."""
    fn(copy.deepcopy(payload))  # warm up: imports, caches
    runs: list[tuple[float, float, float, int]] = []
    for _ in range(repeats):
        data = copy.deepcopy(payload)
        before, started = resource.getrusage(resource.RUSAGE_SELF), time.process_time()
        output = fn(data)
        del output  # freeing the output is part of a conversion's cost
        ended, after = time.process_time(), resource.getrusage(resource.RUSAGE_SELF)
        runs.append(
            (
                ended - started,
                after.ru_utime - before.ru_utime,
                after.ru_stime - before.ru_stime,
                after.ru_minflt - before.ru_minflt,
            )
        )
    return tuple(statistics.median(column) for column in zip(*runs, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--targets", default="anthropic,gemini,bedrock-converse")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    lite = convert.litellm_converters()
    if lite is None:
        sys.exit("LiteLLM is not installed: pip install -e '.[bench]'")
    print(
        f"{'target':<18}{'messages':>9}  {'side':<8}{'us/msg':>8}{'user':>8}{'system':>8}"
        f"{'faults/msg':>12}"
    )
    for target in args.targets.split(","):
        sides: dict[str, Converter] = {"ours": convert.ours(target), "LiteLLM": lite[target]}
        for size in (int(s) for s in args.sizes.split(",")):
            payload = convert.conversation(size)
            for side, fn in sides.items():
                total, user, system, faults = measured(fn, payload, args.repeats)
                print(
                    f"{target:<18}{size:>9}  {side:<8}{total / size * 1e6:>8.2f}"
                    f"{user / size * 1e6:>8.2f}{system / size * 1e6:>8.2f}{faults / size:>12.2f}"
                )


if __name__ == "__main__":
    main()
