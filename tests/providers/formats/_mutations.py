"""Random damage to a JSON document, for the property tests that check a format reads any
payload exactly or refuses it with a ``FormatError`` (never another exception)."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
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


def objects(value: Any) -> list[tuple[Any, ...]]:
    """Every path to an object (a dict) inside a JSON document."""
    return [path for path in nodes(value) if isinstance(_at(value, path), dict)]


def key_names(value: Any) -> set[str]:
    """Every key of every object inside a JSON document."""
    if isinstance(value, dict):
        return set(value).union(*(key_names(inner) for inner in value.values()))
    if isinstance(value, list):
        return set().union(*(key_names(inner) for inner in value))
    return set()


_FORMATS = Path(__file__).resolve().parents[3] / "providers" / "formats"
# A string literal that is an internal name (``unmapped_parts``, a ``$shape`` hint), and the
# names read with ``hint(extra, FORMAT_ID, "name")`` / ``_hint(block, "name")`` (kept as
# ``$name``).
_INTERNAL_LITERAL = re.compile(r"""["'](\$[A-Za-z_]\w*|unmapped_\w+)["']""")
_HINT_CALL = re.compile(r"\bhint\(([^()]*)\)")
_LITERAL = re.compile(r"""["']([A-Za-z_]\w*)["']""")
# A key a renderer writes: ``{"name": ...`` or ``out["name"] = ...``.
_WRITTEN_KEY = re.compile(r"""["']([A-Za-z_][\w.]*)["'](?:\s*:|\]\s*=[^=])""")


@functools.cache
def internal_names() -> tuple[str, ...]:
    """Names the format modules use for themselves inside ``extra``: ``unmapped_*`` entries
    and ``$`` layout hints, found in their source so new ones are covered as they come."""
    found: set[str] = set()
    for source in sorted(_FORMATS.rglob("*.py")):
        text = source.read_text()
        found.update(_INTERNAL_LITERAL.findall(text))
        for arguments in _HINT_CALL.findall(text):
            found.update("$" + name for name in _LITERAL.findall(arguments))
    return tuple(sorted(found))


@functools.cache
def rendered_names() -> tuple[str, ...]:
    """Keys the renderers write themselves (found in their source), of every format: a
    payload field of the same name must not be overwritten or dropped on render."""
    found: set[str] = set()
    for source in sorted(_FORMATS.rglob("*render*.py")):
        found.update(_WRITTEN_KEY.findall(source.read_text()))
    return tuple(sorted(found))


def _new_key(data: st.DataObject, seed: Any, taken: Any) -> str:
    """A name for a key added to an object whose keys are ``taken``: a key found elsewhere
    in ``seed`` (a known field at the wrong level), a name a format uses itself or a
    renderer writes, a ``$`` variant of any of those, or short random text."""
    pools = (key_names(seed), set(internal_names()), set(rendered_names()))
    fresh = [sorted(pool - set(taken)) for pool in pools]
    choices = [st.sampled_from(names) for names in fresh if names]
    everything = sorted(set().union(*pools) - {name for name in pools[1] if name[0] == "$"})
    choices.append(st.sampled_from(everything).map(lambda name: "$" + name))
    choices.append(st.text(max_size=8))
    return data.draw(st.one_of(choices))


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def draw_mutation(data: st.DataObject, seeds: list[Any]) -> Any:
    """One of ``seeds`` with one value somewhere replaced by random JSON or removed, or
    with a new key (holding random JSON) added to one of its objects."""
    seed = data.draw(st.sampled_from(seeds))
    places = objects(seed)
    kinds = ["replace", "delete", "add"] if places else ["replace", "delete"]
    kind = data.draw(st.sampled_from(kinds))
    if kind == "add":
        path = data.draw(st.sampled_from(places))
        key = _new_key(data, seed, _at(seed, path))
        return mutate(seed, (*path, key), data.draw(JSON_VALUES), delete=False)
    path = data.draw(st.sampled_from(nodes(seed)))
    delete = kind == "delete" and bool(path)
    return mutate(seed, path, data.draw(JSON_VALUES), delete)
