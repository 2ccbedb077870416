"""Values the archive formats read and write alike: export times (epoch seconds, ISO 8601),
their text kept while it still names the same instant, items put back at their places,
text blocks flattened into one string, and tool definitions as ``{name, description,
parameters}`` objects."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import unknown_fields
from providers.formats._kit.wire import tool_definition
from providers.umf import JSON, Tool


def epoch_time(value: JSON) -> datetime | None:
    """The UTC datetime of epoch seconds (int or float), or None when it is not one."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return datetime.fromtimestamp(value, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def iso_time(value: JSON) -> datetime | None:
    """The datetime an ISO 8601 string names, or None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def same_time(a: datetime | None, b: datetime | None) -> bool:
    """Whether two datetimes name the same instant (naive ones taken as UTC)."""
    if a is None or b is None:
        return a is b
    a = a if a.tzinfo else a.replace(tzinfo=UTC)
    b = b if b.tzinfo else b.replace(tzinfo=UTC)
    return a == b


def kept_epoch(timestamp: datetime, raw: Any) -> Any:
    """The raw epoch number an export gave while it still names ``timestamp``, else the
    timestamp's own."""
    return raw if same_time(epoch_time(raw), timestamp) else timestamp.timestamp()


def kept_iso(timestamp: datetime, raw: Any) -> Any:
    """The raw ISO 8601 text an export gave while it still names ``timestamp``, else the
    timestamp's own."""
    return raw if same_time(iso_time(raw), timestamp) else timestamp.isoformat()


def put_back(items: list[Any], kept: JSON) -> list[Any]:
    """``items`` with the ``[position, value]`` pairs of ``kept`` back at their places."""
    if not isinstance(kept, list):
        return items
    out = list(items)
    for pair in sorted(kept, key=lambda pair: pair[0]):
        out.insert(min(pair[0], len(out)), pair[1])
    return out


def join_texts(texts: list[str]) -> str:
    """Text blocks written as one string: glued where they already meet at a space or
    punctuation (text split around citations), else separated by a blank line."""
    out = ""
    for text in texts:
        if out and text and not (out[-1].isspace() or text[0].isspace()):
            out += "" if text[0] in ",.;:!?)]}" else "\n\n"
        out += text
    return out


def read_tool(raw: dict[str, Any], name: str, ns: Namespace, path: str) -> Tool:
    """A ``{name, description, parameters}`` tool definition (``name`` already read); a
    description that is not a string or parameters that are not an object stay verbatim
    with the other fields, in ``ns``'s corner of the tool's extra."""
    description, parameters = raw.get("description"), raw.get("parameters")
    mapped = ["name"]
    mapped += ["description"] if isinstance(description, str) else []
    mapped += ["parameters"] if isinstance(parameters, dict) else []
    return Tool(
        name=name,
        description=description if "description" in mapped else None,
        parameters=parameters if "parameters" in mapped else None,
        extra=ns.extra(unknown_fields(raw, mapped, path=path)),
    )


def tool_object(tool: Tool, ns: Namespace, out: dict[str, Any] | None = None) -> dict[str, Any]:
    """A tool definition as ``{name, description, parameters}`` (after ``out``'s fields),
    with the fields ``ns`` kept."""
    return {**(out or {}), **tool_definition(tool), **ns.fields(tool.extra)}
