"""Load (issue 7, item 10): 50 people browsing, searching and exporting while imports run,
for 5 minutes, driven by locust from a second process over loopback against gunicorn
(3 processes x 4 threads, keep-alive) on a filled PostgreSQL archive, with a Celery worker
for the background imports.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/load.py [--users 50] [--duration 300] [--reuse]

Fills the database umf_bench_soak_load (bench/pages.py's archive: --conversations of 20
messages each, COPY-loaded; --reuse keeps one filled by an earlier run, migrated) and uses Redis
database 6 (BENCH_BROKER_URL). Prints p50/p95 per page type, the failures by status and
the machine's load average. Goals (exit 1 when one is missed): p95 of the list and of
the conversation page under 300 ms (a search's p95 is printed against the same bar); 0 server
errors, 0 failed requests.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import _replay_harness

ROOT = _replay_harness.ROOT
DATABASE = "umf_bench_soak_load"
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/6")
USERNAME, PASSWORD = "load", "load-password-2f9c"
# The server's key, set here too, so the sessions this process makes are valid there.
SECRET_KEY = "bench-load-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
os.environ["DJANGO_SECRET_KEY"] = SECRET_KEY
GOAL_MS = 300.0
# The goal names the list and the conversation page; a search (the list page with
# ?q=) is printed against the same bar but does not fail the run.
GATED = ("list", "conversation")
WATCHED = ("search",)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--spawn-rate", type=float, default=10, help="users started a second")
    parser.add_argument("--duration", type=int, default=300, help="seconds")
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument(
        "--search-weight", type=int, default=2, help="searches per 3 lists, 4 reads, 1 export"
    )
    parser.add_argument("--reuse", action="store_true", help="keep an already filled database")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--web-workers", type=int, default=3, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
    parser.add_argument("--worker-class", default="gthread", help="gunicorn's (sync to compare)")
    parser.add_argument("--keep-alive", type=int, default=5, help="seconds (gunicorn's)")
    args = parser.parse_args()
    token = prepare_database(args)
    output = Path(tempfile.mkdtemp(prefix="umf-load-"))
    environment = server_environment()
    collect_static(environment)
    processes = [start_worker(environment, output), start_web(args, environment, output)]
    try:
        wait_for_web(args.port)
        sessions = logged_in_sessions(args.users)
        warm_up(args, sessions[0])
        load_before = os.getloadavg()
        run_locust(args, token, sessions, output)
        load_after = os.getloadavg()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)
    return report(args, output, load_before, load_after)


def prepare_database(args: argparse.Namespace) -> str:
    """A filled archive for the user ``load``; the user's API token."""
    if not (args.reuse and _filled()):
        _replay_harness.setup_database(DATABASE)
        from django.contrib.auth.models import User
        from django.db import connection
        from pages import fill

        user = User.objects.create_user(USERNAME, password=PASSWORD)
        started = time.monotonic()
        fill(user.pk, args.conversations, connection)
        print(f"filled {args.conversations} conversations in {time.monotonic() - started:.0f} s")
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=User.objects.get(username=USERNAME))
    return str(token.key)


def logged_in_sessions(count: int) -> list[str]:
    """Session keys of the user ``load``, one per simulated person: logging 50 people in
    at once costs 50 password hashes in the first seconds, which is not what is measured."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.get(username=USERNAME)
    keys = []
    for _ in range(count):
        client = Client()
        client.force_login(user)
        keys.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    return keys


def _filled() -> bool:
    """Whether the benchmark's database exists with its user (then point Django at it)."""
    import django
    import psycopg
    from django.conf import settings

    database = settings.DATABASES["default"]
    database["NAME"] = DATABASE
    try:
        with psycopg.connect(_replay_harness_url(), connect_timeout=5) as connection:
            found = connection.execute(
                "SELECT 1 FROM auth_user WHERE username = %s", [USERNAME]
            ).fetchone()
    except psycopg.Error:
        return False
    django.setup()
    if found is not None:
        # An archive filled by an older version: bring its schema up to this one's.
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return found is not None


def _replay_harness_url() -> str:
    return _replay_harness.database_url()


def server_environment() -> dict[str, str]:
    """What gunicorn and the worker run with: production settings, over plain HTTP."""
    return {
        **os.environ,
        "DATABASE_URL": _replay_harness.database_url(),
        "CELERY_BROKER_URL": BROKER,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "UMF_RATE_IMPORTS": "1000000/min",
        "UMF_RATE_REPLAYS": "1000000/min",
        "LOG_LEVEL": "WARNING",
    }


def collect_static(environment: dict[str, str]) -> None:
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(command, cwd=ROOT, env=environment, check=True)


def start_worker(environment: dict[str, str], output: Path) -> subprocess.Popen[bytes]:
    import redis

    redis.Redis.from_url(BROKER).flushdb()
    log = (output / "worker.log").open("wb")
    command = [sys.executable, "-m", "celery", "-A", "umfsite", "worker", "--pool=threads"]
    command += ["--concurrency=2", "--loglevel=warning", "--without-heartbeat"]
    command += ["--without-gossip", "--without-mingle"]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=log)


