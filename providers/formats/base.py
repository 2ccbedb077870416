"""What every format module provides, and the tools they share to report drift.

A format package registers one :class:`Format` with
:func:`providers.formats.register_package`, which takes its id, ``parse``, ``render`` and
``detect`` from the package's shape. ``parse`` turns a payload (already-decoded JSON, or a
string for text formats) into UMF conversations; ``render`` turns one conversation back into
a payload and lists what it could not carry.

Rules every format follows, so that conversions behave the same whatever the pair:

* ``parse`` accepts a request body, a bare message list and a logged exchange
  ``{"request": ..., "response": ...}`` (and a bare response where the format has one); it
  records which of these it read as the conversation hint ``$shape`` so that ``render``
  writes the same shape back. Unknown fields go to ``extra[<format id>]``, read with
  ``_kit.fields.split`` / ``unknown_fields``: one whose name starts with ``$`` (there, the
  prefix of the format's hints) is a :class:`FormatError` naming it.
* ``render`` writes only its own ``extra`` namespace. Everything it cannot carry is one
  drift warning, with the path of the UMF value in ``field`` (``messages[3].content[1]``).

Which drift category each lossy step uses (the codes of reference/provider-formats.md on
the left):

==========================  =================================================================
SYSTEM_MOVED                ``system-message-transformed`` (also developer -> system)
MEDIA_MOVED, BRIDGE_...     ``message-reordered`` (content moved or a message inserted)
ROLE_MERGED                 ``role-merged`` (two UMF messages became one)
block the target lacks      ``content-dropped`` (dropped), ``content-type-unsupported``
                            (kept as another type: refusal -> text, document -> text,
                            a media URL the target cannot fetch, a wrapped tool result)
TOOL_ERROR_AS_TEXT          ``capability-unsupported`` (error flag folded into text)
ID_REMAPPED / ID_DROPPED    ``id-rewritten`` (transformed value None when dropped)
ids made up while parsing   ``id-synthesized``
REASONING_DROPPED           ``reasoning-dropped``; ``signature-stripped`` when the text is
                            kept but its signature/encrypted data is not
CITATIONS_FLATTENED         ``content-dropped`` with the citations as original value
BRANCHES_DROPPED            ``content-dropped``
a parameter the target      ``parameter-unsupported``; a required one filled in:
cannot take                 ``parameter-defaulted``; range-limited: ``parameter-clamped``
tool_choice approximated    ``parameter-normalized``; not expressible: ``tool-unsupported``
another format's extras     ``field-unknown`` (severity info)
==========================  =================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Literal

from providers.formats._gc import collector_paused
from providers.umf import JSON, Conversation, DriftWarning, Message, Severity, WarningCategory

if TYPE_CHECKING:
    from providers.formats._kit.detect import Distinctive


class FormatError(ValueError):
    """The payload is valid JSON but not a valid document of the format.

    ``field`` is a JSON-pointer-like path (``messages[2].content``) to the offending value.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class FormatDetectionError(FormatError):
    """``auto`` could not decide which format a payload is in."""

    def __init__(self, message: str, *, candidates: Sequence[str] = ()) -> None:
        super().__init__(message, field="payload")
        self.candidates = list(candidates)


@dataclass
class Drift:
    """Collects the drift warnings of one parse or render, all tagged with one source."""

    source: str
    warnings: list[DriftWarning] = field(default_factory=list)

    def add(
        self,
        category: WarningCategory,
        message: str,
        field: str | None = None,
        original: JSON = None,
        transformed: JSON = None,
        severity: Severity = "warning",
        details: dict[str, Any] | None = None,
    ) -> None:
        """Record one lossy step. Callers name every argument after ``message``: they are not
        keyword-only because CPython 3.11 fills each missing keyword-only argument from a
        dict (a call with four missing took 2,405 instructions, 2,017 without)."""
        self.warnings.append(
            DriftWarning(
                category=category,
                severity=severity,
                message=message,
                field=field,
                original_value=original,
                transformed_value=transformed,
                source=self.source,
                details=details,
            )
        )


