"""CPU instructions per message of our openai-chat conversions: a speed figure a busy
machine does not disturb.

Times on a shared machine move by 20-50% from run to run with the other work on it; the
instructions a conversion executes do not. This runs, for each target, one Python child
under Valgrind's cachegrind (``--cache-sim=no``: only instructions are counted) that
builds ``bench/convert.py``'s N-message openai-chat conversation, warms up on a
60-message one (every kind of message in it, so that every cache is filled), and
converts it with :func:`providers.formats.convert` (parse and render, warnings
included); and a baseline child that does all of that but the conversion. The
difference, divided by N, is printed: instructions per message of the conversion alone,
the interpreter's start, the imports and the building of the payload left out.
``parse`` is the openai-chat parse on its own (:func:`providers.formats.parse`), which
every target's figure includes.

    .venv/bin/python bench/convert_instructions.py [--messages 1000] [--targets parse,gemini]

Needs ``valgrind`` on the PATH. Each child runs with ``PYTHONHASHSEED=0``, and the same
code gives the same count from run to run; two versions of the code differ by up to
about 1% for reasons of memory layout alone (which pools the allocator takes), so a
change smaller than that needs a larger N (``--messages 3000``) or several sizes to be
seen. It takes about a minute per target at 1,000 messages. Instructions are not time:
memory traffic (cache misses, which grow with the conversation's size) is not counted,
so check a change that trades instructions for memory with ``bench/convert.py`` as well.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ("parse", "anthropic", "gemini", "bedrock-converse")
# Enough for every kind of message the conversation holds (images by URL and inline,
# a developer note...): the first of each fills a cache (mimetypes' table...) that the
# measured run must find filled.
WARM_UP_MESSAGES = 60


def child(target: str, messages: int, convert: bool) -> None:
    """What runs under Valgrind: the same work in both runs, but the conversion itself
    (``convert``), whose result is freed before the child ends (freeing is part of it)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from convert import conversation

    from providers import formats

    def run(payload: dict[str, object]) -> object:
        if target == "parse":
            return formats.parse("openai-chat", payload)
        return formats.convert("openai-chat", target, payload)

    run(conversation(WARM_UP_MESSAGES))  # imports, caches: in the baseline too
    payload = copy.deepcopy(conversation(messages))
    if convert:
        result = run(payload)
        del result


def instructions(target: str, messages: int, convert: bool) -> int:
    """The instructions one child executes, as cachegrind counts them."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        target,
        "--messages",
        str(messages),
    ] + ([] if convert else ["--baseline"])
    environment = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed for {target}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--child", metavar="TARGET", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.messages, convert=not args.baseline)
        return
    targets = args.targets.split(",")
    unknown = set(targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; known: {', '.join(TARGETS)}")
    print(f"openai-chat -> target, {args.messages} messages, instructions per message")
    print(f"{'target':<17} {'per message':>12} {'conversion':>14} {'baseline':>14}")
    # One run outside Valgrind first writes the bytecode caches of every module the
    # children import: otherwise the first child compiles what the second only loads,
    # and the difference counts the compilation (1-2k instructions per message).
    warm = [sys.executable, __file__, "--child", targets[0], "--messages", "1", "--baseline"]
    subprocess.run(warm, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    for target in targets:
        baseline = instructions(target, args.messages, convert=False)
        total = instructions(target, args.messages, convert=True)
        per_message = (total - baseline) / args.messages
        print(f"{target:<17} {per_message:>12,.0f} {total - baseline:>14,} {baseline:>14,}")


if __name__ == "__main__":
    main()
