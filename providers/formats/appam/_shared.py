"""Names, paths, extra bookkeeping and the render context the appam modules share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from providers.formats._common import (
    hint,
    hinted_extra,
    own_extra,
    report_foreign_fields,
)
from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Conversation, Extra, Message, main_path

FORMAT_ID = "appam"
ROLES = ("system", "user", "assistant")


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


def require_bool(value: JSON, path: str) -> bool:
    """``value`` if it is a boolean, else a :class:`FormatError` for ``path``."""
    if not isinstance(value, bool):
        raise FormatError("expected a boolean", field=path)
    return value


def parse_timestamp(value: JSON, path: str) -> datetime:
    """An RFC 3339 timestamp with an offset (what chrono's ``DateTime<Utc>`` writes)."""
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed
    raise FormatError("expected an RFC 3339 timestamp with a time zone", field=path)


def format_timestamp(value: datetime, original: str | None) -> str:
    """The timestamp as read when it still says the same instant, else RFC 3339 in UTC."""
    if original is not None and parse_timestamp(original, "") == value:
        return original
    utc = value.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}" if utc.microsecond else ""
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


@dataclass
class RenderContext:
    """One render: where warnings go, and whether the conversation was read by appam
    (then it is written back exactly as it was read)."""

    drift: Drift = field(default_factory=lambda: Drift(FORMAT_ID))
    faithful: bool = False


def report_foreign_extra(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, "Appam")


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
                "Appam holds one thread; this message is on another branch",
                field=item("messages", index),
                original=message.id,
            )
    return [(positions[id(message)], message) for message in path]
