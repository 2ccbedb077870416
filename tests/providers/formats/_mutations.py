"""Random damage to a JSON document, for the property tests that check a format reads any
payload exactly or refuses it with a ``FormatError`` (never another exception)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

# Any JSON value (integers within 64 bits, as providers send them).
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += nodes(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += nodes(inner, (*path, index))
    return found


def mutate(document: Any, path: tuple[Any, ...], replacement: Any, delete: bool) -> Any:
    """A copy of ``document`` with the value at ``path`` replaced or deleted."""
    if not path:
        return replacement
    result = copy.deepcopy(document)
    parent = result
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return result


def draw_mutation(data: st.DataObject, seeds: list[Any]) -> Any:
    """One of ``seeds`` with one value somewhere replaced by random JSON, or removed."""
    seed = data.draw(st.sampled_from(seeds))
    path = data.draw(st.sampled_from(nodes(seed)))
    delete = bool(path) and data.draw(st.booleans())
    return mutate(seed, path, data.draw(JSON_VALUES), delete)
