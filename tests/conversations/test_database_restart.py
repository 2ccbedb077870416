"""A database connection that died (PostgreSQL restarted, its backend terminated) costs
no failed request and no failed task: web requests check a kept connection before use
(CONN_HEALTH_CHECKS), and a worker's pool checks each connection it hands out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import close_old_connections, connection

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    database = settings.DATABASES["default"]
    return (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}"
    )


def terminate(pid: int) -> None:
    with psycopg.connect(database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_request_after_its_kept_connection_died_succeeds() -> None:
    connection.ensure_connection()
    terminate(connection.connection.info.backend_pid)

    close_old_connections()  # what Django does when a request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


WORKER = """
import django
django.setup()
import psycopg
from django.db import connection
connection.ensure_connection()
pid = connection.connection.info.backend_pid
with psycopg.connect(URL, autocommit=True) as admin:
    admin.execute("SELECT pg_terminate_backend(%s)", [pid])
connection.close()  # back to the pool, dead
with connection.cursor() as cursor:  # the next task
    cursor.execute("SELECT 1")
print("ok", cursor is not None)
"""


def test_a_workers_pool_hands_out_no_dead_connection() -> None:
    url = database_url()
    result = subprocess.run(
        [sys.executable, "-c", f"URL = {url!r}\n{WORKER}"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "DATABASE_POOL_MAX_SIZE": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "ok" in result.stdout
