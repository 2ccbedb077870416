"""Names, paths, extra bookkeeping and the render context the matey-ir modules share."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from providers.formats._common import (
    hint,
    hinted_extra,
    own_extra,
    report_foreign_fields,
    report_message_metadata,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Conversation, Extra, Message, main_path

FORMAT_ID = "matey-ir"
ROLES = ("system", "user", "assistant", "tool")


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base``."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def make_extra(fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding this format's unknown ``fields`` and its ``$`` layout hints."""
    return hinted_extra(FORMAT_ID, fields, **hints)


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def put_fields(out: dict[str, Any], extra: Extra) -> dict[str, Any]:
    """``out`` plus this format's verbatim fields; what UMF itself says wins."""
    for key, value in own_extra(extra, FORMAT_ID).items():
        out.setdefault(key, value)
    return out


@dataclass
class RenderContext:
    """One render: where warnings go, and whether the conversation was read by matey-ir
    (then it is written back exactly as it was read)."""

    drift: Drift = field(default_factory=lambda: Drift(FORMAT_ID))
    faithful: bool = False


def report_foreign_extra(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, "ai.matey IR")


_NO_MESSAGE_METADATA = (
    "an ai.matey IR request has no per-message ids, timestamps, models, finish reasons or "
    "usage; left out"
)


def thread(conversation: Conversation, ctx: RenderContext) -> list[tuple[int, Message]]:
    """The messages to write with their UMF indexes: one path when the conversation is a
    tree, each message left on another branch noted as dropped."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "ai.matey IR holds one thread; this message is on another branch",
                field=item("messages", index),
                original=message.id,
            )
    written = [(positions[id(message)], message) for message in path]
    if not ctx.faithful:
        report_message_metadata(written, ctx.drift, _NO_MESSAGE_METADATA, held=("metadata",))
    return written


def is_int(value: JSON) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: JSON) -> bool:
    """Whether ``value`` is a JSON number (booleans are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def require_int(value: JSON, path: str) -> int:
    """``value`` if it is an integer, else a :class:`FormatError` for ``path``."""
    if not is_int(value):
        raise FormatError("expected an integer", field=path)
    return int(value)


def require_number(value: JSON, path: str) -> float:
    """``value`` if it is a number, else a :class:`FormatError` for ``path``."""
    if not is_number(value):
        raise FormatError("expected a number", field=path)
    return float(value)


def require_bool(value: JSON, path: str) -> bool:
    """``value`` if it is a boolean, else a :class:`FormatError` for ``path``."""
    if not isinstance(value, bool):
        raise FormatError("expected a boolean", field=path)
    return value


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def from_millis(value: JSON) -> datetime | None:
    """The instant of a millisecond timestamp (None when it is not a whole, plausible one;
    the number itself then travels only verbatim)."""
    if not is_int(value):
        return None
    try:
        return _EPOCH + timedelta(milliseconds=value)
    except OverflowError:
        return None


def to_millis(value: datetime) -> int:
    """Milliseconds since the epoch (what IRMetadata.timestamp holds)."""
    return (value - _EPOCH) // timedelta(milliseconds=1)


def digest(value: JSON) -> str:
    """A short stable digest of a JSON value."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]
