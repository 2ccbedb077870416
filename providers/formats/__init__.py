"""The registry of formats: every module in this package registers one :class:`Format`.

Use :func:`get` for a format by id, :func:`parse` (with ``"auto"`` detection) and
:func:`convert` to go from one format to another without storing anything.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal, TypedDict, Unpack

from providers.formats._gc import collector_paused, payload_size
from providers.formats._kit.detect import DETECTION_PREFERENCE
from providers.formats._kit.detect import detect as detect_among
from providers.formats._kit.hidden import visible_only
from providers.formats._kit.media import guarded, rendering_parsed
from providers.formats.base import (
    Capabilities,
    Format,
    FormatDetectionError,
    FormatError,
    ParseResult,
    Rendered,
)
from providers.umf import JSON, Conversation, DriftWarning, Message

__all__ = [
    "DETECTION_PREFERENCE",
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
    "register_package",
]

_REGISTRY: dict[str, Format] = {}
_LOADED = False


def register(fmt: Format) -> Format:
    """Add a format to the registry (called once by each format module) and return it as
    registered: its parse and render check media once for every format
    (:func:`providers.formats._kit.media.guarded`), and it renders without hidden context
    unless it can hold it (:func:`providers.formats._kit.hidden.visible_only`)."""
    if fmt.id in _REGISTRY:
        raise RuntimeError(f"format {fmt.id!r} is registered twice")
    _REGISTRY[fmt.id] = visible_only(guarded(fmt))
    return _REGISTRY[fmt.id]


class FormatFields(TypedDict, total=False):
    """The :class:`Format` fields a package may give :func:`register_package` beside its
    label and capabilities: what is particular to it."""

    kind: Literal["json", "text"]
    provider: str
    render_many: Callable[[Sequence[Conversation]], Rendered]
    iter_parse: Callable[[BinaryIO], Iterator[ParseResult | FormatError]]
    iter_entries: Callable[[BinaryIO], Iterator[Any]]
    entry_identity: Callable[[Any], tuple[str | None, JSON] | None]
    read_entry: Callable[[Any], ParseResult | FormatError]
    render_stream: Callable[[Conversation, Iterable[Message]], Iterator[bytes]]


def register_package(
    package: str,
    *,
    label: str,
    capabilities: Capabilities,
    parse: Callable[[JSON], list[ParseResult]] | None = None,
    render: Callable[[Conversation], Rendered] | None = None,
    **fields: Unpack[FormatFields],
) -> Format:
    """Register the format package named ``package`` (its ``__name__``) by the one shape
    every format package has: its id is ``_constants.FORMAT_ID``; it detects with
    ``_detect.detect`` (and declares ``_detect.DISTINCTIVE`` if it has one); it parses and
    renders with ``_parse.parse`` and ``_render.render`` unless ``fields`` give them (the
    archives build theirs). ``fields`` are its other :class:`Format` fields."""
    constants = importlib.import_module(f"{package}._constants")
    detecting = importlib.import_module(f"{package}._detect")
    if parse is None:
        parse = importlib.import_module(f"{package}._parse").parse
    if render is None:
        render = importlib.import_module(f"{package}._render").render
    return register(
        Format(
            id=constants.FORMAT_ID,
            label=label,
            capabilities=capabilities,
            parse=parse,
            render=render,
            detect=detecting.detect,
            distinctive=getattr(detecting, "DISTINCTIVE", None),
            **fields,
        )
    )


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


def detect(payload: JSON) -> Format:
    """The format the payload is in: the one whose distinctive fields it carries (see
    :mod:`providers.formats._kit.detect`). :class:`FormatDetectionError` names the
    candidates when none fits or several fit and read it differently."""
    return detect_among(payload, all_formats())


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
        try:
            return Parsed(fmt, fmt.parse(payload))
        except FormatError as error:
            if format_id == "auto":
                raise
            raise _with_the_format_that_fits(error, fmt, payload) from None


def _with_the_format_that_fits(error: FormatError, named: Format, payload: JSON) -> FormatError:
    """``error``, saying which format the payload is in when it is not the one named (a
    person who picked the wrong one in a list learns the right one)."""
    try:
        fits = detect(payload)
    except FormatError:
        return error
    if fits.id == named.id:
        return error
    return FormatError(
        f"{error.message} — this reads as {fits.id} ({fits.label}), not {named.id}: import it "
        f"as {fits.id}, or as auto",
        field=error.field,
    )


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
        with rendering_parsed(parsed.items):
            rendered = target.render_all([item.conversation for item in parsed.items])
    parse_warnings = [warning for item in parsed.items for warning in item.warnings]
    return Converted(parsed.format, target, rendered.payload, parse_warnings + rendered.warnings)
