"""Replay fault soak (issue 7, item 9): 1,000 replays through real Celery workers (Redis
broker, PostgreSQL) against a fake provider that fails about 25% of its calls: 429 with
retry-after (one longer than a worker's longest countdown), 503 with retry-after, 500,
529, hangs past the client's timeout, streams cut short or ending in an error event,
malformed JSON, 400 and 401.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/soak.py --runs 1000

Goals, all checked (exit 1 when one is missed): every run ends, succeeded or failed with
its reason; 0 lost; 0 duplicated turns; a fault not to retry (400, 401, bad JSON) is the
run's last call; every retry after a retry-after waited at least that long, as the fake
provider's own request log shows. Uses the database umf_bench_soak (made afresh) and Redis
database 6 (BENCH_BROKER_URL to change it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import _replay_harness

BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/6")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--fault-rate", type=float, default=0.25)
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--concurrency", type=int, default=20, help="threads per worker")
    parser.add_argument("--latency", type=float, default=0.05, help="provider latency (s)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    url = _replay_harness.setup_database("umf_bench_soak")
    return run_soak(args, url)


def run_soak(args: argparse.Namespace, database_url: str) -> int:
    import redis
    from django.conf import settings
    from django.contrib.auth.models import User

    from fakes import replay_soak
    from fakes.provider_server import FakeProviderServer
    from umfsite.celery import app

    redis.Redis.from_url(BROKER).flushdb()
    queue = f"soak-{uuid.uuid4().hex[:6]}"
    app.conf.update(broker_url=BROKER, task_always_eager=False, task_default_queue=queue)
    plan = replay_soak.soak_plan(seed=args.seed, rate=args.fault_rate)
    log_path = Path(tempfile.gettempdir()) / f"umf-bench-{queue}.log"
    with (
        log_path.open("wb") as log,
        FakeProviderServer(api_key=replay_soak.KEY, latency=args.latency) as server,
    ):
        settings.UMF_PROVIDERS = replay_soak.soak_providers(server)
        workers = [
            replay_soak.start_worker(
                database_url=database_url,
                broker_url=BROKER,
                queue=queue,
                providers=settings.UMF_PROVIDERS,
                concurrency=args.concurrency,
                name=f"soak{index}",
                log=log,
            )
            for index in range(args.workers)
        ]
        try:
            owner = User.objects.create_user("soak")
            prepared = time.monotonic()
            conversations = replay_soak.import_conversations(owner=owner, count=args.runs)
            print(f"{args.runs} conversations imported in {time.monotonic() - prepared:.1f} s")
            server.fault_plan = plan
            began = time.monotonic()
            started = replay_soak.start_runs(conversations)
            _wait(started.values(), args.timeout)
            elapsed = time.monotonic() - began
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=30)
        report = replay_soak.check_soak(started, server.requests)
    _print(args, report, elapsed)
    print(f"worker log: {log_path}")
    return 1 if report.violations else 0


def _wait(run_ids: object, timeout: float) -> None:
    from fakes.replay_soak import unfinished

    ids = list(run_ids)  # type: ignore[call-overload]
    deadline = time.monotonic() + timeout
    left = unfinished(ids)
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = unfinished(ids)


def _print(args: argparse.Namespace, report: object, elapsed: float) -> None:
    from fakes import replay_soak

    assert isinstance(report, replay_soak.SoakReport)
    audit = report.audit
    failed = sum(report.failed.values())
    print(
        f"runs: {report.runs}  workers: {args.workers} x {args.concurrency} threads  "
        f"provider latency: {args.latency * 1000:.0f} ms  fault rate asked: {args.fault_rate:.0%}"
    )
    print(
        f"ended: {report.runs - report.lost}/{report.runs}  succeeded: {report.succeeded}  "
        f"failed: {failed}  lost: {report.lost}  duplicated turns: {report.duplicated_turns}"
    )
    for reason, count in report.failed.most_common():
        print(f"  failed, {reason}: {count}")
    print(
        f"requests: {audit.requests} for {audit.calls} turns  faults: {audit.faults} "
        f"({audit.faults / max(audit.requests, 1):.0%})  provider calls recorded: "
        f"{report.provider_calls}"
    )
    print("  " + "  ".join(f"{kind}: {n}" for kind, n in sorted(audit.outcomes.items())))
    margin = audit.least_margin
    shortest = min((waited for waited, _ in audit.waits), default=None)
    print(
        f"retries: {audit.retries}, of which {len(audit.waits)} after a retry-after: "
        f"{sum(waited >= asked for waited, asked in audit.waits)} waited at least as asked"
        + (f" (least margin {margin:+.2f} s, shortest wait {shortest:.2f} s)" if margin else "")
    )
    long_waits = [asked for _, asked in audit.waits if asked > replay_soak.MAX_COUNTDOWN]
    print(
        f"  {len(long_waits)} of them asked for longer than a worker's longest countdown "
        f"({replay_soak.MAX_COUNTDOWN} s): served by deferring again until due"
    )
    print(f"wall time, from the first run started to the last ended: {elapsed:.1f} s")
    print("violations: " + (str(len(report.violations)) if report.violations else "none"))
    for violation in report.violations[:10]:
        print(f"  {violation}")


if __name__ == "__main__":
    sys.exit(main())
