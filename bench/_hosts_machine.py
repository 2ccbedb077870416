"""The hosts of ``bench/hosts.py``: network namespaces on one bridge, each with its own
loopback, address and directories, and the PostgreSQL cluster and Redis they share."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
BRIDGE, SUBNET, SERVICES = "umfbr0", "10.231.0", "10.231.0.1"
PG_PORT, REDIS_PORT, WEB_PORT = 55432, 56379, 8000
HOSTS = {"web-a": 11, "web-b": 12, "worker-b1": 21, "worker-b2": 22, "beat": 31}


def run(*command: str, check: bool = True, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, check=False, text=True, capture_output=True, **kwargs)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {result.stderr.strip() or result.stdout}")
    return result


class Machine:
    """The namespaces, the bridge, the shared services and the hosts' processes."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.redis: subprocess.Popen[bytes] | None = None
        self.pgdata = workdir / "pgdata"
        self.database_url = f"postgres://umf:umf@{SERVICES}:{PG_PORT}/umf_hosts"
        self.broker_url = f"redis://{SERVICES}:{REDIS_PORT}/0"
        self.secret = secrets.token_urlsafe(40)

    # -- network ---------------------------------------------------------------------
    def network_up(self) -> None:
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{SERVICES}/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for name, number in HOSTS.items():
            namespace, outside, inside = f"umf-{name}", f"umfv{number}", f"umfv{number}i"
            run("ip", "netns", "add", namespace)
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
            run("ip", "link", "set", inside, "netns", namespace)
            run("ip", "link", "set", outside, "master", BRIDGE)
            run("ip", "link", "set", outside, "up")
            inns = ("ip", "netns", "exec", namespace, "ip")
            run(*inns, "addr", "add", f"{SUBNET}.{number}/24", "dev", inside)
            run(*inns, "link", "set", inside, "up")
            run(*inns, "link", "set", "lo", "up")

    def network_down(self) -> None:
        for name in HOSTS:
            run("ip", "netns", "del", f"umf-{name}", check=False)
        run("ip", "link", "del", BRIDGE, check=False)

    # -- shared services -------------------------------------------------------------
    def postgres_up(self) -> None:
        self.pgdata.mkdir()
        shutil.chown(self.pgdata, "postgres", "postgres")
        self.workdir.chmod(0o755)
        as_postgres = ("runuser", "-u", "postgres", "--")
        password = self.workdir / "pw"
        password.write_text("umf\n")
        password.chmod(0o644)
        run(
            *as_postgres,
            "initdb",
            "-D",
            str(self.pgdata),
            "-U",
            "umf",
            "-A",
            "md5",
            f"--pwfile={password}",
        )
        with (self.pgdata / "pg_hba.conf").open("a") as rules:
            rules.write(f"host all all {SUBNET}.0/24 md5\n")  # the hosts, on the bridge
        self.postgres("start")
        run(
            "createdb",
            "-h",
            SERVICES,
            "-p",
            str(PG_PORT),
            "-U",
            "umf",
            "umf_hosts",
            env={**os.environ, "PGPASSWORD": "umf"},
        )

    def postgres(self, action: str) -> None:
        options = f"-c listen_addresses={SERVICES} -c port={PG_PORT} -c max_connections=200"
        run(
            "runuser",
            "-u",
            "postgres",
            "--",
            "pg_ctl",
            "-D",
            str(self.pgdata),
            "-w",
            "-l",
            str(self.pgdata / "log"),
            "-o",
            options,
            action,
        )

    def redis_up(self) -> None:
        # No persistence: a broker that comes back empty, the worst case for lost tasks.
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                SERVICES,
                "--port",
                str(REDIS_PORT),
                "--save",
                "",
                "--appendonly",
                "no",
                # Reachable only on the bridge this script made; the hosts have no password.
                "--protected-mode",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=(self.workdir / "redis.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_for(
            lambda: (
                run(
                    "redis-cli", "-h", SERVICES, "-p", str(REDIS_PORT), "ping", check=False
                ).stdout.strip()
                == "PONG"
            ),
            10,
            "redis",
        )

    def redis_down(self) -> None:
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(timeout=10)
            self.redis = None

    # -- hosts -----------------------------------------------------------------------
    def environment(self, host: str) -> dict[str, str]:
        home = self.workdir / host
        (home / "tmp").mkdir(parents=True, exist_ok=True)
        return {
            "PATH": os.environ["PATH"],
            "HOME": str(home),
            "TMPDIR": str(home / "tmp"),
            "DJANGO_SETTINGS_MODULE": "umfsite.settings",
            "DJANGO_DEBUG": "true",
            "DJANGO_SECRET_KEY": self.secret,
            "DJANGO_ALLOWED_HOSTS": "*",
            "DATABASE_URL": self.database_url,
            "CELERY_BROKER_URL": self.broker_url,
            "CELERY_VISIBILITY_TIMEOUT": "30",
            "UMF_IMPORT_LEASE_SECONDS": "4",
            "UMF_REPLAY_LEASE_SECONDS": "4",
            "UMF_REPLAY_RECONCILE_SECONDS": "2",
            "UMF_RATE_IMPORTS": "1000/min",
            "UMF_RATE_REPLAYS": "1000/min",
        }

    def start(self, host: str, *command: str, **extra: str) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"{host}.log").open("ab")
        process = subprocess.Popen(
            ["ip", "netns", "exec", f"umf-{host}", *command],
            cwd=ROOT,
            env=self.environment(host) | extra,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes[host] = process
        return process

    def start_web(self, host: str) -> None:
        address = f"{SUBNET}.{HOSTS[host]}:{WEB_PORT}"
        self.start(host, PYTHON, "-m", "gunicorn", "umfsite.wsgi", "-b", address, "-w", "2")
        wait_for(
            lambda: http("GET", f"http://{address}/api/v1/formats/")[0] in (200, 401, 403),
            60,
            f"{host} to answer",
        )

    def start_worker(self, host: str) -> None:
        self.start(
            host,
            PYTHON,
            "-m",
            "celery",
            "-A",
            "umfsite",
            "worker",
            "--pool=solo",
            "-n",
            f"{host}@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=info",
            DATABASE_POOL_MAX_SIZE="2",
        )

    def kill(self, host: str) -> None:
        process = self.processes.pop(host)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for host in list(self.processes):
            process = self.processes.pop(host)
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)

    def manage(self, *args: str) -> str:
        env = self.environment("admin")
        return run(PYTHON, "manage.py", *args, cwd=ROOT, env=env).stdout

    def sql(self, query: str) -> str:
        return run("psql", self.database_url, "-Atc", query).stdout.strip()


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            if condition():
                return time.monotonic() - started
        except (OSError, subprocess.SubprocessError, ValueError):
            pass
        time.sleep(0.2)
    raise TimeoutError(f"timed out waiting for {what}")


def http(
    method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        content = error.read()
        try:
            return error.code, json.loads(content)
        except ValueError:
            return error.code, content[:200]
