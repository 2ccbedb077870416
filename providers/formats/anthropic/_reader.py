"""Reading one JSON object of a payload: typed getters that fail with the field's path, and
the leftover keys that become ``extra``."""

from __future__ import annotations

from typing import Any, cast

from providers.formats._common import require_mapping, reserved_field
from providers.formats.anthropic._constants import UNMAPPED_BLOCKS
from providers.formats.base import FormatError
from providers.umf import JSON


def join(path: str, key: str) -> str:
    """``path.key``, or ``key`` at the root of the payload."""
    return f"{path}.{key}" if path else key


class Fields:
    """The keys of one JSON object, taken one by one.

    Every getter removes its key from :attr:`rest` unless the value is ``null``: a null UMF
    field means "absent", so an explicit null stays in ``rest`` (and so in ``extra``), which
    is how it comes back on render.
    """

    def __init__(self, raw: JSON, path: str) -> None:
        self.path = path
        self.rest: dict[str, Any] = dict(require_mapping(raw, path or "payload"))
        for key in self.rest:
            if key.startswith("$"):
                # ``$`` keys are the format's own layout hints inside ``extra``.
                raise reserved_field(path, key)
            if key == UNMAPPED_BLOCKS:
                raise FormatError(f"the field name {key!r} is reserved", field=self.at(key))

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
