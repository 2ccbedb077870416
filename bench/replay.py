"""Replay throughput: N replay runs through real Celery workers (Redis broker, PostgreSQL)
against a fake provider that answers after 200 ms.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/umf_archive \\
        .venv/bin/python bench/replay.py --runs 500 --workers 2 --concurrency 25

Prints runs per second against the ideal (total concurrency / provider latency), the share
of runs that ended succeeded and failed, lost runs (never finished) and duplicated turns,
and the CPU milliseconds each run cost in each process (workers, this process with the fake
provider, the PostgreSQL backends of the bench database, the Redis server), with the load
average. The runs are created before the clock starts; the clock covers enqueueing them and
their execution. BENCH_DATABASE names the database it drops and creates (default
umf_bench_replay), BENCH_BROKER_URL the Redis database it flushes (default 12).
Goal (issue 4): at least 80% of the ideal with 50 concurrent calls, 0 lost, 0 duplicated.
With --floor each task only sleeps for the provider latency and marks its run succeeded
(one UPDATE): the most the workers, the broker and this machine allow, whatever replays do.
With --fault-rate the fake provider fails that share of calls (429 with retry-after, 5xx,
529, hangs, truncated streams, malformed JSON, 400, 401): the soak test of issue 7.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

# --floor workers import this file as ``bench.replay``: the harness beside it must be found.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _replay_harness

ROOT = _replay_harness.ROOT
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
# Dropped and created again by every run: name one of your own when benchmarks share a server.
DATABASE = os.environ.get("BENCH_DATABASE", "umf_bench_replay")

from umfsite.celery import app as celery_app  # noqa: E402


@celery_app.task(name="bench.replay_floor")
def replay_floor(run_id: str, latency: float) -> None:
    """--floor: a task that costs what Celery costs, a sleep for the provider, one UPDATE."""
    from django.utils import timezone

    from conversations import models

    time.sleep(latency)
    models.ReplayRun.objects.filter(pk=run_id).update(
        status="succeeded", finished_at=timezone.now()
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--concurrency", type=int, default=25, help="threads per worker")
    parser.add_argument("--latency", type=float, default=0.2, help="provider latency (s)")
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--floor", action="store_true", help="sleep-only tasks (see above)")
    args = parser.parse_args()

    _replay_harness.setup_database(DATABASE)
    run_benchmark(args)


def run_benchmark(args: argparse.Namespace) -> None:
    import redis

    from fakes.provider_server import FakeProviderServer, Fault, RandomFaults

    redis.Redis.from_url(BROKER).flushdb()
    _prepare_owner()
    plan = None
    if args.fault_rate:
        plan = RandomFaults(
            seed=7,
            rate=args.fault_rate,
            faults=[
                Fault.rate_limited(retry_after="1"),
                Fault.server_error(),
                Fault.overloaded(),
                Fault.hang(3),
                Fault.truncated(),
                Fault.malformed_json(),
                Fault.bad_request(),
                Fault.unauthorized(),
            ],
        )
    with FakeProviderServer(latency=args.latency, fault_plan=plan) as server:
        queue = f"bench-{uuid.uuid4().hex[:6]}"
        workers = _start_workers(args, queue, server)
        try:
            # Warm up: worker boot, imports and connections are not what is measured.
            warm = _create_runs(args.workers * args.concurrency, queue)
            _enqueue(warm, args)
            _wait(warm, args.timeout)
            plan, server.fault_plan = server.fault_plan, None  # type: ignore[attr-defined]
            calls_before = len(server.requests)  # type: ignore[attr-defined]
            server.fault_plan = plan  # type: ignore[attr-defined]
            run_ids = _create_runs(args.runs, queue)
            cpu = CpuMeter([worker.pid for worker in workers])
            started = time.time()
            _enqueue(run_ids, args)
            finished = _wait(run_ids, args.timeout)
            elapsed = _last_finish(run_ids) - started
            spent = cpu.spent()
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=30)
        _report(args, run_ids, finished, elapsed, len(server.requests) - calls_before)
        _report_cpu(spent, len(run_ids))


def _prepare_owner() -> None:
    from django.conf import settings
    from django.contrib.auth.models import User

    from conversations import services

    payload = [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": "Paris."},
    ]
    owner = User.objects.create_user("bench")
    services.conversation_import(owner=owner, format_id="umf", payload=payload)
    settings.UMF_PROVIDERS = [{"name": "fake", "kind": "openai-chat", "base_url": "unused"}]


def _create_runs(count: int, queue: str) -> list[str]:
    """Create ``count`` queued runs as the API would, holding back their tasks."""
    from unittest import mock

    from django.db import transaction

    from conversations import models
    from conversations.services import replays
    from conversations.tasks import replay_run_execute
    from umfsite.celery import app

    app.conf.update(broker_url=BROKER, task_always_eager=False, task_default_queue=queue)
    conversation = models.Conversation.objects.get()
    with mock.patch.object(replay_run_execute, "delay"), transaction.atomic():
        runs = [
            replays.replay_start(
                owner=conversation.owner,
                conversation=conversation,
                provider="fake",
                model="fake-1",
            )
            for _ in range(count)
        ]
    return [str(run.pk) for run in runs]


def _enqueue(run_ids: list[str], args: argparse.Namespace) -> None:
    """Send the tasks ``replay_start`` would have sent on commit (or the floor's)."""
    from conversations.tasks import replay_run_execute

    for run_id in run_ids:
        if args.floor:
            replay_floor.delay(run_id, args.latency)
        else:
            replay_run_execute.delay(run_id)


class CpuMeter:
    """CPU seconds (user + system) spent from now on by the workers (and their children),
    this process, the PostgreSQL backends serving the bench database, and Redis. Redis is
    the machine's shared server: what others do with it at the same time counts too."""

    def __init__(self, worker_pids: list[int]) -> None:
        import psutil

        self.workers = [psutil.Process(pid) for pid in worker_pids]
        self.before = self._read()

    def spent(self) -> dict[str, float]:
        after = self._read()
        spent = {name: after[name] - self.before.get(name, 0.0) for name in ("worker", "bench")}
        spent["postgres"] = sum(
            cpu - self.before["backends"].get(pid, 0.0) for pid, cpu in after["backends"].items()
        )
        spent["redis"] = after["redis"] - self.before["redis"]
        return spent

    def _read(self) -> dict[str, Any]:
        import psutil
        import redis

        def seconds(process: psutil.Process) -> float:
            times = process.cpu_times()
            return float(times.user + times.system)

        worker = 0.0
        for process in self.workers:
            worker += seconds(process)
            worker += sum(seconds(child) for child in process.children(recursive=True))
        info = redis.Redis.from_url(BROKER).info("cpu")
        return {
            "worker": worker,
            "bench": seconds(psutil.Process()),
            "backends": {pid: seconds(psutil.Process(pid)) for pid in _backend_pids()},
            "redis": float(info["used_cpu_user"]) + float(info["used_cpu_sys"]),
        }


def _backend_pids() -> list[int]:
    import psutil
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [DATABASE])
        pids = [row[0] for row in cursor.fetchall()]
    return [pid for pid in pids if psutil.pid_exists(pid)]


