"""How UMF values are walked where msgspec's own calls do not do what UMF needs: the
fixes of a dump (:func:`dump_fixes`), a dump of every field (:func:`full_dump`), a deep
copy (:func:`deep_copy`), and what a class's fields are. Plain functions on msgspec
Structs, so that :mod:`providers._umf_base` builds its values' methods on them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime
from operator import attrgetter
from types import UnionType
from typing import Any, NamedTuple, Union, get_args, get_origin

import msgspec

_JSON_TYPES = ()  # builtin_types for a JSON dump: a timestamp becomes its RFC 3339 string
_PYTHON_TYPES = (datetime,)  # and for a Python dump: it stays a datetime


# Where msgspec's own dump of a class differs from the UMF JSON, the fix of its dump, made
# once per class from the field types (None where there is nothing to fix). msgspec leaves
# out only defaults it can compare by identity, so these are left out here:
# - a field whose default is a fresh UMF value (``Conversation.parameters``), when empty;
# - a field whose default is a string (``DriftWarning.severity``), when it holds an equal
#   string built by keyword from a document or a row (msgspec's own reader gives the
#   default object itself). Fixed here, where few values pass, rather than in every
#   warning built (a ``__post_init__`` cost ~560 instructions per warning, 1% of a
#   conversion to Gemini);
# - in JSON, a float field holding an integer (a reader keeps ``"temperature": 0`` as it
#   was read, for its own round trip) is written as a float, as the UMF JSON always was.
Fix = Callable[[dict[str, Any], bool], None]
_fixes_of: dict[type, Fix | None] = {}


def dump_fixes(cls: type[msgspec.Struct]) -> Fix | None:
    if cls not in _fixes_of:
        _fixes_of[cls] = None  # a class that holds itself (a tool result's blocks)
        _fixes_of[cls] = _fixes_for(cls)
    return _fixes_of[cls]


def _fixes_for(cls: type[msgspec.Struct]) -> Fix | None:
    types = field_types(cls)
    floats = _float_fields(types)
    nested: list[tuple[str, Fix]] = []
    for name, kind in types.items():
        for member in _value_classes(kind):
            inner = dump_fixes(member)
            if inner is not None:
                nested.append((name, inner))
    defaults = _equal_defaults(cls)
    if not (floats or nested or defaults):
        return None
    listed = frozenset(name for name, _ in nested if get_origin(types[name]) is list)
    if any(len(_value_classes(types[name])) > 1 for name in listed):
        raise TypeError(f"{cls.__name__}: a list of values of several classes to fix")

    def fix(out: dict[str, Any], json: bool) -> None:
        for name in floats if json else ():
            if type(out.get(name)) is int:
                out[name] = float(out[name])
        for name, inner in nested:
            value = out.get(name)
            if isinstance(value, dict):
                inner(value, json)
            elif name in listed and value:  # a list of values (``Metadata.warnings``)
                for item in value:
                    inner(item, json)
        for name, default in defaults.items():
            if out.get(name) == default:
                del out[name]

    return fix


def _equal_defaults(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The defaults of ``cls`` that msgspec, comparing by identity, may leave in a dump,
    as dumped: a fresh UMF value (empty), a string (not "", of which CPython has one)."""
    found: dict[str, Any] = {}
    for info in msgspec.structs.fields(cls):
        made = info.default_factory
        if isinstance(made, type) and issubclass(made, msgspec.Struct):
            found[info.name] = {}
        elif isinstance(info.default, str) and info.default:
            found[info.name] = info.default
    return found


def _is_float(kind: Any) -> bool:
    return kind is float or (get_origin(kind) in (Union, UnionType) and float in get_args(kind))


def _value_classes(kind: Any) -> list[type[msgspec.Struct]]:
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        return [kind]
    return [found for argument in get_args(kind) for found in _value_classes(argument)]


def _float_fields(types: dict[str, Any]) -> frozenset[str]:
    """The float fields among ``types`` (:func:`field_types`)."""
    return frozenset(name for name, kind in types.items() if _is_float(kind))