def start_web(
    args: argparse.Namespace, environment: dict[str, str], output: Path
) -> subprocess.Popen[bytes]:
    log = (output / "gunicorn.log").open("wb")
    command = [sys.executable, "-m", "gunicorn", "umfsite.wsgi:application"]
    command += ["--bind", f"127.0.0.1:{args.port}", "--workers", str(args.web_workers)]
    command += ["--worker-class", args.worker_class, "--threads", str(args.threads)]
    command += ["--keep-alive", str(args.keep_alive), "--timeout", "60"]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=log)


def wait_for_web(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    sys.exit("gunicorn did not answer within 60 s")


def warm_up(args: argparse.Namespace, session: str) -> None:
    """Every server thread answers the list and a conversation once before the clock
    starts: its database connection open, its templates compiled, as on a running site."""
    from concurrent.futures import ThreadPoolExecutor

    from django.conf import settings

    base = f"http://127.0.0.1:{args.port}"

    def get(path: str) -> str:
        request = urllib.request.Request(base + path)
        request.add_header("cookie", f"{settings.SESSION_COOKIE_NAME}={session}")
        with urllib.request.urlopen(request, timeout=60) as response:
            return str(response.read().decode())

    found = re.search(r'href="(/conversations/[0-9a-f-]{36}/)"', get("/"))
    paths = ["/", "/?q=umbrella"] + ([found.group(1)] if found else [])
    threads = args.web_workers * args.threads
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(get, [path for path in paths for _ in range(2 * threads)]))


def run_locust(args: argparse.Namespace, token: str, sessions: list[str], output: Path) -> None:
    """Locust in a process of its own; its CSV files land in ``output``."""
    environment = {
        **os.environ,
        "LOAD_USERNAME": USERNAME,
        "LOAD_PASSWORD": PASSWORD,
        "LOAD_TOKEN": token,
        "LOAD_SESSIONS": ",".join(sessions),
        "LOAD_IMPORTERS": str(max(args.users // 10, 1)),
        "LOAD_SEARCH_WEIGHT": str(args.search_weight),
    }
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py")]
    command += ["--headless", "--users", str(args.users), "--spawn-rate", str(args.spawn_rate)]
    command += ["--run-time", f"{args.duration}s", "--host", f"http://127.0.0.1:{args.port}"]
    command += ["--csv", str(output / "load"), "--only-summary", "--loglevel", "WARNING"]
    # Stats start once every user is running: logins and first requests are not measured.
    command += ["--stop-timeout", "10", "--reset-stats"]
    print(f"locust: {args.users} users for {args.duration} s (output in {output})", flush=True)
    with (output / "locust.log").open("wb") as log:
        subprocess.run(command, env=environment, stdout=log, stderr=log, check=False)


def report(
    args: argparse.Namespace,
    output: Path,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> int:
    with (output / "load_stats.csv").open() as handle:
        rows = {row["Name"]: row for row in csv.DictReader(handle)}
    total = rows.pop("Aggregated", {})
    missed = [f"no {name} request was made" for name in GATED if name not in rows]
    with (output / "load_failures.csv").open() as handle:
        failures = list(csv.DictReader(handle))
    print(f"{'page':<14}{'requests':>10}{'failed':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for name, row in sorted(rows.items()):
        print(
            f"{name:<14}{row['Request Count']:>10}{row['Failure Count']:>8}"
            f"{row['50%']:>9}{row['95%']:>9}{row['99%']:>9}"
        )
        slow = float(row["95%"] or 0) >= GOAL_MS
        if name in GATED and slow:
            missed.append(f"{name} p95 {row['95%']} ms >= {GOAL_MS:.0f} ms")
        if name in WATCHED and slow:
            print(f"  note: {name} p95 {row['95%']} ms is over {GOAL_MS:.0f} ms (not a goal)")
    rate = float(total.get("Requests/s") or 0)
    server_errors = sum(
        int(failure["Occurrences"])
        for failure in failures
        if re.search(r"HTTP 5\d\d", failure["Error"])
    )
    failed = sum(int(failure["Occurrences"]) for failure in failures)
    for failure in failures:
        where = f"{failure['Method']} {failure['Name']}"
        print(f"  failed: {where}: {failure['Error']} x{failure['Occurrences']}")
    if server_errors:
        missed.append(f"{server_errors} server error(s)")
    if failed > server_errors:
        missed.append(f"{failed - server_errors} other failed request(s)")
    print(
        f"gunicorn: {args.web_workers} x {args.worker_class}"
        + (f" x {args.threads} threads" if args.worker_class == "gthread" else "")
        + f", keep-alive {args.keep_alive} s"
    )
    print(
        f"users: {args.users}  duration: {args.duration} s  throughput: {rate:.1f} requests/s  "
        f"server errors: {server_errors}  failed requests: {failed}"
    )
    print(
        "load average (1, 5, 15 min) before: "
        + ", ".join(f"{value:.2f}" for value in load_before)
        + "  after: "
        + ", ".join(f"{value:.2f}" for value in load_after)
        + f"  ({os.cpu_count()} cores)"
    )
    print("goals: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
