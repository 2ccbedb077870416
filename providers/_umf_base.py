"""The base of every UMF value (:mod:`providers.umf`): msgspec Structs, validated where
untrusted data comes in (``model_validate``) and built without any check when a format
builds them by keyword while converting.

Why msgspec (``bench/umf_core.py``, one assistant message with a text block and a tool
call): building it by keyword takes 0.77 µs against 2.4 for the pydantic models this
replaced (with their own unchecked keyword ``__init__``), validating it 1.0 µs against 3.1,
reading its fields half the time (a Struct has slots and no ``__getattr__`` hook, so
CPython's attribute caches work), and writing its UMF JSON 0.5 µs against 5.4. The values
keep the small part of pydantic's surface the archive used (``model_dump``,
``model_dump_json``, ``model_validate``, ``model_copy``), with the same output: the UMF
JSON did not change.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection
from datetime import datetime
from operator import attrgetter
from types import UnionType
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar, Union, get_args, get_origin

import msgspec

ModelT = TypeVar("ModelT", bound="UMFModel")
Mode = Literal["python", "json"]
_NOTHING = ()  # builtin_types for a JSON dump: a timestamp becomes its RFC 3339 string
_PYTHON = (datetime,)  # and for a Python dump: it stays a datetime


class UMFValidationError(ValueError):
    """A value UMF refuses: ``message`` says what, ``field`` where (``messages[1].role``,
    ``""`` for the value itself)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.message = message
        self.field = field