@dataclass
class ParseResult:
    """One conversation read from a payload, and the warnings for what reading it changed
    (ids synthesized, fields re-mapped...). Warnings the payload itself carries (UMF and
    ai.matey documents hold drift history) stay in ``conversation.metadata.warnings``."""

    conversation: Conversation
    warnings: list[DriftWarning] = field(default_factory=list)
    # A stable identity of this conversation inside a file of many (the export's own
    # conversation id), so a newer export of the same account updates instead of adding.
    key: str | None = None
    # Set by the registry's media check (``_kit.media``) when it found every media block
    # of the conversation what it claims.
    media_clean: bool = False
    # Set by a reader that validated every value it built (the umf format's, whose input
    # is UMF itself): the store does not check the values again
    # (:func:`providers.validation.check_conversation`), which for a large conversation
    # cost as much as reading it.
    validated: bool = False


@dataclass
class Rendered:
    """A rendered payload and the warnings for what it could not carry."""

    payload: JSON
    warnings: list[DriftWarning] = field(default_factory=list)


@dataclass(frozen=True)
class Capabilities:
    """What a format can carry. Published by ``GET /api/v1/formats/``. A format names its
    roles and blocks; whatever else it does not name, it cannot carry."""

    roles: frozenset[str]
    blocks: frozenset[str]
    tools: bool = False
    tool_choice: bool = False
    parameters: frozenset[str] = frozenset()
    reasoning_signatures: bool = False
    usage: bool = False
    tree: bool = False
    multi_conversation: bool = False
    # Whether the format can mark a message as hidden from the person (ChatGPT's profile
    # and memories); the others are rendered without such messages (``_kit.hidden``).
    hidden_context: bool = False


@dataclass(frozen=True)
class Format:
    """One registered format. ``detect`` scores how sure it is that a payload is its own
    (0 = not mine, 1 = maybe, 2 = the format's distinctive marks are there)."""

    id: str
    label: str
    capabilities: Capabilities
    parse: Callable[[JSON], list[ParseResult]]
    render: Callable[[Conversation], Rendered]
    detect: Callable[[JSON], int]
    kind: Literal["json", "text"] = "json"
    # The provider whose API this format is (None for neutral formats such as umf).
    provider: str | None = None
    render_many: Callable[[Sequence[Conversation]], Rendered] | None = None
    # Formats that can write one conversation a message at a time, in bounded memory: the
    # conversation without its messages, then its messages one by one -> the payload as
    # JSON bytes. Only formats that lose nothing (a stream has no place for warnings).
    render_stream: Callable[[Conversation, Iterable[Message]], Iterator[bytes]] | None = None
    # Formats whose files hold many conversations read them one at a time from a binary
    # file (JSON, JSONL or zip), never holding the whole file in memory. A conversation
    # that cannot be read is yielded as a FormatError (with its position in ``field``)
    # so the rest still import.
    iter_parse: Callable[[BinaryIO], Iterator[ParseResult | FormatError]] | None = None
    # The same in two steps, for a bulk import that skips, unread, what it has stored
    # already: ``iter_entries`` yields the file's entries (``_archive.Entry``) without
    # reading them as conversations, ``entry_identity`` gives an entry's key and the
    # document its identity is hashed from (None for an entry that could not be decoded),
    # and ``read_entry`` reads one (``iter_parse`` is ``read_entry`` over ``iter_entries``).
    iter_entries: Callable[[BinaryIO], Iterator[Any]] | None = None
    entry_identity: Callable[[Any], tuple[str | None, JSON] | None] | None = None
    read_entry: Callable[[Any], ParseResult | FormatError] | None = None
    # The fields this format's payloads may carry, for the one detector of ``auto``
    # (``providers.formats._kit.detect``): one that only this format declares decides.
    distinctive: Distinctive | None = None

    def render_all(self, conversations: Sequence[Conversation]) -> Rendered:
        """Render several conversations as this format holds them: one file for formats
        that hold many, else a list with one payload per conversation."""
        # See providers.formats._gc: the collector only slows a large conversion.
        with collector_paused(sum(len(conversation.messages) for conversation in conversations)):
            if self.render_many is not None:
                return self.render_many(conversations)
            payloads, warnings = [], []
            for conversation in conversations:
                rendered = self.render(conversation)
                payloads.append(rendered.payload)
                warnings.extend(rendered.warnings)
        return Rendered(payloads[0] if len(payloads) == 1 else payloads, warnings)
