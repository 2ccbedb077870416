"""A conversation's own dates: when it started and when its last message was written, as
its source says (never the time it was imported), so that the list, its sort and its date
filters place a chat from May 2024 in May 2024 however late it was archived.

One rule, used on import, on a merge of a newer version and by the migration that
backfills stored conversations: ``started_at`` is the source's conversation time (UMF
``metadata.timestamp``: ChatGPT's ``create_time``, Claude.ai's ``created_at``...), else the
earliest message timestamp; ``last_message_at`` is the latest of the source's update time
and the message timestamps, else ``started_at``. Both are None when the source has no time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from providers import umf
from providers.formats._archive import epoch_time, iso_time

# Where the parsers leave a data export's own update time: UMF has no field for it, so it
# stays among the format's verbatim fields in ``extra`` (kept for the exact round trip).
UPDATE_TIMES: dict[str, tuple[str, Callable[[Any], datetime | None]]] = {
    "chatgpt-export": ("update_time", epoch_time),
    "claude-export": ("updated_at", iso_time),
}


def conversation_dates(
    conversation: umf.Conversation, format_id: str
) -> tuple[datetime | None, datetime | None]:
    """``(started_at, last_message_at)`` of a parsed conversation read as ``format_id``."""
    return source_dates(
        format_id=format_id,
        started=conversation.metadata.timestamp,
        extra=conversation.extra,
        message_times=(message.timestamp for message in conversation.messages),
    )


def source_dates(
    *,
    format_id: str,
    started: datetime | None,
    extra: dict[str, Any] | None,
    message_times: Iterable[datetime | None],
) -> tuple[datetime | None, datetime | None]:
    """``(started_at, last_message_at)`` from what a source says: its own start time
    (``started``), its verbatim fields (``extra``) and its messages' timestamps."""
    times = [_aware(time) for time in message_times if time is not None]
    first = _aware(started) if started is not None else min(times, default=None)
    later = [*times, *([first] if first is not None else [])]
    updated = _update_time(format_id, extra or {})
    if updated is not None:
        later.append(updated)
    return first, max(later, default=None)


def _update_time(format_id: str, extra: dict[str, Any]) -> datetime | None:
    if format_id not in UPDATE_TIMES:
        return None
    key, read = UPDATE_TIMES[format_id]
    own = extra.get(format_id)
    value = read(own.get(key)) if isinstance(own, dict) else None
    return _aware(value) if value is not None else None


def _aware(time: datetime) -> datetime:
    # A source time without a zone (an ISO string with no offset) is taken as UTC, as the
    # exports that write one mean it.
    return time if time.tzinfo is not None else time.replace(tzinfo=UTC)
