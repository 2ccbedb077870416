"""The base of every UMF value (:mod:`providers.umf`): pydantic models, validated where
untrusted data comes in (``model_validate``) and built without a second validation when a
format builds them by keyword while converting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

ModelT = TypeVar("ModelT", bound=BaseModel)


class UMFModel(BaseModel):
    """Base for every UMF value: strict about unknown keys, so a typo is an error.

    UMF is validated once, where untrusted data enters: ``Model.model_validate(data)``
    checks every value (the ``umf`` format's parser, rows read back from the database,
    :func:`providers.validation.check_conversation` before anything is stored). Building a
    value by keyword, ``TextBlock(text=...)``, as the format modules do while they convert,
    checks nothing but the field names: the format's reader has already checked what it
    read from the wire, and validating each value again cost more than the rest of a
    conversion (``bench/umf_core.py``). Such a value is the same pydantic model as a
    validated one: it dumps, copies and compares the same way.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.__init__ = _keyword_init(cls)  # type: ignore[method-assign]
        _FIELD_NAMES[cls] = set(cls.model_fields)

    def extra_for(self, format_id: str) -> dict[str, Any]:
        """The provider fields this value carries for ``format_id`` (empty if none)."""
        extra: dict[str, dict[str, Any]] = getattr(self, "extra", {})
        return extra.get(format_id, {})


# The setters of the four slots a pydantic model instance holds its state in (what
# ``model_construct`` sets), taken once: calling them directly is the cheapest way in.
_BASE_SLOTS: dict[str, Any] = dict(vars(BaseModel))
_SET_DICT = _BASE_SLOTS["__dict__"].__set__
_SET_FIELDS_SET = _BASE_SLOTS["__pydantic_fields_set__"].__set__
_SET_EXTRA = _BASE_SLOTS["__pydantic_extra__"].__set__
_SET_PRIVATE = _BASE_SLOTS["__pydantic_private__"].__set__
_REQUIRED = object()  # the place of a required field no value was given for
# The names of every field of each UMF class, for :func:`from_values`: copying a ready set
# costs a tenth of a warning less than building one from the values' keys.
_FIELD_NAMES: dict[type[BaseModel], set[str]] = {}
_NEW = object.__new__

_INIT_TEMPLATE = """
def __init__(self, /, **data):
    values = {{**_DEFAULTS, **data}}
{factories}    if len(values) != {size} or {required_check}:
        _refuse_fields(cls, data)
    _SET_DICT(self, values)
    _SET_FIELDS_SET(self, set(data))
    _SET_EXTRA(self, None)
    _SET_PRIVATE(self, None)
"""


def _keyword_init(cls: type[BaseModel]) -> Callable[..., None]:
    """The keyword ``__init__`` of one UMF class, written out for its fields: a copy of the
    class's defaults (every field in declaration order, the order the JSON is written in)
    updated with the given values, and a fresh default for each mutable one not given;
    only the field names are checked. Copying one ready dict (``{**defaults}`` clones its
    table) takes 30% fewer instructions than writing every default into a new one on
    each call (a ``Message`` of four fields: 17,700 -> 12,500, counted with callgrind)."""
    defaults: dict[str, Any] = {}
    factories: list[str] = []
    required: list[str] = []
    namespace: dict[str, Any] = {
        "cls": cls,
        "_DEFAULTS": defaults,
        "_REQUIRED": _REQUIRED,
        "_refuse_fields": _refuse_fields,
        "_SET_DICT": _SET_DICT,
        "_SET_FIELDS_SET": _SET_FIELDS_SET,
        "_SET_EXTRA": _SET_EXTRA,
        "_SET_PRIVATE": _SET_PRIVATE,
    }
    for name, info in cls.model_fields.items():
        if info.is_required():
            required.append(f"values[{name!r}] is _REQUIRED")
            defaults[name] = _REQUIRED
        elif info.default_factory is not None:
            namespace[f"_factory_{name}"] = info.default_factory
            factories.append(
                f"    if {name!r} not in data:\n        values[{name!r}] = _factory_{name}()\n"
            )
            defaults[name] = None
        else:
            if isinstance(info.default, list | dict | set):
                raise TypeError(f"{cls.__name__}.{name}: a mutable default needs a factory")
            defaults[name] = info.default
    source = _INIT_TEMPLATE.format(
        factories="".join(factories),
        size=len(defaults),
        required_check=" or ".join(required) or "False",
    )
    exec(source, namespace)  # the source is written from the field names only
    init: Callable[..., None] = namespace["__init__"]
    # Pydantic validates nested data with its own constructor only while a model keeps
    # the base ``__init__``: this one must not change how ``model_validate`` works.
    init.__pydantic_base_init__ = True  # type: ignore[attr-defined]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _refuse_fields(cls: type[BaseModel], data: dict[str, Any]) -> None:
    """A wrong field name is a bug in the code that builds the value: say which."""
    unknown = sorted(set(data) - set(cls.model_fields))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    missing = [name for name, info in cls.model_fields.items() if info.is_required()]
    raise TypeError(f"{cls.__name__} needs {', '.join(n for n in missing if n not in data)}")


def from_values(cls: type[ModelT], values: dict[str, Any]) -> ModelT:
    """A value of ``cls`` holding ``values``, which give every field of ``cls`` in
    declaration order (the order its JSON is written in), all counted as given. Nothing is
    checked, not even the names: for a hot path that builds many values of one class with
    every field known (a render's drift warnings), where even the keyword ``__init__``
    shows in a profile."""
    value = _NEW(cls)
    _SET_DICT(value, values)
    _SET_FIELDS_SET(value, _FIELD_NAMES[cls].copy())
    _SET_EXTRA(value, None)
    _SET_PRIVATE(value, None)
    return value


def extra_field() -> Any:
    """The ``extra`` field of a UMF value: provider fields by format id, empty by default."""
    return Field(default_factory=dict)


class Typed(UMFModel):
    """A value tagged by ``type``: the tag is always written, even when defaults are not."""

    @model_serializer(mode="wrap")
    def _always_typed(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {"type": getattr(self, "type"), **data}  # noqa: B009
