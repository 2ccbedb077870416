"""docker-compose.yml as an operator runs it (no Docker here: the file is read as YAML and
its properties checked): migrate once before anything starts, exactly one beat,
healthchecks, a shared cache, stop grace periods, and database connections within
PostgreSQL's max_connections."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")
# PostgreSQL keeps these for superusers, and an operator needs a few for psql and pg_dump.
RESERVED_CONNECTIONS = 3 + 5


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return dict(compose["services"])


def command(service: dict[str, Any]) -> str:
    value = service.get("command", "")
    return " ".join(value) if isinstance(value, list) else str(value)


def option(text: str, name: str) -> int:
    found = re.search(rf"{name}[= ](\d+)", text)
    assert found, f"{name} not in {text!r}"
    return int(found.group(1))


def seconds(duration: str) -> int:
    return sum(
        int(amount) * {"h": 3600, "m": 60, "s": 1}[unit]
        for amount, unit in re.findall(r"(\d+)([hms])", duration)
    )


def test_migrations_run_once_before_web_worker_and_beat(services: dict[str, Any]) -> None:
    migrate = services["migrate"]
    assert command(migrate).startswith("python manage.py migrate")
    assert migrate["restart"] == "no"
    for name in APP_SERVICES:
        assert "migrate" not in command(services[name]), name
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
        assert depends["db"] == {"condition": "service_healthy"}, name
        assert depends["redis"] == {"condition": "service_healthy"}, name


def test_no_known_account_and_no_placeholder_secret(
    compose: dict[str, Any], services: dict[str, Any]
) -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    assert "load_demo" not in text
    assert "change-me" not in text
    for name in (*APP_SERVICES, "migrate"):
        environment = services[name]["environment"]
        assert environment["DJANGO_DEBUG"] == "false", name
        assert "DJANGO_SECRET_KEY" not in environment, name  # from .env, required
        assert services[name]["env_file"] == ".env", name


def test_every_app_service_shares_the_cache_redis(services: dict[str, Any]) -> None:
    for name in APP_SERVICES:
        environment = services[name]["environment"]
        assert environment["REDIS_CACHE_URL"].startswith("redis://"), name
        # Not the broker's database: a flush of one never empties the other.
        assert environment["REDIS_CACHE_URL"] != environment["CELERY_BROKER_URL"], name


def test_exactly_one_beat(services: dict[str, Any]) -> None:
    beats = [name for name, service in services.items() if " beat" in command(service)]
    assert beats == ["beat"]
    assert services["beat"]["deploy"]["replicas"] == 1
    assert "Exactly one beat" in (ROOT / "docker-compose.yml").read_text()
    assert "--beat" not in command(services["worker"])  # no beat embedded in a worker


def test_healthchecks(services: dict[str, Any]) -> None:
    for name in (*APP_SERVICES, "db", "redis"):
        assert services[name]["healthcheck"]["test"], name
    assert "/readyz" in " ".join(services["web"]["healthcheck"]["test"])
    assert "inspect ping" in " ".join(services["worker"]["healthcheck"]["test"])
    assert "umfsite.beat" in " ".join(services["beat"]["healthcheck"]["test"])


def test_stop_grace_periods_cover_the_work_under_way(services: dict[str, Any]) -> None:
    web = services["web"]
    # gunicorn's own graceful shutdown ends first, then compose would SIGKILL.
    assert seconds(web["stop_grace_period"]) > option(command(web), "--graceful-timeout")
    assert option(command(web), "--graceful-timeout") >= option(command(web), "--timeout")
    # A worker finishes an import batch or a replay turn (provider timeout: 60 s).
    assert seconds(services["worker"]["stop_grace_period"]) >= 120


def test_database_connections_fit_in_max_connections(services: dict[str, Any]) -> None:
    web, worker = command(services["web"]), command(services["worker"])
    web_connections = option(web, "--workers") * option(web, "--threads")
    threads = option(worker, "--concurrency")
    worker_pool = int(services["worker"]["environment"]["DATABASE_POOL_MAX_SIZE"])
    assert worker_pool >= threads + 1  # a thread never waits for a connection
    max_connections = option(command(services["db"]), "max_connections")
    budget = max_connections - RESERVED_CONNECTIONS
    beat = 1
    # What the README promises: two web replicas and three workers fit.
    assert 2 * web_connections + 3 * worker_pool + beat <= budget
    readme = (ROOT / "README.md").read_text()
    assert f"{web_connections} * W + {worker_pool} * K + 1 <= {budget}" in readme


def test_no_volume_is_shared_between_web_and_worker(services: dict[str, Any]) -> None:
    for name in APP_SERVICES:
        assert "volumes" not in services[name], name
