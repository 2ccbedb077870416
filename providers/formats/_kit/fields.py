"""Reading the JSON objects of a payload: the typed field reader (:class:`Fields`), the
split of mapped fields from those kept verbatim in ``extra``, and the checks that refuse
what would not come back (``$`` names, the names a format keeps for itself)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from providers._umf_base import UMFValidationError
from providers.formats._kit.paths import at
from providers.formats.base import FormatError
from providers.umf import JSON


def unknown_fields(
    source: Mapping[str, Any], known: Collection[str], *, path: str
) -> dict[str, Any]:
    """The entries of ``source`` whose keys are not in ``known``, verbatim; a
    :class:`FormatError` for one whose name starts with ``$`` (see :func:`reserved_field`).
    ``path`` is where ``source`` is in the payload."""
    # ``known`` is a handful of names: looking them up in the tuple as given is cheaper
    # than building a set on every call (this runs for every message and block).
    rest = {key: value for key, value in source.items() if key not in known}
    refuse_reserved_names(rest, path)
    return rest


def split(
    source: Mapping[str, Any],
    mapped: Collection[str],
    handled: Collection[str] = (),
    *,
    path: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(mapped fields that hold a value, every other field verbatim)``.

    A mapped field given as ``null`` stays with the others: UMF cannot say "present but
    null", so the null travels verbatim in ``extra`` and comes back as it was. ``handled``
    fields are left out of both (the caller reads them itself). One of the others whose
    name starts with ``$`` is a :class:`FormatError` (see :func:`reserved_field`); ``path``
    is where ``source`` is in the payload.
    """
    # One pass, looking names up in the small tuples as given: this runs for every message.
    fields: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for key, value in source.items():
        if key in mapped and value is not None:
            fields[key] = value
        elif key not in handled:
            if key.startswith("$"):
                raise reserved_field(path, key)
            rest[key] = value
    return fields, rest


def refuse_reserved_names(names: Iterable[str], path: str) -> None:
    """A :class:`FormatError` (:func:`reserved_field`) for the first of ``names``, fields of
    the object at ``path`` bound for ``extra``, that starts with ``$``."""
    for name in names:
        if name.startswith("$"):
            raise reserved_field(path, name)


def refuse_kept_name(source: Mapping[str, Any], name: str, path: str) -> None:
    """A :class:`FormatError` when ``source``, the object at ``path``, has a field ``name``
    that the format itself uses in the value's ``extra`` (to keep what UMF has no place
    for, such as parts it cannot read): the field and the format's own entry would take
    each other's place."""
    if name in source:
        field = f"{path}.{name}" if path else name
        raise FormatError(f"{name!r} is a name this format keeps for itself", field=field)


def has_reserved_name(names: Iterable[str]) -> bool:
    """Whether one of ``names`` starts with ``$``. For JSON objects inside a text (a tool
    call in a message's text), which are then read as plain text: reading a text never
    fails, and the text keeps them exactly."""
    return any(name.startswith("$") for name in names)


def reserved_field(path: str, key: str) -> FormatError:
    """The error for a provider field named ``key`` (inside the object at ``path``) that
    starts with ``$``.

    Inside ``extra``, ``$`` names are a format's own layout hints, which renderers leave
    out: such a field kept there verbatim would silently vanish on render, so it is refused
    instead. Values carried whole (tool parameters' ``$ref``, arguments, results) are not
    field names of the format and are never checked.
    """
    field = f"{path}.{key}" if path else key
    return FormatError("field names starting with '$' are reserved", field=field)


def require_mapping(value: JSON, field: str, key: str | None = None) -> dict[str, Any]:
    """``value`` if it is an object, else a :class:`FormatError` for ``field`` (or for its
    ``key``: the path is then built only for the error, as readers call this per value)."""
    if not isinstance(value, dict):
        where = field if key is None else at(field, key)
        raise FormatError(f"expected an object, got {_json_type(value)}", field=where)
    return value


def require_list(value: JSON, field: str, key: str | None = None) -> list[Any]:
    """``value`` if it is an array, else a :class:`FormatError` for ``field`` (or for its
    ``key``: the path is then built only for the error, as readers call this per value)."""
    if not isinstance(value, list):
        where = field if key is None else at(field, key)
        raise FormatError(f"expected an array, got {_json_type(value)}", field=where)
    return value


