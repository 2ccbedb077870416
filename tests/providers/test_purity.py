"""providers/ is a library that could be published alone: it never imports Django."""

from __future__ import annotations

import ast
from pathlib import Path

PROVIDERS = Path(__file__).resolve().parents[2] / "providers"
FORBIDDEN = ("django", "rest_framework", "conversations", "umfsite", "celery")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_providers_never_import_django_or_the_app() -> None:
    files = sorted(PROVIDERS.rglob("*.py"))
    assert files, "providers/ should hold the library"
    offenders = {
        f"{path.relative_to(PROVIDERS)}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN
    }
    assert offenders == set()


def test_the_checker_sees_a_django_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("from django.db import models\nimport conversations.models\n")
    assert imported_modules(module) == {"django.db", "conversations.models"}
