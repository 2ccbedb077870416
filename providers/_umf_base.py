"""The base of every UMF value (:mod:`providers.umf`): msgspec Structs, validated where
untrusted data comes in (``model_validate``) and built without any check when a format
builds them by keyword while converting.

Why msgspec (``bench/umf_core.py``, one assistant message with a text block and a tool
call): building it by keyword takes 0.46 µs (a bare msgspec Struct: 0.40) against 2.4 for
the pydantic models this replaced (with their own unchecked keyword ``__init__``),
validating it 1.0 µs against 3.1, reading its fields half the time (a Struct has slots and
no ``__getattr__`` hook, so CPython's attribute caches work), and writing its UMF JSON
0.5 µs against 5.4. The values keep the small part of pydantic's surface the archive used
(``model_dump``, ``model_dump_json``, ``model_validate``, ``model_copy``), with the same
output: the UMF JSON did not change.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection
from typing import Any, ClassVar, Literal, TypeVar

import msgspec

from providers._umf_walk import (
    deep_copy,
    dump_fixes,
    full_dump,
    to_plain,
)

ModelT = TypeVar("ModelT", bound="UMFModel")
Mode = Literal["python", "json"]


class UMFValidationError(ValueError):
    """A value UMF refuses: ``message`` says what, ``field`` where (``messages[1].role``,
    ``""`` for the value itself)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.message = message
        self.field = field

    def under(self, base: str) -> str:
        """The field's path inside the value at ``base`` (``messages[1]`` + ``role``)."""
        return placed_under(base, self.field)


def placed_under(base: str, field: str) -> str:
    """``field``, a path inside the value at ``base``, as a path from where ``base`` is
    (``messages[1]`` + ``role`` -> ``messages[1].role``, + ``[0]`` -> ``messages[1][0]``);
    either alone when the other is empty."""
    if not base or not field:
        return base or field
    return f"{base}{field}" if field.startswith("[") else f"{base}.{field}"


class UMFModel(
    msgspec.Struct,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
    repr_omit_defaults=True,
    gc=False,
):
    """Base for every UMF value: strict about unknown keys, so a typo is an error.

    Every UMF class takes its fields by keyword, and says so itself (``kw_only=True``:
    msgspec applies it only to the fields of the class that says it), as a tagged class
    says its tag (:class:`Typed`). A metaclass used to say both for them, but a class whose
    metaclass is written in Python has no vectorcall in CPython 3.11: every value built by
    keyword then went through the generic call (its keywords packed into a dict and
    unpacked again), which made building a drift warning four times slower (290 ns against
    65) and the bench's message 0.83 µs instead of 0.46.

    UMF is validated once, where untrusted data enters: ``Model.model_validate(data)``
    checks every value (the ``umf`` format's parser, rows read back from the database,
    :func:`providers.validation.check_conversation` before anything is stored). Building a
    value by keyword, ``TextBlock(text=...)``, as the format modules do while they convert,
    checks nothing (a wrong field name is still a TypeError): the format's reader has
    already checked what it read from the wire.

    UMF values are left out of the cyclic garbage collector (``gc=False``): they hold JSON
    values and other UMF values, a tree in which no reference cycle can form, and
    reference counting frees them. A conversion makes several for every message: without
    the collector's header each is 16 bytes smaller, and is not linked into (and unlinked
    from) its lists when made and freed, which cost 1.1% of bench/convert_instructions.py's
    gemini figure (700 instructions per message). A value put inside itself (a cycle) would
    never be freed.
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
            out: dict[str, Any] = to_plain(self, json)
            fix = dump_fixes(type(self))
            if fix is not None:
                fix(out, json)
        else:
            out = full_dump(self, exclude_none, json)
        if include is not None:
            out = {key: value for key, value in out.items() if key in include}
        if exclude:
            out = {key: value for key, value in out.items() if key not in exclude}
        return out

    def model_dump_json(self, *, exclude_defaults: bool = False) -> str:
        """:meth:`model_dump` in JSON mode, as compact JSON text."""
        if exclude_defaults and dump_fixes(type(self)) is None:
            return msgspec.json.encode(self).decode()
        dumped = self.model_dump(mode="json", exclude_defaults=exclude_defaults)
        return msgspec.json.encode(dumped).decode()

    # --------------------------------------------------------------------------- copies

    def model_copy(
        self: ModelT, *, update: dict[str, Any] | None = None, deep: bool = False
    ) -> ModelT:
        """A copy holding the same values (``deep``: copies of them too), with the fields
        of ``update`` replaced."""
        base = deep_copy(self) if deep else self
        if update:
            return msgspec.structs.replace(base, **update)
        return base if deep else copy.copy(self)


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


class Typed(UMFModel, kw_only=True, tag_field="type"):
    """A value tagged by ``type``: each class says its tag to msgspec, which writes it
    first and reads it to choose the class of a member of a union (``Block``), and as a
    class attribute for the code that reads it: ``class TextBlock(Typed, kw_only=True,
    tag="text")`` with ``type: ClassVar[Literal["text"]] = "text"`` (a test checks that
    the two agree)."""

    type: ClassVar[str]
