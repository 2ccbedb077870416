"""Names, defaults, paths and the JSON reader that the ``ollama`` modules share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, cast

from providers.formats._common import (
    hint,
    hinted_extra,
    own_extra,
    refuse_reserved_names,
    report_foreign_fields,
    require_mapping,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Extra, FinishReason

FORMAT_ID: Final = "ollama"

# Filled in (with a ``parameter-defaulted`` warning) when a conversation from another format
# names no model: the server refuses a request without one.
DEFAULT_MODEL: Final = "llama3.2"

ROLES: Final = ("system", "user", "assistant", "tool")

# ``done_reason`` -> UMF finish reason (reference section 4). ``load`` and ``unload`` have
# no UMF name and live only in ``provider_finish_reason``; a ``stop`` that ends on tool
# calls is UMF ``tool_calls``.
FINISH_REASONS: Final[dict[str, FinishReason]] = {"stop": "stop", "length": "length"}
DONE_REASONS: Final[dict[str, str]] = {
    "stop": "stop",
    "tool_calls": "stop",
    "length": "length",
}

# The response's count and timing fields: UMF usage keeps them all in ``raw``.
METRICS: Final = (
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
)

SHAPES: Final = ("request", "messages", "exchange", "response")


def join(path: str, key: str) -> str:
    """``path.key``, or ``key`` at the root of the payload."""
    return f"{path}.{key}" if path else key


def item(path: str, index: int) -> str:
    """The path of element ``index`` of the list at ``path``."""
    return f"{path}[{index}]"


def make_extra(fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding this format's unknown ``fields`` and its ``$`` hints."""
    return hinted_extra(FORMAT_ID, fields, **hints)


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def fields_of(extra: Extra) -> dict[str, Any]:
    """This format's verbatim provider fields on a value (``$`` hints left out)."""
    return own_extra(extra, FORMAT_ID)


def put_fields(out: dict[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """Add fields kept verbatim to ``out``; what UMF itself says wins."""
    for key, value in fields.items():
        out.setdefault(key, value)
    return out


def is_int(value: JSON) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: JSON) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def warn_foreign_extra(extra: Extra, path: str, drift: Drift) -> None:
    """One ``field-unknown`` note per other format's fields on a value: they belong to
    that format and never travel into an Ollama request. Empty fields are not worth one."""
    report_foreign_fields(extra, path, drift, FORMAT_ID, "Ollama", tail=" and are not sent")


class Fields:
    """The keys of one JSON object, taken one by one.

    A getter removes its key from :attr:`rest` unless the value is ``null``: UMF cannot say
    "present but null", so an explicit null stays in ``rest`` (and so in ``extra``), which
    is how it comes back on render.
    """

    def __init__(self, raw: JSON, path: str) -> None:
        self.path = path
        self.present = set(require_mapping(raw, path or "payload"))
        self.rest: dict[str, Any] = dict(raw)
        refuse_reserved_names(self.rest, path)

    def at(self, key: str) -> str:
        """The path of ``key`` in the payload."""
        return join(self.path, key)

    def take(self, key: str, *, required: bool = False) -> Any:
        """The value of ``key`` (None when absent or null)."""
        value = self.rest.get(key)
        if value is None:
            if required:
                raise FormatError(f"missing required field {key!r}", field=self.at(key))
            return None
        del self.rest[key]
        return value

    def string(self, key: str, *, required: bool = False) -> str | None:
        """A string field."""
        return cast(str | None, self._typed(key, str, "a string", required))

    def integer(self, key: str) -> int | None:
        """An integer field (booleans are not integers here)."""
        value = self.take(key)
        if value is not None and not is_int(value):
            raise FormatError(f"{key!r} must be an integer", field=self.at(key))
        return cast(int | None, value)

    def number(self, key: str) -> float | None:
        """A numeric field (an integer stays an integer)."""
        value = self.take(key)
        if value is not None and not is_number(value):
            raise FormatError(f"{key!r} must be a number", field=self.at(key))
        return cast(float | None, value)

    def boolean(self, key: str) -> bool | None:
        """A boolean field."""
        return cast(bool | None, self._typed(key, bool, "a boolean", False))

    def mapping(self, key: str, *, required: bool = False) -> dict[str, Any] | None:
        """An object field."""
        return cast(dict[str, Any] | None, self._typed(key, dict, "an object", required))

    def array(self, key: str, *, required: bool = False) -> list[Any] | None:
        """An array field."""
        return cast(list[Any] | None, self._typed(key, list, "an array", required))

    def keep(self, key: str, value: Any) -> None:
        """Put a taken value back among the verbatim fields (an empty list or string that
        UMF would otherwise forget)."""
        self.rest[key] = value

    def _typed(self, key: str, kind: type, label: str, required: bool) -> Any:
        value = self.take(key, required=required)
        if value is not None and not isinstance(value, kind):
            raise FormatError(f"{key!r} must be {label}", field=self.at(key))
        return value


@dataclass
class Context:
    """What one render carries along: where warnings go, whether to write the conversation
    as the Ollama document it was read from (``faithful``), and the tool name of every
    call id (Ollama pairs results with calls by tool name)."""

    drift: Drift
    faithful: bool
    call_names: dict[str, str] = field(default_factory=dict)
