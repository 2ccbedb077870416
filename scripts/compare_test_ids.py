"""Compare two lists of collected test ids (``pytest --collect-only -q``) when tests have
moved: a test is the same test wherever its file went if its name and parameters are the
same, so ids are matched on what follows the file path (``test_name[params]``, with the
class, if any), as a multiset.

    pytest --collect-only -q | grep :: > after.txt
    python scripts/compare_test_ids.py before.txt after.txt

Prints the counts, the tests of ``before`` that no longer exist under any path (merged or
lost: each one wants a reason), and exits 1 if there are any.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = test_names(args.before), test_names(args.after)
    missing = before - after
    print(f"before: {sum(before.values())} tests, after: {sum(after.values())}")
    print(f"new: {sum((after - before).values())}, gone: {sum(missing.values())}")
    for name, count in sorted(missing.items()):
        print(f"  gone: {name}" + (f" (x{count})" if count > 1 else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
