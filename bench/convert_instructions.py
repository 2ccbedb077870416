"""CPU instructions per message of our openai-chat conversions: a speed figure a busy
machine does not disturb.

Times on a shared machine move by 20-50% from run to run with the other work on it; the
instructions a conversion executes do not. For each target this runs a Python child
under Valgrind's callgrind that builds ``bench/convert.py``'s N-message openai-chat
conversation, warms up on a 60-message one (every kind of message in it, so that every
cache is filled), and converts it with :func:`providers.formats.convert` (parse and
render, warnings included, the conversation freed): callgrind counts the instructions of
that conversion alone (``--toggle-collect`` on ``operator.call``, through which the
child makes it, and which nothing else calls), so the interpreter's start, the imports
and the building of the payload are left out. The count divided by N is printed.
``parse`` is the openai-chat parse on its own (:func:`providers.formats.parse`), which
every target's figure includes. With ``--litellm`` (LiteLLM installed), LiteLLM's offline
transformation of the same conversation into each target (``bench/convert.py``'s) is
counted too, and the ratio of its count to ours: the speed ratio of ``bench/convert.py``
without a machine's noise, and without what instructions leave out (below).

    .venv/bin/python bench/convert_instructions.py [--messages 1000] [--targets parse,gemini]
        [--litellm] [--cache]

Needs ``valgrind`` on the PATH and CPython 3.11 or later (``operator.call``). Each child
runs with ``PYTHONHASHSEED=0``, and the same code in the same environment gives the same
count every time. Where objects land in memory still moves it by up to 1.5% (CPython's
caches are keyed by addresses, and a longer environment or another version of the code
moves them), so each figure is the median of three children whose environments differ in
size; a change smaller than about 1% needs a larger N or several sizes to be seen. It
takes about a minute per target at 1,000 messages on two cores. Instructions are not time: memory
traffic (cache misses, which grow with the conversation's size) is not counted, so check
a change that trades instructions for memory with ``bench/convert.py`` as well, or count
the misses: ``--cache`` has callgrind simulate the caches too (an L1 of the machine's, a
last level of 32 MB, 16-way, the same on every machine; several times slower) and prints
instruction-cache, L1 data and last-level misses per message beside the instructions.
"""

from __future__ import annotations

import argparse
import copy
import operator
import os
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("parse", "anthropic", "gemini", "bedrock-converse")
# Enough for every kind of message the conversation holds (images by URL and inline,
# a developer note...): the first of each fills a cache (mimetypes' table...) that the
# measured run must find filled.
WARM_UP_MESSAGES = 60
# Sizes of a padding variable in each child's environment: three memory layouts.
LAYOUTS = (0, 1500, 4000)
# The prefix of a child that counts LiteLLM's transformation into the target instead.
LITELLM = "litellm:"


def child(target: str, messages: int) -> None:
    """What runs under Valgrind: the conversion, made through ``operator.call`` so that
    callgrind counts it and nothing else."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from convert import conversation, litellm_converters

    from providers import formats

    def run(payload: dict[str, object]) -> None:
        if target == "parse":
            formats.parse("openai-chat", payload)
        else:
            formats.convert("openai-chat", target, payload)

    if target.startswith(LITELLM):
        converters = litellm_converters()
        if converters is None:
            raise SystemExit("--litellm: LiteLLM is not installed")
        run = converters[target.removeprefix(LITELLM)]
    run(copy.deepcopy(conversation(WARM_UP_MESSAGES)))  # imports, caches: not counted
    payload = copy.deepcopy(conversation(messages))
    operator.call(run, payload)


# What callgrind's "Collected" line holds with --cache-sim=yes, in its order, and the
# columns printed of it (instructions; instruction-cache misses; L1 data misses, read and
# write; last-level misses of both).
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
CACHE_COLUMNS = {
    "I1 miss": ("I1mr",),
    "D1 miss": ("D1mr", "D1mw"),
    "LL miss": ("ILmr", "DLmr", "DLmw"),
}
# The last level simulated: one size for every machine, so that counts compare.
LAST_LEVEL = "--LL=33554432,16,64"


def instructions(target: str, messages: int, padding: int, cache: bool = False) -> dict[str, int]:
    """The events of one conversion, as callgrind counts them: ``Ir`` (instructions), and
    with ``cache`` the simulated misses of :data:`EVENTS`."""
    command = [
        "valgrind",
        "--tool=callgrind",
        *(["--cache-sim=yes", LAST_LEVEL] if cache else []),
        "--toggle-collect=_operator_call",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        target,
        "--messages",
        str(messages),
    ]
    environment = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONPATH": str(ROOT),
        "CONVERT_INSTRUCTIONS_PADDING": "x" * padding,
    }
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    found = re.search(r"Collected\s*:\s*([\d ]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed for {target}:\n{done.stderr[-2000:]}")
    return dict(zip(EVENTS, map(int, found.group(1).split()), strict=False))


def misses_per_message(events: list[dict[str, int]], messages: int) -> list[float]:
    """The median of each of :data:`CACHE_COLUMNS` over the layouts, per message."""
    return [
        statistics.median(sum(count[event] for event in kinds) for count in events) / messages
        for kinds in CACHE_COLUMNS.values()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--litellm", action="store_true", help="count LiteLLM's too")
    parser.add_argument("--cache", action="store_true", help="count cache misses too")
    parser.add_argument("--child", metavar="TARGET", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.messages)
        return
    targets = args.targets.split(",")
    unknown = set(targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; known: {', '.join(TARGETS)}")
    theirs = [LITELLM + target for target in targets if target != "parse"] if args.litellm else []
    print(f"openai-chat -> target, {args.messages} messages, instructions per message")
    columns = "".join(f" {name:>8}" for name in CACHE_COLUMNS) if args.cache else ""
    print(f"{'target':<26} {'median':>8}   {'each layout':<26}{columns}")
    # The children run side by side (one per core): each one's count is its own.
    runs = [(target, padding) for target in [*targets, *theirs] for padding in LAYOUTS]
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        found = pool.map(lambda run: instructions(run[0], args.messages, run[1], args.cache), runs)
        counted = dict(zip(runs, found, strict=True))
    medians: dict[str, float] = {}
    for target in [*targets, *theirs]:
        events = [counted[target, padding] for padding in LAYOUTS]
        medians[target] = statistics.median(count["Ir"] for count in events) / args.messages
        each = " ".join(f"{count['Ir'] / args.messages:>8,.0f}" for count in events)
        misses = (
            "".join(f" {m:>8,.0f}" for m in misses_per_message(events, args.messages))
            if args.cache
            else ""
        )
        print(f"{target:<26} {medians[target]:>8,.0f}   {each}{misses}")
    for target in theirs:
        ours = target.removeprefix(LITELLM)
        print(f"LiteLLM / ours, {ours}: {medians[target] / medians[ours]:.2f}x")


if __name__ == "__main__":
    main()