def _start_workers(
    args: argparse.Namespace, queue: str, server: object
) -> list[subprocess.Popen[bytes]]:
    import orjson
    from django.conf import settings

    database = settings.DATABASES["default"]
    providers = [server.provider_settings("openai-chat", "fake-1", timeout=10)]  # type: ignore[attr-defined]
    env = {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT'] or 5432}"
            f"/{DATABASE}"
        ),
        "CELERY_BROKER_URL": BROKER,
        "CELERY_QUEUE": queue,
        "UMF_EXTRA_PROVIDERS": orjson.dumps(providers).decode(),
        "UMF_REPLAY_MAX_COUNTDOWN": "5",
        "DATABASE_POOL_MAX_SIZE": str(args.concurrency + 2),
        "LOG_LEVEL": "WARNING",
        # As in production: with DEBUG on, Django records every query of every task.
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-replay-" + uuid.uuid4().hex * 2,
        "DJANGO_ALLOWED_HOSTS": "localhost",
    }
    return [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "umfsite",
                "worker",
                "--pool=threads",
                f"--concurrency={args.concurrency}",
                "-Q",
                queue,
                os.environ.get("BENCH_WORKER_LOGLEVEL", "--loglevel=warning"),
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                f"--hostname=bench{index}@%h",
                *(["--include=bench.replay"] if args.floor else []),
            ],
            cwd=ROOT,
            env=env,
        )
        for index in range(args.workers)
    ]


def _wait(run_ids: list[str], timeout: float) -> int:
    from conversations import models

    deadline = time.monotonic() + timeout
    done = 0
    while time.monotonic() < deadline:
        done = models.ReplayRun.objects.filter(
            pk__in=run_ids, status__in=["succeeded", "failed"]
        ).count()
        if done == len(run_ids):
            break
        time.sleep(0.2)
    return done


def _last_finish(run_ids: list[str]) -> float:
    """When the last run ended (its ``finished_at``, stamped by the worker on this
    machine's clock): polling for the end would add up to a poll interval."""
    from django.db.models import Max

    from conversations import models

    last = models.ReplayRun.objects.filter(pk__in=run_ids).aggregate(Max("finished_at"))
    return float(last["finished_at__max"].timestamp()) if last["finished_at__max"] else time.time()


def _report(
    args: argparse.Namespace, run_ids: list[str], finished: int, elapsed: float, calls: int
) -> None:
    from django.db.models import Count

    from conversations import models

    runs = models.ReplayRun.objects.filter(pk__in=run_ids)
    succeeded = runs.filter(status="succeeded").count()
    failed = runs.filter(status="failed").count()
    duplicated = (
        models.Message.objects.filter(replay_run__in=runs)
        .values("replay_run")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    concurrency = args.workers * args.concurrency
    ideal = concurrency / args.latency
    rate = finished / elapsed if elapsed else 0.0
    print(
        f"runs: {len(run_ids)}  workers: {args.workers} x {args.concurrency} threads  "
        f"provider latency: {args.latency * 1000:.0f} ms  fault rate: {args.fault_rate:.0%}"
        + ("  FLOOR: sleep-only tasks" if args.floor else "")
    )
    print(
        f"elapsed: {elapsed:.1f} s  throughput: {rate:.1f} runs/s  ideal: {ideal:.0f} runs/s  "
        f"({rate / ideal:.0%} of ideal)"
    )
    print(
        f"succeeded: {succeeded} ({succeeded / len(run_ids):.1%})  failed: {failed} "
        f"({failed / len(run_ids):.1%})  lost: {len(run_ids) - finished}  "
        f"duplicated turns: {duplicated}  provider calls: {calls}"
    )
    reasons = runs.filter(status="failed").values_list("error", flat=True)[:5]
    for reason in reasons:
        print(f"  failed because: {reason[:120]}")


def _report_cpu(spent: dict[str, float], runs: int) -> None:
    parts = "  ".join(f"{name} {seconds / runs * 1000:.1f}" for name, seconds in spent.items())
    total = sum(spent.values()) / runs * 1000
    print(f"CPU ms per run: {parts}  total {total:.1f}")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average at the end (1, 5, 15 min): {load}  cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
