"""The server ``bench/abuse.py`` sends its cases to, and the measure of one case: a
``manage.py runserver`` process of its own (no reloader, tasks in-process, the message cap
raised for the 100,000-message cases), its peak RSS sampled while a request runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from _rss import PeakRss

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


class Server:
    def __init__(self, port: int, database_url: str) -> None:
        self.port = port
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_DEBUG": "true",
            "UMF_TASKS_IN_BACKGROUND": "false",
            "CELERY_BROKER_URL": "",
            # The 100,000-message cases measure a conversation past the default cap
            # (20,000): what raising it would cost (issue 21).
            "UMF_MAX_MESSAGES": "100000",
            "UMF_MAX_BLOCKS": "500000",
        }

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True
        )
        if done.returncode:
            raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
        return done.stdout

    def start(self) -> None:
        self.manage("migrate", "--noinput")
        self.process = subprocess.Popen(
            [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/accounts/login/", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit("the server did not start")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


def measured(
    server: Server, action: Callable[[], httpx.Response]
) -> tuple[httpx.Response, float, int, int]:
    """The response, the wall time, the peak RSS and the RSS before."""
    memory = PeakRss(server.process.pid)
    started = time.perf_counter()
    try:
        response = action()
    finally:
        seconds = time.perf_counter() - started
        memory.stop()
    return response, seconds, memory.peak, memory.start
