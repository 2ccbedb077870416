""".env.example lists every environment variable the settings read, in a form that
systemd's EnvironmentFile and compose's env_file both take, and is a production setup:
filled in, it passes Django's deployment checks."""

from __future__ import annotations

import ast
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"
# The helpers of umfsite/settings.py that read one variable each.
READERS = {"env_bool", "env_int", "env_list", "getenv"}
ASSIGNMENT = re.compile(r"(#)?([A-Z][A-Z0-9_]*)=(.*)")


def variables_read(path: Path) -> set[str]:
    """The environment variables a module reads by name."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        argument = None
        if isinstance(node, ast.Call) and node.args:
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else None
            if isinstance(function, ast.Name):
                name = function.id
            environ_get = (
                name == "get"
                and isinstance(function, ast.Attribute)
                and ast.unparse(function.value) == "os.environ"
            )
            if name in READERS or environ_get:
                argument = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            argument = node.slice
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            names.add(argument.value)
    return names


def listed() -> dict[str, tuple[bool, str]]:
    """Each variable of .env.example: (set, not commented out; its value)."""
    entries = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        found = ASSIGNMENT.fullmatch(line)
        if found:
            entries[found.group(2)] = (found.group(1) is None, found.group(3))
    return entries


def test_every_variable_the_settings_read_is_listed() -> None:
    read = set().union(*(variables_read(path) for path in (ROOT / "umfsite").glob("*.py")))
    assert {"DJANGO_SECRET_KEY", "UMF_RATE_LOGIN", "UMF_BEAT_HEARTBEAT_FILE"} <= read
    missing = read - set(listed())
    assert not missing, f"add to .env.example: {sorted(missing)}"


def test_lines_are_what_systemd_and_compose_both_read() -> None:
    for number, line in enumerate(ENV_EXAMPLE.read_text().splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        found = ASSIGNMENT.fullmatch(line)
        assert found, f"line {number} is not NAME=value: {line!r}"
        value = found.group(3)
        # systemd keeps an inline comment and spaces as part of the value; compose does not.
        assert not re.search(r"\s#|^\s|\s$", value), f"line {number}: {line!r}"
        assert not value.startswith(("'", '"')), f"line {number}: quotes are kept by compose"


def test_it_is_a_production_setup() -> None:
    entries = listed()
    assert entries["DJANGO_DEBUG"] == (True, "false")
    # Left empty so that the app refuses to start until they are filled in.
    assert entries["DJANGO_SECRET_KEY"] == (True, "")
    assert entries["DJANGO_ALLOWED_HOSTS"] == (True, "")
    environment = {name: value for name, (active, value) in entries.items() if active}
    environment |= {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "archive.example.com",
    }
    passed_down = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "UMF_", "CELERY_", "DATABASE_", "REDIS_"))
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=passed_down | environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
