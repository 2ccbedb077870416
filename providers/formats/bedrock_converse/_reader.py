"""Reading one JSON object of a payload: typed getters that fail with the field's path, the
leftover keys that become ``extra``, and Bedrock's tagged unions (objects with one member)."""

from __future__ import annotations

from typing import Any, cast

from providers.formats._common import refuse_reserved_names, require_mapping
from providers.formats.base import FormatError
from providers.umf import JSON


def join(path: str, key: str) -> str:
    """``path.key``, or ``key`` at the root of the payload."""
    return f"{path}.{key}" if path else key


def union_member(raw: JSON, path: str, members: frozenset[str] | None) -> tuple[str, Any]:
    """The one ``(member, value)`` of a tagged union object. ``members`` lists the names the
    union may take (None: any name); anything else is a :class:`FormatError`."""
    union = require_mapping(raw, path)
    if len(union) != 1:
        names = ", ".join(sorted(members)) if members else "a member"
        raise FormatError(f"expected exactly one of: {names}", field=path)
    ((name, value),) = union.items()
    if members is not None and name not in members:
        raise FormatError(
            f"unknown member {name!r}; expected one of {', '.join(sorted(members))}",
            field=join(path, name),
        )
    return name, value


class Fields:
    """The keys of one JSON object, taken one by one.

    Every getter removes its key from :attr:`rest` unless the value is ``null``: a null UMF
    field means "absent", so an explicit null stays in ``rest`` (and so in ``extra``), which
    is how it comes back on render.
    """

    def __init__(self, raw: JSON, path: str) -> None:
        self.path = path
        self.rest: dict[str, Any] = dict(require_mapping(raw, path or "payload"))
        # ``$`` keys are the format's own layout hints inside ``extra``.
        refuse_reserved_names(self.rest, path)

    def at(self, key: str) -> str:
        """The path of ``key`` in the payload."""
        return join(self.path, key)

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

    def integer(self, key: str) -> int | None:
        """An integer field (booleans are not integers here)."""
        value = self.take(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FormatError(f"{key!r} must be an integer", field=self.at(key))
        return value

    def number(self, key: str) -> float | None:
        """A numeric field."""
        value = self.take(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise FormatError(f"{key!r} must be a number", field=self.at(key))
        return value

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
