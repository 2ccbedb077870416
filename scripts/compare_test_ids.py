"""Compare two lists of collected test ids (``pytest --collect-only -q``) when tests have
moved: a test is the same test wherever its file went if its name and parameters are the
same, so ids are matched on what follows the file path (``test_name[params]``, with the
class, if any), as a multiset.

    pytest --collect-only -q | grep :: > after.txt
    python scripts/compare_test_ids.py before.txt after.txt

A test that became one case of a test parametrised more widely (``test_x[exchange]`` →
``test_x[appam-exchange]``: the same name, its old parameters inside the new ones) counts
as kept. Prints the counts, the tests of ``before`` that no longer exist under any path
(merged or lost: each one wants a reason), and exits 1 if there are any.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path


def test_names(path: Path) -> Counter[str]:
    """The ids of a collect-only listing, without their file path."""
    names: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        if "::" in line:
            names[line.split("::", 1)[1].strip()] += 1
    return names


def _widened(name: str, after: Counter[str]) -> bool:
    """Whether ``name`` (``test[params]``) lives on as a case of a wider parametrisation."""
    function, _, params = name.partition("[")
    params = params.rstrip("]")
    return any(
        other.startswith(function + "[") and params in other[len(function) + 1 : -1]
        for other in after
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = test_names(args.before), test_names(args.after)
    missing = before - after
    widened = {name for name in missing if _widened(name, after)}
    for name in widened:
        del missing[name]
    print(f"before: {sum(before.values())} tests, after: {sum(after.values())}")
    print(f"new: {sum((after - before).values())}, parametrised more widely: {len(widened)}")
    print(f"gone: {sum(missing.values())}")
    for name, count in sorted(missing.items()):
        print(f"  gone: {name}" + (f" (x{count})" if count > 1 else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
