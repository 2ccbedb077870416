"""The registry of formats: every module in this package registers one :class:`Format`.

Use :func:`get` for a format by id, :func:`parse` (with ``"auto"`` detection) and
:func:`convert` to go from one format to another without storing anything.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from providers.formats._gc import collector_paused, payload_size
from providers.formats._hidden import visible_only
from providers.formats.base import (
    Capabilities,
    Format,
    FormatDetectionError,
    FormatError,
    ParseResult,
    Rendered,
)
from providers.umf import JSON, Conversation, DriftWarning

__all__ = [
    "Capabilities",
    "Format",
    "FormatDetectionError",
    "FormatError",
    "ParseResult",
    "Parsed",
    "Rendered",
    "all_formats",
    "convert",
    "detect",
    "get",
    "parse",
    "register",
]

_REGISTRY: dict[str, Format] = {}
_LOADED = False


def register(fmt: Format) -> Format:
    """Add a format to the registry (called once by each format module); the format
    registered renders without hidden context unless it can hold it (``_hidden``)."""
    if fmt.id in _REGISTRY:
        raise RuntimeError(f"format {fmt.id!r} is registered twice")
    _REGISTRY[fmt.id] = visible_only(fmt)
    return _REGISTRY[fmt.id]


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_") and module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")
    _LOADED = True


def all_formats() -> list[Format]:
    """Every registered format, sorted by id."""
    _load()
    return [_REGISTRY[key] for key in sorted(_REGISTRY)]


def get(format_id: str) -> Format:
    """The format with this id; :class:`FormatError` naming the known ids if there is none."""
    _load()
    try:
        return _REGISTRY[format_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise FormatError(
            f"unknown format {format_id!r}; known formats: {known}", field="format"
        ) from None


# When a payload reads the same in several formats (a plain list of role/content text
# messages is valid OpenAI, Anthropic and UMF alike), the first of these wins.
DETECTION_PREFERENCE = ("openai-chat", "anthropic", "umf")


def detect(payload: JSON) -> Format:
    """The format the payload is in.

    The format whose distinctive marks it carries wins. When several fit equally, the
    ones that can actually read it are compared: if they read the same messages, the
    preferred one (:data:`DETECTION_PREFERENCE`) is taken; if they read different things,
    :class:`FormatDetectionError` names the candidates, as it does when none fits.
    """
    scores = [(fmt.detect(payload), fmt) for fmt in all_formats()]
    best = max((score for score, _ in scores), default=0)
    if best == 0:
        raise FormatDetectionError(
            "could not detect the format of the payload; name it explicitly", candidates=[]
        )
    winners = [fmt for score, fmt in scores if score == best]
    if len(winners) == 1:
        return winners[0]
    return _break_tie(payload, winners)


def _break_tie(payload: JSON, candidates: list[Format]) -> Format:
    readings: list[tuple[Format, list[JSON]]] = []
    for fmt in candidates:
        try:
            items = fmt.parse(payload)
        except FormatError:
            continue
        readings.append((fmt, [_meaning(item.conversation) for item in items]))
    if len(readings) == 1:
        return readings[0][0]
    if readings and all(reading == readings[0][1] for _, reading in readings):
        return min((fmt for fmt, _ in readings), key=_preference)
    names = [fmt.id for fmt, _ in readings] or [fmt.id for fmt in candidates]
    raise FormatDetectionError(
        f"the payload fits several formats ({', '.join(names)}) that read it differently; "
        "name one explicitly",
        candidates=names,
    )


def _meaning(conversation: Conversation) -> JSON:
    """What a reading says, without the layout hints and fields each format keeps apart."""
    return conversation.model_dump(
        mode="json",
        exclude={
            "extra": True,
            "messages": {"__all__": {"extra": True, "content": {"__all__": {"extra"}}}},
            "tools": {"__all__": {"extra"}},
        },
    )


def _preference(fmt: Format) -> int:
    if fmt.id in DETECTION_PREFERENCE:
        return DETECTION_PREFERENCE.index(fmt.id)
    return len(DETECTION_PREFERENCE)


@dataclass
class Parsed:
    """The result of :func:`parse`: the format that read the payload and what it read."""

    format: Format
    items: list[ParseResult]


def parse(format_id: str, payload: JSON) -> Parsed:
    """Parse ``payload`` in ``format_id`` (or ``"auto"``) into UMF conversations.

    The conversations are left exactly as the payload describes them (so that rendering
    them back gives the payload again); ``Parsed.format`` says which format read them.
    """
    with collector_paused(payload_size(payload)):
        fmt = detect(payload) if format_id == "auto" else get(format_id)
        return Parsed(fmt, fmt.parse(payload))


@dataclass
class Converted:
    source: Format
    target: Format
    payload: JSON
    warnings: list[DriftWarning]


def convert(source_id: str, target_id: str, payload: JSON) -> Converted:
    """Parse in one format and render in another; warnings cover both steps."""
    target = get(target_id)
    # See providers.formats._gc: on a large conversation the collector only slows this.
    with collector_paused(payload_size(payload)):
        parsed = parse(source_id, payload)
        rendered = target.render_all([item.conversation for item in parsed.items])
    parse_warnings = [warning for item in parsed.items for warning in item.warnings]
    return Converted(parsed.format, target, rendered.payload, parse_warnings + rendered.warnings)