def require_str(value: JSON, field: str, key: str | None = None) -> str:
    """``value`` if it is a string, else a :class:`FormatError` for ``field`` (or for its
    ``key``: the path is then built only for the error, as readers call this per value)."""
    if not isinstance(value, str):
        where = field if key is None else at(field, key)
        raise FormatError(f"expected a string, got {_json_type(value)}", field=where)
    return value


def require_bool(value: JSON, path: str) -> bool:
    """``value`` if it is a boolean, else a :class:`FormatError` for ``path``."""
    if not isinstance(value, bool):
        raise FormatError("expected a boolean", field=path)
    return value


def _json_type(value: JSON) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


def union_member(raw: JSON, path: str, members: frozenset[str] | None) -> tuple[str, Any]:
    """The one ``(member, value)`` of a tagged union object (an object with exactly one
    member, as Bedrock writes its blocks). ``members`` lists the names the union may take
    (None: any name); anything else is a :class:`FormatError`."""
    union = require_mapping(raw, path)
    if len(union) != 1:
        names = ", ".join(sorted(members)) if members else "a member"
        raise FormatError(f"expected exactly one of: {names}", field=path)
    ((name, value),) = union.items()
    if members is not None and name not in members:
        raise FormatError(
            f"unknown member {name!r}; expected one of {', '.join(sorted(members))}",
            field=at(path, name),
        )
    return name, value


class Fields:
    """The keys of one JSON object, taken one by one.

    Every getter removes its key from :attr:`rest` unless the value is ``null``: a null UMF
    field means "absent", so an explicit null stays in ``rest`` (and so in ``extra``), which
    is how it comes back on render. ``kept`` names the fields the format itself uses inside
    ``extra`` (such as Anthropic's ``unmapped_blocks``): a payload field of that name would
    take their place, so it is refused, as are ``$`` names (the format's layout hints).
    """

    def __init__(self, raw: JSON, path: str, *, kept: Collection[str] = ()) -> None:
        self.path = path
        self.rest: dict[str, Any] = dict(require_mapping(raw, path or "payload"))
        for key in self.rest:
            if key.startswith("$"):
                raise reserved_field(path, key)
            if key in kept:
                raise FormatError(f"the field name {key!r} is reserved", field=self.at(key))

    def at(self, key: str) -> str:
        """The path of ``key`` in the payload."""
        return at(self.path, key)

    def take(self, key: str, *, required: bool = False) -> Any:
        """The value of ``key`` (None when absent or null)."""
        if key not in self.rest:
            if required:
                raise FormatError(f"missing required field {key!r}", field=self.at(key))
            return None
        value = self.rest[key]
        if value is None:
            if required:
                raise FormatError(f"{key!r} must not be null", field=self.at(key))
            return None
        del self.rest[key]
        return value

    def string(self, key: str, *, required: bool = False) -> str | None:
        """A string field."""
        return cast(str | None, self._typed(key, str, "a string", required))

    def integer(self, key: str, *, required: bool = False) -> int | None:
        """An integer field (booleans are not integers here)."""
        value = self.take(key, required=required)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FormatError(f"{key!r} must be an integer", field=self.at(key))
        return value

    def number(self, key: str) -> float | None:
        """A numeric field."""
        value = self.take(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise FormatError(f"{key!r} must be a number", field=self.at(key))
        return value

    def boolean(self, key: str) -> bool | None:
        """A boolean field."""
        return cast(bool | None, self._typed(key, bool, "a boolean", False))

    def mapping(self, key: str, *, required: bool = False) -> dict[str, Any] | None:
        """An object field."""
        return cast(dict[str, Any] | None, self._typed(key, dict, "an object", required))

    def array(self, key: str, *, required: bool = False) -> list[Any] | None:
        """An array field."""
        return cast(list[Any] | None, self._typed(key, list, "an array", required))

    def _typed(self, key: str, kind: type, label: str, required: bool) -> Any:
        value = self.take(key, required=required)
        if value is not None and not isinstance(value, kind):
            raise FormatError(f"{key!r} must be {label}", field=self.at(key))
        return value


@contextmanager
def umf_checked() -> Iterator[None]:
    """Turns a value UMF still refuses into a :class:`FormatError` naming the field: the
    net behind a parser's own type checks (they check first, so a payload meets it only for
    a rule UMF alone knows)."""
    try:
        yield
    except UMFValidationError as error:
        raise FormatError(error.message, field=error.field) from None