def field_names(cls: type[msgspec.Struct]) -> tuple[str, ...]:
    """The fields of a UMF class, in the order its JSON is written in (no type tag)."""
    return cls.__struct_fields__


def field_defaults(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The default of each field of ``cls`` that has one (a fresh one for a factory)."""
    defaults: dict[str, Any] = {}
    for info in msgspec.structs.fields(cls):
        if info.default is not msgspec.NODEFAULT:
            defaults[info.name] = info.default
        elif info.default_factory is not msgspec.NODEFAULT:
            defaults[info.name] = info.default_factory()
    return defaults


def field_types(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The type of each field of ``cls``, resolved."""
    return {info.name: info.type for info in msgspec.structs.fields(cls)}


class _Plan(NamedTuple):
    """How to write every field of one UMF class (:func:`_full_dump`)."""

    tag: str | None
    names: tuple[str, ...]
    values: Callable[[Any], tuple[Any, ...]]  # every field's value, in one C call
    holding: frozenset[str]  # the fields that may hold UMF values
    floats: frozenset[str]


_plans: dict[type, _Plan] = {}
_SCALARS = frozenset({str, int, bool, float})


def _plan(cls: type[msgspec.Struct]) -> _Plan:
    found = _plans.get(cls)
    if found is None:
        names = cls.__struct_fields__
        getter = attrgetter(*names)
        types = field_types(cls)
        found = _plans[cls] = _Plan(
            tag=cls.__struct_config__.tag,  # type: ignore[arg-type]
            names=names,
            values=getter if len(names) > 1 else lambda value: (getter(value),),
            holding=frozenset(name for name, kind in types.items() if _value_classes(kind)),
            floats=_float_fields(types),
        )
    return found


def full_dump(value: msgspec.Struct, exclude_none: bool, json: bool) -> dict[str, Any]:
    """Every field of ``value``: its own and its values' fields walked here, the plain
    JSON they hold (``extra``, ``input``) copied by msgspec in one call each."""
    plan = _plan(type(value))
    out: dict[str, Any] = {} if plan.tag is None else {"type": plan.tag}
    for name, child in zip(plan.names, plan.values(value), strict=True):
        kind = type(child)
        if child is None:
            if not exclude_none:
                out[name] = None
        elif name in plan.holding:
            out[name] = _dump_child(child, exclude_none, json)
        elif kind in _SCALARS:
            out[name] = float(child) if json and kind is int and name in plan.floats else child
        elif not child and kind is dict:  # most ``extra``s: no call for an empty one
            out[name] = {}
        else:
            out[name] = to_plain(child, json)
    return out


def _dump_child(value: Any, exclude_none: bool, json: bool) -> Any:
    if isinstance(value, msgspec.Struct):
        return full_dump(value, exclude_none, json)
    if type(value) is list:
        return [_dump_child(item, exclude_none, json) for item in value]
    if type(value) in _SCALARS:
        return value
    return to_plain(value, json)


def to_plain(value: Any, json: bool) -> Any:
    """``value`` as plain JSON values, made by msgspec in one call (UMF values at their
    defaults left out; timestamps as strings in JSON mode, and keys as strings)."""
    return msgspec.to_builtins(
        value, builtin_types=_JSON_TYPES if json else _PYTHON_TYPES, str_keys=json
    )


def deep_copy(value: Any) -> Any:
    """A copy of a UMF value and of everything it holds (``copy.deepcopy`` took 0.2 ms per
    message: a Struct is pickled and rebuilt, and every leaf goes through its memo). UMF
    is a tree of values, lists and JSON, so nothing is reached twice and no memo is kept."""
    kind = type(value)
    if kind in _SCALARS or value is None:
        return value
    if isinstance(value, msgspec.Struct):
        copied = copy.copy(value)
        plan = _plan(kind)
        for name, child in zip(plan.names, plan.values(value), strict=True):
            if type(child) not in _SCALARS and child is not None:
                setattr(copied, name, deep_copy(child))
        return copied
    if kind is dict:
        return {key: deep_copy(child) for key, child in value.items()}
    if kind is list:
        return [deep_copy(child) for child in value]
    return copy.deepcopy(value)  # anything else a value may hold (a timestamp, a tuple)
