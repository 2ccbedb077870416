"""The fast version of the load test (bench/load.py runs 50 users for 5 minutes): locust,
in a process of its own, drives bench/locustfile.py with 4 users for a few seconds against
the live test server. Every page type is exercised, and not one request fails."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from rest_framework.authtoken.models import Token

from conversations import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "conversations" / "demo"
PASSWORD = "load-test-password-7c1"


@pytest.fixture
def reader(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user(username="load", password=PASSWORD)
    for path in sorted(DEMO.glob("*.json")):
        services.conversation_import(
            owner=user,
            format_id=path.name.split(".", 1)[0],
            payload=orjson.loads(path.read_bytes()),
        )
    return user


def test_four_users_browse_search_export_and_import_without_a_failure(
    live_server: Any, reader: Any, tmp_path: Path
) -> None:
    environment = {
        **os.environ,
        "LOAD_USERNAME": "load",
        "LOAD_PASSWORD": PASSWORD,
        "LOAD_TOKEN": Token.objects.create(user=reader).key,
        "LOAD_IMPORTERS": "1",
    }
    command = [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py")]
    command += ["--headless", "--users", "4", "--spawn-rate", "4", "--run-time", "8s"]
    command += ["--host", live_server.url, "--csv", str(tmp_path / "load"), "--only-summary"]
    command += ["--stop-timeout", "5"]
    finished = subprocess.run(command, env=environment, capture_output=True, timeout=120)

    with (tmp_path / "load_stats.csv").open() as handle:
        stats = {row["Name"]: row for row in csv.DictReader(handle)}
    with (tmp_path / "load_failures.csv").open() as handle:
        failures = [f"{row['Name']}: {row['Error']}" for row in csv.DictReader(handle)]
    assert not failures, failures
    assert finished.returncode == 0, finished.stderr[-2000:]
    for page in ("login", "list", "conversation", "import"):
        assert int(stats[page]["Request Count"]) > 0, f"no {page} request in {sorted(stats)}"
