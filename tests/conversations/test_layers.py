"""Interfaces (API views and serializers, pages, the admin, management commands) parse
their input and call a selector or a service: they never query or write the ORM
themselves, so that every read decides its related rows once, in ``selectors``, and every
write is a service with its transaction."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "conversations"
INTERFACES = (
    "api/*.py",
    "api/serializers/*.py",
    "views/*.py",
    "admin.py",
    "forms.py",
    "management/commands/*.py",
)
# Methods that only a manager, a queryset or a model instance has. Names a dict, a list or
# a string also has count only in the shape only a queryset calls them (see
# ``_queryset_shaped``).
ORM_METHODS = {
    "aggregate",
    "annotate",
    "bulk_create",
    "bulk_update",
    "create",
    "defer",
    "delete",
    "exclude",
    "exists",
    "filter",
    "first",
    "get_or_create",
    "iterator",
    "only",
    "order_by",
    "prefetch_related",
    "refresh_from_db",
    "save",
    "select_for_update",
    "select_related",
    "update_or_create",
    "values_list",
}
# (module, call): why it may. Keep this short.
ALLOWED = {
    # A queryset of the list the paginator was given (the admin builds it; its count is
    # capped so that a table of millions is never counted in full).
    ("admin.py", "count"),
}


def orm_calls(path: Path) -> Iterator[tuple[int, str]]:
    """(line, what) for each use of the ORM in the module: a manager (``.objects``), a
    queryset or instance method, a transaction."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            yield node.lineno, f"{ast.unparse(node)}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            target = node.func.value
            if name in ORM_METHODS:
                yield node.lineno, f".{name}()"
            elif isinstance(target, ast.Name) and target.id == "transaction":
                yield node.lineno, f"transaction.{name}()"
            elif _queryset_shaped(node, name):
                yield node.lineno, f".{name}()"


def _queryset_shaped(call: ast.Call, name: str) -> bool:
    """``all()`` and ``count()`` without arguments (a list's and a string's take one),
    ``get(...)`` with keywords only (a dict's takes a key), ``values(...)`` with field
    names (a dict's takes none). A queryset's ``update`` shows by what it is called on
    (``.filter()``, ``.objects``): a dict's takes keywords too."""
    if name in ("all", "count"):
        return not call.args and not call.keywords
    if name == "get":
        return not call.args and bool(call.keywords)
    return name == "values" and bool(call.args)


def offenders(root: Path) -> list[str]:
    found = []
    for pattern in INTERFACES:
        for path in sorted(root.glob(pattern)):
            relative = str(path.relative_to(root))
            for line, what in sorted(orm_calls(path)):
                if (relative, what.strip(".()")) not in ALLOWED:
                    found.append(f"{relative}:{line} {what}")
    return found


def test_interfaces_call_selectors_and_services_not_the_orm() -> None:
    assert offenders(APP) == []


def test_the_check_sees_a_query_a_write_and_a_transaction(tmp_path: Path) -> None:
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "pages.py").write_text(
        "def page(request):\n"
        "    with transaction.atomic():\n"
        "        jobs = models.ImportJob.objects.filter(owner=request.user)\n"
        "        job.items.select_related('conversation')\n"
        "        job.refresh_from_db()\n"
        "        return Run.objects.get(pk=1), job.items.count()\n"
        "    return request.GET.get('page'), {}.update({}), 'abc'.count('a'), {}.values()\n"
    )
    assert offenders(tmp_path) == [
        "views/pages.py:2 transaction.atomic()",
        "views/pages.py:3 .filter()",
        "views/pages.py:3 models.ImportJob.objects",
        "views/pages.py:4 .select_related()",
        "views/pages.py:5 .refresh_from_db()",
        "views/pages.py:6 .count()",
        "views/pages.py:6 .get()",
        "views/pages.py:6 Run.objects",
    ]


def test_only_pgsql_chooses_between_hand_written_sql_and_the_orm() -> None:
    """Each hot statement is one function (``pgsql.sql_twin``): no caller asks
    ``pgsql.enabled()`` and picks a path of its own."""
    askers = [
        f"{path.relative_to(APP)}:{node.lineno}"
        for path in sorted(APP.rglob("*.py"))
        if path.name != "pgsql.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("enabled", "USE_SQL")
    ]
    assert askers == []
