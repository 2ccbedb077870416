"""Bad input: every case of the corpus (tests/security/bad_inputs.py) sent to the API, timed.

Each case must be answered with a 4xx JSON error naming the field, in under a second, with
no row written. Runs in-process through Django's test client against PostgreSQL from
DATABASE_URL, in a database of its own (``<name>_badinput``, dropped afterwards). Then
measures what strict JSON parsing (conversations/json_input.py) costs over plain orjson
on a ~10 MB import body.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/umf_archive \\
        .venv/bin/python bench/bad_input.py [--verbose]

Exit status 1 if any case is slower than a second, not a 4xx JSON error, or writes a row.
Goal (issue 7, item 4): every case refused in under a second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
# Hundreds of refused imports a minute is the point, not a client to slow down.
os.environ.setdefault("UMF_RATE_IMPORTS", "1000000/min")
os.environ.setdefault("UMF_RATE_REPLAYS", "1000000/min")

LIMIT_S = 1.0


def row_counts() -> dict[str, int]:
    from django.apps import apps

    return {model.__name__: model._default_manager.count() for model in apps.get_models()}


def check(case: Any, response: Any) -> str | None:
    """Why the answer to ``case`` is wrong (None when it is right)."""
    import orjson

    if response.status_code not in case.statuses:
        return f"status {response.status_code}, expected {case.statuses}"
    if not response.get("Content-Type", "").startswith("application/json"):
        return "not JSON"
    error = orjson.loads(response.content).get("error") or {}
    if not (error.get("code") and error.get("message") and error.get("field")):
        return f"error without code, message or field: {error}"
    if case.field is not None and error["field"] != case.field:
        return f"field {error['field']!r}, expected {case.field!r}"
    return None


def run_corpus(verbose: bool) -> bool:
    import logging

    from django.contrib.auth.models import User
    from django.test import Client

    from fakes import bad_inputs

    logging.getLogger("django.request").setLevel(logging.ERROR)  # every case is a 4xx
    user = User.objects.create_user("bench-bad-input")
    client = Client()
    client.force_login(user)
    body = {"format": "umf", "payload": [{"role": "user", "content": "a question?"}]}
    imported = client.post("/api/v1/conversations/import", body, content_type="application/json")
    conversation_id = imported.json()["conversations"][0]["id"]

    timings: list[tuple[float, str]] = []
    problems: list[str] = []
    for case in bad_inputs.corpus():
        before = row_counts()
        started = time.perf_counter()
        response = client.generic("POST", case.url(conversation_id), case.body, case.content_type)
        elapsed = time.perf_counter() - started
        timings.append((elapsed, case.name))
        problem = check(case, response)
        if problem is None and row_counts() != before:
            problem = "wrote a row"
        if problem is None and elapsed >= LIMIT_S:
            problem = f"took {elapsed:.3f} s"
        if problem is not None:
            problems.append(f"{case.name}: {problem}")
        if verbose:
            print(f"{elapsed * 1000:9.1f} ms  {response.status_code}  {case.name[:90]}")

    seconds = [elapsed for elapsed, _ in timings]
    slowest = sorted(timings, reverse=True)[:5]
    print(f"cases: {len(timings)}")
    print(f"median: {statistics.median(seconds) * 1000:.1f} ms")
    print(f"p95: {statistics.quantiles(seconds, n=20)[-1] * 1000:.1f} ms")
    print(f"max: {max(seconds) * 1000:.1f} ms")
    print("slowest: " + "; ".join(f"{name} {s * 1000:.0f} ms" for s, name in slowest))
    for problem in problems:
        print(f"FAIL {problem}")
    return not problems


def json_input_cost(repeats: int) -> None:
    import orjson

    from conversations import json_input

    messages = [
        {
            "role": "user" if index % 2 == 0 else "assistant",
            "content": [{"type": "text", "text": f"message {index}: " + "lorem ipsum " * 35}],
            "metadata": {"n": index, "tags": ["a", "b"]},
        }
        for index in range(20_000)
    ]
    raw = orjson.dumps({"format": "umf", "payload": {"messages": messages}})

    def best(parse: Any) -> float:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            parse(raw)
            times.append(time.perf_counter() - started)
        return min(times) * 1000

    plain, strict = best(orjson.loads), best(json_input.loads)
    print(
        f"parse a {len(raw) / 1e6:.1f} MB body (best of {repeats}): orjson {plain:.0f} ms, "
        f"strict {strict:.0f} ms ({strict / plain:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every case's time")
    parser.add_argument("--repeats", type=int, default=5, help="strict JSON timing repeats")
    args = parser.parse_args()

    import django
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        sys.exit("set DATABASE_URL to a PostgreSQL server (the archive's store of record)")
    django.setup()
    from django.test.utils import get_runner, setup_test_environment

    setup_test_environment()
    runner = get_runner(settings)(verbosity=0, keepdb=False)
    database = settings.DATABASES["default"]
    database["TEST"]["NAME"] = database["NAME"] + "_badinput"
    old = runner.setup_databases()
    try:
        passed = run_corpus(args.verbose)
    finally:
        runner.teardown_databases(old)
    json_input_cost(args.repeats)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