class _KeywordOnly(msgspec.StructMeta):
    """Every UMF class takes its fields by keyword (msgspec's ``kw_only`` holds only for
    the fields of the class that says it), so a required field may follow optional ones."""

    def __new__(
        mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> Any:
        kwargs.setdefault("kw_only", True)
        if isinstance(namespace.get("type"), str) and "tag" not in kwargs:
            kwargs["tag"] = namespace["type"]  # a tagged value's tag is its class's ``type``
        return super().__new__(mcls, name, bases, namespace, **kwargs)


class UMFModel(
    msgspec.Struct,
    metaclass=_KeywordOnly,
    omit_defaults=True,
    forbid_unknown_fields=True,
    repr_omit_defaults=True,
):
    """Base for every UMF value: strict about unknown keys, so a typo is an error.

    UMF is validated once, where untrusted data enters: ``Model.model_validate(data)``
    checks every value (the ``umf`` format's parser, rows read back from the database,
    :func:`providers.validation.check_conversation` before anything is stored). Building a
    value by keyword, ``TextBlock(text=...)``, as the format modules do while they convert,
    checks nothing (a wrong field name is still a TypeError): the format's reader has
    already checked what it read from the wire.
    """

    def extra_for(self, format_id: str) -> dict[str, Any]:
        """The provider fields this value carries for ``format_id`` (empty if none)."""
        extra: dict[str, dict[str, Any]] = getattr(self, "extra", {})
        return extra.get(format_id, {})

    # -------------------------------------------------------------- validated at an edge

    @classmethod
    def model_validate(cls: type[ModelT], data: Any) -> ModelT:
        """``data`` (JSON values, or a value of this class) checked and read as this class;
        a :class:`UMFValidationError` naming the first field it refuses."""
        if type(data) is cls:
            return data
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as error:
            raise validation_error(error) from None

    @classmethod
    def model_validate_json(cls: type[ModelT], data: str | bytes) -> ModelT:
        """A JSON document checked and read as this class (see :meth:`model_validate`)."""
        try:
            return msgspec.json.decode(data, type=cls)
        except msgspec.ValidationError as error:
            raise validation_error(error) from None

    # ---------------------------------------------------------------------- written out

    def model_dump(
        self,
        *,
        mode: Mode = "python",
        exclude_defaults: bool = False,
        exclude_none: bool = False,
        include: Collection[str] | None = None,
        exclude: Collection[str] | None = None,
    ) -> dict[str, Any]:
        """The value as a dict of its fields (the type tag first for a block): every field,
        or with ``exclude_defaults`` only those that differ from their default (the UMF
        JSON). ``mode="json"`` writes timestamps as strings. ``exclude_none`` leaves out
        fields holding None, at every level; ``include`` / ``exclude`` name fields of this
        value only. Containers are copies: changing the dict does not change the value."""
        json = mode == "json"
        if exclude_defaults and not exclude_none:
            out: dict[str, Any] = msgspec.to_builtins(
                self, builtin_types=_NOTHING if json else _PYTHON, str_keys=json
            )
            fix = _dump_fixes(type(self))
            if fix is not None:
                fix(out, json)
        else:
            out = _full_dump(self, exclude_none, json)
        if include is not None:
            out = {key: value for key, value in out.items() if key in include}
        if exclude:
            out = {key: value for key, value in out.items() if key not in exclude}
        return out

    def model_dump_json(self, *, exclude_defaults: bool = False) -> str:
        """:meth:`model_dump` in JSON mode, as compact JSON text."""
        if exclude_defaults and _dump_fixes(type(self)) is None:
            return msgspec.json.encode(self).decode()
        dumped = self.model_dump(mode="json", exclude_defaults=exclude_defaults)
        return msgspec.json.encode(dumped).decode()

    # --------------------------------------------------------------------------- copies

    def model_copy(
        self: ModelT, *, update: dict[str, Any] | None = None, deep: bool = False
    ) -> ModelT:
        """A copy holding the same values (``deep``: copies of them too), with the fields
        of ``update`` replaced."""
        base = _deep_copy(self) if deep else self
        if update:
            return msgspec.structs.replace(base, **update)
        return base if deep else copy.copy(self)


# Where msgspec's own dump of a class differs from the UMF JSON, the fix of its dump, made
# once per class from the field types (None where there is nothing to fix):
# - a field whose default is a fresh UMF value (``Conversation.parameters``) is left out
#   when empty: msgspec leaves out only defaults it can compare by identity;
# - in JSON, a float field holding an integer (a reader keeps ``"temperature": 0`` as it
#   was read, for its own round trip) is written as a float, as the UMF JSON always was.
_Fix = Callable[[dict[str, Any], bool], None]
_fixes_of: dict[type, _Fix | None] = {}


def _dump_fixes(cls: type[UMFModel]) -> _Fix | None:
    if cls not in _fixes_of:
        _fixes_of[cls] = None  # a class that holds itself (a tool result's blocks)
        _fixes_of[cls] = _fixes_for(cls)
    return _fixes_of[cls]


def _fixes_for(cls: type[UMFModel]) -> _Fix | None:
    floats = tuple(name for name, kind in field_types(cls).items() if _is_float(kind))
    nested: list[tuple[str, _Fix]] = []
    for name, kind in field_types(cls).items():
        for member in _value_classes(kind):
            inner = _dump_fixes(member)
            if inner is not None:
                nested.append((name, inner))
    empty = tuple(
        info.name
        for info in msgspec.structs.fields(cls)
        if isinstance(info.default_factory, type) and issubclass(info.default_factory, UMFModel)
    )
    if not (floats or nested or empty):
        return None
    if any(get_origin(field_types(cls)[name]) is list for name, _ in nested):
        raise TypeError(f"{cls.__name__}: a list of values whose dump needs fixing")

    def fix(out: dict[str, Any], json: bool) -> None:
        for name in floats if json else ():
            if type(out.get(name)) is int:
                out[name] = float(out[name])
        for name, inner in nested:
            if isinstance(out.get(name), dict):
                inner(out[name], json)
        for name in empty:
            if out.get(name) == {}:
                del out[name]

    return fix


def _is_float(kind: Any) -> bool:
    return kind is float or (get_origin(kind) in (Union, UnionType) and float in get_args(kind))


def _value_classes(kind: Any) -> list[type[UMFModel]]:
    if isinstance(kind, type) and issubclass(kind, UMFModel):
        return [kind]
    return [found for argument in get_args(kind) for found in _value_classes(argument)]


def _float_fields(cls: type[UMFModel]) -> frozenset[str]:
    found = _floats_of.get(cls)
    if found is None:
        found = _floats_of[cls] = frozenset(
            name for name, kind in field_types(cls).items() if _is_float(kind)
        )
    return found


_floats_of: dict[type, frozenset[str]] = {}


def field_names(cls: type[UMFModel]) -> tuple[str, ...]:
    """The fields of a UMF class, in the order its JSON is written in (no type tag)."""
    return cls.__struct_fields__


def field_defaults(cls: type[UMFModel]) -> dict[str, Any]:
    """The default of each field of ``cls`` that has one (a fresh one for a factory)."""
    defaults: dict[str, Any] = {}
    for info in msgspec.structs.fields(cls):
        if info.default is not msgspec.NODEFAULT:
            defaults[info.name] = info.default
        elif info.default_factory is not msgspec.NODEFAULT:
            defaults[info.name] = info.default_factory()
    return defaults


def field_types(cls: type[UMFModel]) -> dict[str, Any]:
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


def _plan(cls: type[UMFModel]) -> _Plan:
    found = _plans.get(cls)
    if found is None:
        names = cls.__struct_fields__
        getter = attrgetter(*names)
        found = _plans[cls] = _Plan(
            tag=cls.__struct_config__.tag,  # type: ignore[arg-type]
            names=names,
            values=getter if len(names) > 1 else lambda value: (getter(value),),
            holding=frozenset(
                name for name, kind in field_types(cls).items() if _value_classes(kind)
            ),
            floats=_float_fields(cls),
        )
    return found


def _full_dump(value: UMFModel, exclude_none: bool, json: bool) -> dict[str, Any]:
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
            out[name] = msgspec.to_builtins(
                child, builtin_types=_NOTHING if json else _PYTHON, str_keys=json
            )
    return out


def _dump_child(value: Any, exclude_none: bool, json: bool) -> Any:
    if isinstance(value, UMFModel):
        return _full_dump(value, exclude_none, json)
    if type(value) is list:
        return [_dump_child(item, exclude_none, json) for item in value]
    if type(value) in _SCALARS:
        return value
    return msgspec.to_builtins(value, builtin_types=_NOTHING if json else _PYTHON, str_keys=json)


def _deep_copy(value: Any) -> Any:
    """A copy of a UMF value and of everything it holds (``copy.deepcopy`` took 0.2 ms per
    message: a Struct is pickled and rebuilt, and every leaf goes through its memo). UMF
    is a tree of values, lists and JSON, so nothing is reached twice and no memo is kept."""
    kind = type(value)
    if kind in _SCALARS or value is None:
        return value
    if isinstance(value, UMFModel):
        copied = copy.copy(value)
        for name, child in zip(_plan(kind).names, _plan(kind).values(value), strict=True):
            if type(child) not in _SCALARS and child is not None:
                setattr(copied, name, _deep_copy(child))
        return copied
    if kind is dict:
        return {key: _deep_copy(child) for key, child in value.items()}
    if kind is list:
        return [_deep_copy(child) for child in value]
    return copy.deepcopy(value)  # anything else a value may hold (a timestamp, a tuple)


def validation_error(error: msgspec.ValidationError) -> UMFValidationError:
    """msgspec's refusal (``Expected `str`, got `int` - at `$.messages[0].role```) as a
    :class:`UMFValidationError` naming the field as the archive names fields
    (``messages[0].role``): for a missing or unknown field, that field."""
    message, _, where = str(error).partition(" - at `")
    path = where.rstrip("`").removeprefix("$").removeprefix(".")
    for lead, said in _NAMED_FIELD.items():
        if message.startswith(lead):
            name = message[len(lead) :].rstrip("`")
            return UMFValidationError(said, f"{path}.{name}" if path else name)
    expected = _EXPECTED.fullmatch(message)
    if expected:
        wanted = " or ".join(_plain_type(name) for name in expected["wanted"].split(" | "))
        message = f"expected {wanted}, got {_plain_type(expected['got'])}"
    elif message.startswith("Invalid enum value "):
        message = f"{message.removeprefix('Invalid enum value ')} is not an allowed value"
    elif message.startswith("Invalid value ") and path.endswith(".type"):
        message = f"{message.removeprefix('Invalid value ')} is not a type UMF knows"
    elif message == "Invalid RFC3339 encoded datetime":
        message = NOT_RFC3339
    return UMFValidationError(message[:1].lower() + message[1:], path)


NOT_RFC3339 = "expected an RFC 3339 timestamp"
_NAMED_FIELD = {
    "Object missing required field `": "a required field is missing",
    "Object contains unknown field `": "not a UMF field",
}
_EXPECTED = re.compile(r"Expected `(?P<wanted>[^`]+)`, got `(?P<got>[^`]+)`")
_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "a boolean",
    "null": "null",
    "object": "an object",
    "array": "an array",
    "datetime": "a timestamp",
}


def _plain_type(name: str) -> str:
    return _TYPE_NAMES.get(name, f"`{name}`")


def extra_field() -> Any:
    """The ``extra`` field of a UMF value: provider fields by format id, empty by default."""
    return msgspec.field(default_factory=dict)


def factory(make: Callable[[], Any]) -> Any:
    """A field whose default is a fresh ``make()`` for each value."""
    return msgspec.field(default_factory=make)


class Typed(UMFModel, tag_field="type"):
    """A value tagged by ``type``: each class says its tag as a class attribute,
    ``type: ClassVar[Literal["text"]] = "text"``, which msgspec writes first and reads to
    choose the class of a member of a union (``Block``)."""

    type: ClassVar[str]
