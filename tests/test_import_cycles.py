"""No import cycle among the project's modules: data flows one way (interfaces -> services
-> selectors -> records -> models, and everything -> providers), so a module never needs
to import one that imports it back, not even inside a function."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("conversations", "providers", "umfsite")

Graph = dict[str, set[str]]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (imports for annotations only)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imported_names(path: Path, module: str) -> Iterable[str]:
    """Every dotted name an import of ``path`` (the module ``module``) may refer to, at
    module level or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    skipped = _type_checking_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            prefix = ".".join([*base, *([node.module] if node.module else [])])
            yield prefix
            yield from (f"{prefix}.{alias.name}" for alias in node.names)


def import_graph(root: Path, packages: Iterable[str]) -> Graph:
    """Module -> the project modules it imports (the longest known name an import names).
    A package's ``__init__`` that re-exports its own modules is no edge: importing
    ``pkg.module`` runs ``pkg`` first whatever it imports."""
    files = {
        module_name(root, path): path
        for package in packages
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: Graph = {}
    for module, path in files.items():
        targets = set()
        for name in imported_names(path, module):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module and not name.startswith(module + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while (member := stack.pop()) != node:
                    component.append(member)
                component.append(node)
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_in_the_project() -> None:
    graph = import_graph(ROOT, PACKAGES)
    assert "conversations.services.replays" in graph
    assert cycles(graph) == []


def test_the_check_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "app"
    (package / "services").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "services" / "__init__.py").write_text("from app.services.runs import run\n")
    (package / "services" / "runs.py").write_text(
        "def run():\n    from app import tasks\n    return tasks\n"
    )
    (package / "tasks.py").write_text("from .services import runs\n")
    assert cycles(import_graph(tmp_path, ["app"])) == [["app.services.runs", "app.tasks"]]
