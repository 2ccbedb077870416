"""Replay in mode ``each`` at length (issue 21): for conversations of N turns, one run that
regenerates every assistant turn against the offline ``echo`` provider, and what it costs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/replay_each.py --turns 250 500 1000 --via eager
    ... --via worker   # one Celery worker on Redis (BENCH_BROKER_URL, default db 5)

Prints, per N: the wall time from the API call's service (``replay_start``) to the run's
end, the bytes its turns take in PostgreSQL (``pg_column_size`` of the turn rows, and the
growth of the turn table with its TOAST and indexes), the peak RSS growth of the process
that ran the turns, and the provider-side prompt (the words the echo provider counted
over every call: a real provider is sent the whole prefix each turn, so it grows as the
square of the turns whatever the archive stores). ``--via eager`` runs the turns inside
the call, ``--via background`` in a thread of this process after it (both without a
broker: ``make run``), ``--via worker`` through a worker process. The turn cap
and the daily budget are lifted for the run. BENCH_DATABASE names the database it drops
and creates (default umf_bench_replay_each).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _rss import PeakRss

os.environ["UMF_REPLAY_MAX_TURNS"] = "1000000"
os.environ["UMF_REPLAY_DAILY_CALLS"] = "1000000000"
os.environ.setdefault("LOG_LEVEL", "WARNING")
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/5")
DATABASE = os.environ.get("BENCH_DATABASE", "umf_bench_replay_each")
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--via", choices=["eager", "background", "worker"], default="eager")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    if args.via == "worker":
        os.environ["CELERY_BROKER_URL"] = BROKER
    else:
        os.environ["CELERY_BROKER_URL"] = ""
        os.environ["UMF_TASKS_IN_BACKGROUND"] = str(args.via == "background").lower()
    import _replay_harness

    url = _replay_harness.setup_database(DATABASE)
    worker = _start_worker(url) if args.via == "worker" else None
    try:
        print(
            f"via {args.via}: turns, seconds, stored turn bytes, turn table growth, "
            "peak RSS growth, provider-side prompt words"
        )
        for count in args.turns:
            _measure(count, worker, args.timeout)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)


def _measure(count: int, worker: subprocess.Popen[bytes] | None, timeout: float) -> None:
    from django.contrib.auth.models import User

    from conversations import models, services
    from conversations.services import replays

    owner, _ = User.objects.get_or_create(username="bench")
    # Text that compresses as prose does, not a repeated word (TOAST would hide the bytes).
    words = random.Random(count)
    payload = [
        {
            "role": ("user", "assistant")[i % 2],
            "content": " ".join(f"{words.getrandbits(24):x}" for _ in range(20)),
        }
        for i in range(2 * count)
    ]
    _, [imported] = services.conversation_import(owner=owner, format_id="umf", payload=payload)
    conversation = models.Conversation.objects.get(pk=imported.conversation.pk)
    table_before = _table_bytes()
    rss = PeakRss(worker.pid if worker else os.getpid())
    started = time.perf_counter()
    run = replays.replay_start(
        owner=owner, conversation=conversation, provider="echo", model="echo-1", mode="each"
    )
    _wait(run.pk, timeout)
    seconds = time.perf_counter() - started
    peak = rss.stop()
    run.refresh_from_db()
    stored, prompt = _run_bytes(run.pk)
    print(
        f"{count:6} turns  {seconds:7.2f} s  {stored / 1024**2:8.1f} MB stored  "
        f"{(_table_bytes() - table_before) / 1024**2:8.1f} MB table  "
        f"{peak / 1024**2:7.0f} MB RSS  {prompt:,} prompt words  ({run.status})",
        flush=True,
    )


def _wait(run_id: object, timeout: float) -> None:
    from conversations import models

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = models.ReplayRun.objects.values_list("status", flat=True).get(pk=run_id)
        if status in ("succeeded", "failed"):
            return
        time.sleep(0.1)
    raise SystemExit(f"run {run_id} did not finish in {timeout:.0f} s")


def _run_bytes(run_id: object) -> tuple[int, int]:
    from django.db import connection

    from conversations import models

    table = connection.ops.quote_name(models.ReplayTurn._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT coalesce(sum(pg_column_size(t.*)), 0), "
            f"coalesce(sum((t.usage->>'prompt_tokens')::bigint), 0) "
            f"FROM {table} t WHERE t.run_id = %s",
            [run_id],
        )
        stored, prompt = cursor.fetchone()
    return int(stored), int(prompt)


def _table_bytes() -> int:
    from django.db import connection

    from conversations import models

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size(%s)", [models.ReplayTurn._meta.db_table])
        return int(cursor.fetchone()[0])


def _start_worker(database_url: str) -> subprocess.Popen[bytes]:
    import redis

    redis.Redis.from_url(BROKER).flushdb()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": BROKER,
        "LOG_LEVEL": "WARNING",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-replay-each-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "localhost",
    }
    command = [sys.executable, "-m", "celery", "-A", "umfsite", "worker", "--pool=solo",
               "--loglevel=warning", "--without-heartbeat", "--without-gossip",
               "--without-mingle", "--hostname=replay-each@%h"]  # fmt: skip
    worker = subprocess.Popen(command, cwd=ROOT, env=env)
    time.sleep(5)  # boot: imports and connections are not what is measured
    return worker


if __name__ == "__main__":
    main()
