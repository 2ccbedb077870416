"""The archive as several hosts on this one machine (issue 17, "Proof"). Run as root:

    .venv/bin/python bench/hosts.py [--conversations 3000]

Each host is a network namespace (``ip netns``) with its own loopback, its own address on a
bridge this script creates (10.231.0.0/24, nothing else is touched) and its own HOME and
TMPDIR: two web processes (gunicorn), two Celery workers and one beat. They share only a
PostgreSQL cluster and a Redis of the script's own, both listening on the bridge
(10.231.0.1), so the machine's own PostgreSQL and Redis are left alone. Scenarios:

1. an upload to web A is imported by the worker on host B1; B1 is killed (SIGKILL) in the
   middle of the import, and worker B2 finishes it: every conversation stored once;
2. the broker is stopped: an upload and a replay answer 503 ``queue_unavailable`` with the
   id of the row that waits, a retry with the same Idempotency-Key gets the same row;
   the broker is started again (empty: it keeps nothing) and the reconciler (beat) runs
   both, once;
3. PostgreSQL is restarted: once it is back, no request fails and a replay succeeds at
   its first attempt (connections are checked before use, in web and workers).

Prints the figures; exits non-zero when a scenario fails. Everything it made is removed
at the end (namespaces, bridge, processes, the cluster's directory).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from _hosts_machine import HOSTS, PYTHON, SUBNET, WEB_PORT, Machine, http, wait_for


def multipart(name: str, content: bytes, fields: dict[str, str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def finetune_file(count: int, start: int = 0) -> bytes:
    return b"\n".join(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": f"host question {n}"},
                    {"role": "assistant", "content": f"host answer {n}"},
                ]
            }
        ).encode()
        for n in range(start, start + count)
    )


class Bench:
    def __init__(self, machine: Machine, conversations: int) -> None:
        self.machine = machine
        self.conversations = conversations
        self.token = ""
        self.failures: list[str] = []

    def url(self, host: str, path: str) -> str:
        return f"http://{SUBNET}.{HOSTS[host]}:{WEB_PORT}/api/v1/{path}"

    def call(self, method: str, host: str, path: str, body: Any = None, **headers: str) -> Any:
        data = None if body is None else json.dumps(body).encode()
        heads = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        return http(method, self.url(host, path), data, heads | headers)

    def upload(self, host: str, content: bytes, **headers: str) -> tuple[int, Any]:
        body, content_type = multipart("data.jsonl", content, {"format": "openai-finetune"})
        heads = {"Authorization": f"Token {self.token}", "Content-Type": content_type}
        return http("POST", self.url(host, "imports/"), body, heads | headers)

    def check(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            self.failures.append(what)

    def job(self, job_id: str) -> dict[str, Any]:
        return self.call("GET", "web-a", f"imports/{job_id}")[1]

    def setup(self) -> None:
        self.machine.manage("migrate", "--no-input")
        script = (
            "from django.contrib.auth.models import User;"
            "from rest_framework.authtoken.models import Token;"
            "u=User.objects.create_user('hosts', password='x');"
            "print(Token.objects.create(user=u).key)"
        )
        self.token = self.machine.manage("shell", "-c", script).strip().splitlines()[-1]

    def killed_worker(self) -> None:
        machine = self.machine
        print(f"1. upload {self.conversations} conversations to web-a; worker-b1 imports")
        machine.start_worker("worker-b1")
        started = time.monotonic()
        status, job = self.upload("web-a", finetune_file(self.conversations))
        self.check(status == 202, f"upload to web-a answered {status}")
        job_id = job["id"]
        wait_for(lambda: self.job(job_id)["processed"] >= 250, 120, "worker-b1's first batch")
        machine.kill("worker-b1")
        stopped_at = self.job(job_id)["processed"]
        print(f"  worker-b1 killed (SIGKILL) at {stopped_at}/{self.conversations}")
        machine.start_worker("worker-b2")
        handed = wait_for(
            lambda: self.job(job_id)["status"] in ("succeeded", "failed"),
            300,
            "worker-b2 to finish",
        )
        job = self.job(job_id)
        stored = machine.sql(
            "SELECT count(*), count(DISTINCT content_hash) FROM conversations_conversation"
        )
        items = machine.sql(
            f"SELECT count(*), count(DISTINCT index) FROM conversations_importitem "
            f"WHERE job_id = '{job_id}'"
        )
        logs = {
            host: (machine.workdir / f"{host}.log").read_text(errors="replace")
            for host in ("worker-b1", "worker-b2")
        }
        finished_on = [host for host, log in logs.items() if "data.jsonl: " in log]
        attempts = machine.sql(
            f"SELECT attempts FROM conversations_importjob WHERE id = '{job_id}'"
        )
        print(
            f"  finished {handed:.1f} s after the kill, {time.monotonic() - started:.1f} s "
            f"after the upload; claims of the job: {attempts}"
        )
        self.check(job["status"] == "succeeded", f"job {job['status']} {job['error']}")
        self.check(finished_on == ["worker-b2"], f"finished by {finished_on} (another host)")
        expected = f"{self.conversations}|{self.conversations}"
        self.check(stored == expected, f"conversations stored once: {stored} (count|distinct)")
        self.check(items == expected, f"one result per conversation: {items}")
        self.check(job["created"] == self.conversations, f"created {job['created']}")
        uploads = machine.sql("SELECT count(*) FROM conversations_upload")
        self.check(uploads == "0", f"upload deleted after the job: {uploads} left")

    def broker_outage(self) -> None:
        machine = self.machine
        print("2. broker stopped: an upload and a replay wait; broker back: both run once")
        conversation = machine.sql("SELECT id FROM conversations_conversation LIMIT 1")
        machine.redis_down()
        waiting = finetune_file(5, start=10**6)
        status, body = self.upload("web-b", waiting, **{"Idempotency-Key": "up-1"})
        self.check(
            status == 503 and body["error"]["code"] == "queue_unavailable",
            f"upload answered {status} {body}",
        )
        job_id = body["error"]["id"] if status == 503 else ""
        again = self.upload("web-a", waiting, **{"Idempotency-Key": "up-1"})
        self.check(
            again[0] == 202 and again[1]["id"] == job_id,
            f"retried upload answered {again[0]} with the same job",
        )
        replay = {"provider": "echo", "model": "echo-1"}
        status, body = self.call(
            "POST",
            "web-a",
            f"conversations/{conversation}/replays",
            replay,
            **{"Idempotency-Key": "rp-1"},
        )
        self.check(
            status == 503 and body["error"]["code"] == "queue_unavailable",
            f"replay answered {status}",
        )
        run_id = body["error"]["id"] if status == 503 else ""
        again = self.call(
            "POST",
            "web-b",
            f"conversations/{conversation}/replays",
            replay,
            **{"Idempotency-Key": "rp-1"},
        )
        self.check(again[0] == 202 and again[1]["id"] == run_id, "retried replay: same run")
        time.sleep(3)
        machine.redis_up()
        took = wait_for(
            lambda: (
                self.job(job_id)["status"] == "succeeded"
                and self.call("GET", "web-a", f"replays/{run_id}")[1]["status"] == "succeeded"
            ),
            120,
            "the waiting job and replay to run",
        )
        print(f"  both ran {took:.1f} s after the broker came back")
        jobs = machine.sql(
            "SELECT count(*) FROM conversations_importjob WHERE idempotency_key = 'up-1'"
        )
        runs = machine.sql("SELECT count(*) FROM conversations_replayrun")
        self.check((jobs, runs) == ("1", "1"), f"one job ({jobs}) and one run ({runs})")
        self.check(self.job(job_id)["created"] == 5, "the waiting job imported its 5")

    def database_restart(self) -> None:
        machine = self.machine
        print("3. PostgreSQL restarted: no failed request once it is back")
        for host in ("web-a", "web-b"):
            self.call("GET", host, "conversations/?limit=1")  # connections to keep
        machine.postgres("restart")
        statuses = [
            self.call("GET", host, "conversations/?limit=1")[0]
            for _ in range(10)
            for host in ("web-a", "web-b")
        ]
        failed = sum(status != 200 for status in statuses)
        self.check(failed == 0, f"{failed} of {len(statuses)} requests failed after the restart")
        conversation = machine.sql("SELECT id FROM conversations_conversation LIMIT 1")
        _, run = self.call(
            "POST",
            "web-b",
            f"conversations/{conversation}/replays",
            {"provider": "echo", "model": "echo-1"},
        )
        wait_for(
            lambda: (
                self.call("GET", "web-a", f"replays/{run['id']}")[1]["status"]
                in ("succeeded", "failed")
            ),
            60,
            "the replay",
        )
        run = self.call("GET", "web-a", f"replays/{run['id']}")[1]
        self.check(
            run["status"] == "succeeded" and run["attempts"] == 1,
            f"replay after the restart: {run['status']}, attempts {run['attempts']}",
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=3000)
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = parser.parse_args()
    if os.geteuid() != 0 or shutil.which("ip") is None:
        print("needs root and iproute2 (apt-get install -y iproute2)")
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="umf-hosts-"))
    machine = Machine(workdir)
    bench = Bench(machine, args.conversations)
    try:
        machine.network_up()
        machine.postgres_up()
        machine.redis_up()
        bench.setup()
        for web in ("web-a", "web-b"):
            machine.start_web(web)
        machine.start(
            "beat",
            PYTHON,
            "-m",
            "celery",
            "-A",
            "umfsite",
            "beat",
            "--loglevel=info",
            "-s",
            str(workdir / "beat" / "schedule"),
        )
        bench.killed_worker()
        bench.broker_outage()
        bench.database_restart()
    finally:
        machine.stop_all()
        machine.redis_down()
        if machine.pgdata.exists():
            machine.postgres("stop")
        machine.network_down()
        print(f"logs: {workdir}" if args.keep else "")
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print("FAILED: " + "; ".join(bench.failures) if bench.failures else "all scenarios passed")
    return 1 if bench.failures else 0


if __name__ == "__main__":
    sys.exit(main())
