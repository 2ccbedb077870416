"""The structural rules of a ChatGPT conversation: its ``mapping`` as an ordered tree.

UMF keeps a tree as a list in which every parent comes before its children, and reads the
last message as the end of the main path. :func:`node_order` walks the mapping depth first
in ``children`` order, except that at every fork the branch leading to ``current_node``
goes last: the current thread ends the list. Children a node lists but that name another
parent, and nodes whose parent does not list them, are still reached through ``parent``;
a cycle (or a node reachable from no root) makes the conversation unreadable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from providers.formats.base import FormatError


def parent_of(node: dict[str, Any], mapping: dict[str, Any]) -> str | None:
    """The node's parent id when that parent is in the mapping, else None."""
    parent = node.get("parent")
    return parent if isinstance(parent, str) and parent in mapping else None


def node_order(mapping: dict[str, Any], current: Any, path: str) -> list[str]:
    """Every node id of ``mapping``, parents first, the current thread last."""
    children: dict[str | None, list[str]] = {}
    for key, node in mapping.items():
        children.setdefault(parent_of(node, mapping), []).append(key)
    for key, node in mapping.items():
        children[key] = _listed_first(node.get("children"), children.get(key, []))
    on_path = _path_to(current, mapping)
    order: list[str] = []
    stack = list(reversed(_current_last(children.get(None, []), on_path)))
    seen: set[str] = set()
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        order.append(key)
        stack.extend(reversed(_current_last(children.get(key, []), on_path)))
    if len(order) != len(mapping):
        lost = next(key for key in mapping if key not in seen)
        where = f"{path}.mapping" if path else "mapping"
        raise FormatError("the mapping has a cycle", field=f"{where}.{lost}.parent")
    return order


def latest_leaf(mapping: dict[str, Any]) -> str | None:
    """The leaf whose message was written last (the last in the mapping among equals), for
    a conversation that names no ``current_node``; None for an empty mapping."""
    parents = {parent_of(node, mapping) for node in mapping.values()}
    leaves = [key for key in mapping if key not in parents]
    return max(reversed(leaves), key=lambda key: _written_at(mapping[key]), default=None)


def _written_at(node: dict[str, Any]) -> float:
    message = node.get("message")
    time = message.get("create_time") if isinstance(message, dict) else None
    if isinstance(time, int | float) and not isinstance(time, bool):
        return float(time)
    return float("-inf")


def _listed_first(listed: Any, actual: list[str]) -> list[str]:
    # The children in the order the node lists them, then any it forgot to list.
    wanted = set(actual)
    ordered = (
        [c for c in listed if isinstance(c, str) and c in wanted]
        if isinstance(listed, list)
        else []
    )
    seen = set(ordered)
    return list(dict.fromkeys(ordered)) + [c for c in actual if c not in seen]


def _current_last(keys: list[str], on_path: set[str]) -> list[str]:
    return [k for k in keys if k not in on_path] + [k for k in keys if k in on_path]


def _path_to(current: Any, mapping: dict[str, Any]) -> set[str]:
    path: set[str] = set()
    key = current if isinstance(current, str) else None
    while key is not None and key in mapping and key not in path:
        path.add(key)
        key = parent_of(mapping[key], mapping)
    return path


def children_from(order: Iterable[tuple[str, Any]]) -> dict[str | None, list[str]]:
    """Each node's children, in list order, from ``(id, parent)`` pairs (a parent that is
    not an id, as a broken export may have, has no children)."""
    out: dict[str | None, list[str]] = {}
    for key, parent in order:
        if parent is None or isinstance(parent, str):
            out.setdefault(parent, []).append(key)
    return out
