"""The lock files pin every dependency of pyproject.toml, with hashes, and the image and
``make`` install from them (a dependency added without ``make lock`` fails here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def requirement_name(requirement: str) -> str:
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def locked(path: Path) -> dict[str, str]:
    """Each locked distribution's name and the text of its entry."""
    entries = re.split(r"\n(?=[A-Za-z0-9])", path.read_text())
    return {
        requirement_name(entry): entry for entry in entries if re.match(r"[A-Za-z0-9._-]+==", entry)
    }


def test_every_dependency_is_pinned_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = locked(ROOT / "requirements.lock")
    development = locked(ROOT / "requirements-dev.lock")
    for lock, dependencies in (
        (runtime, project["dependencies"]),
        (development, project["dependencies"] + project["optional-dependencies"]["dev"]),
    ):
        missing = {requirement_name(d) for d in dependencies} - set(lock)
        assert not missing, f"run `make lock`: {sorted(missing)} not locked"
        unhashed = [name for name, entry in lock.items() if "--hash=sha256:" not in entry]
        assert not unhashed


def test_both_locks_agree_on_every_shared_version() -> None:
    runtime = locked(ROOT / "requirements.lock")
    development = locked(ROOT / "requirements-dev.lock")
    for name, entry in runtime.items():
        assert entry.split(" ", 1)[0] == development[name].split(" ", 1)[0], name


def test_make_and_the_image_install_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet --require-hashes -r requirements.lock" in makefile
    assert "pip install --quiet --require-hashes -r requirements-dev.lock" in makefile
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
    # The project goes on top without resolving again (an unpinned version could slip in).
    assert "pip install --no-deps" in dockerfile
