"""What every archive format does alike with a file of many conversations: read each entry
as one conversation (naming it by its own id in errors), write one back (in a list when it
was read from a list, or came from another format), stream a file's entries one at a time.
A format gives its reader, writer and words (:class:`Archive`); :meth:`Archive.hooks` are
the :class:`~providers.formats.base.Format` fields that follow from them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal, TypeVar

from providers._umf_base import UMFValidationError
from providers.formats._kit.extra import hint
from providers.formats._kit.fields import require_list
from providers.formats.base import Drift, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from . import conversations_member, read_entries
from ._common import Entry, check_depth

T = TypeVar("T")
# Finds the bytes (media type, data) of a file a zip export holds, by its file id.
Assets = Callable[[str], tuple[str, bytes] | None]
Read = Callable[[JSON, str, Drift, Assets | None], Conversation]


def _is_object(payload: JSON) -> bool:
    return isinstance(payload, dict)


@dataclass
class Archive:
    """One archive format. ``read`` reads one entry (``path`` names it in errors, ``assets``
    finds the files of a zip), ``render_entry`` writes one, ``key`` is an entry's own id
    (what a re-import merges by) and ``id_keys`` the fields that name it in an error.
    ``own_shape`` is the ``$shape`` hint of a conversation read from this format: another
    format's conversation becomes a file (a list) of one; None writes it as it is.
    ``single`` says when a payload is one entry rather than a list of them (an empty list
    is refused with ``nothing``). ``members`` says which zip members hold conversations
    (None: zips are not read); ``lines`` whether the file may be JSON Lines (see
    :func:`~providers.formats._archive.read_entries`); ``lone_value_is_list``: a file of
    one JSON value is written back as a list, as a JSON array would be."""

    format_id: str
    read: Read
    render_entry: Callable[[Conversation], Rendered]
    key: Callable[[JSON], str | None]
    id_keys: tuple[str, ...]
    own_shape: str | None = None
    single: Callable[[JSON], bool] = _is_object
    nothing: str = "no conversations"
    members: Callable[[str], bool] | None = None
    lines: Literal["auto", "never", "always"] = "auto"
    lone_value_is_list: bool = True

    def parse(self, payload: JSON) -> list[ParseResult]:
        """One conversation per entry of a list (or the one entry given on its own)."""
        if self.single(payload):
            return [self.parse_one(payload, "")]
        entries = require_list(payload, "payload")
        if not entries:
            raise FormatError(self.nothing, field="payload")
        results = [self.parse_one(entry, f"[{index}]") for index, entry in enumerate(entries)]
        for result in results:
            self._in_list(result)
        return results

    def parse_one(
        self, entry: JSON, path: str, assets: Assets | None = None, *, depth_checked: bool = False
    ) -> ParseResult:
        """The conversation of one entry (``depth_checked``: the file reader has bounded
        its nesting)."""
        if not depth_checked:
            check_depth(entry, path or "payload")
        drift = Drift(self.format_id)
        conversation = checked(lambda: self.read(entry, path, drift, assets), path)
        return ParseResult(conversation, drift.warnings, key=self.key(entry))

    def _in_list(self, result: ParseResult) -> None:
        result.conversation.extra.setdefault(self.format_id, {})["$file"] = "list"

    def render(self, conversation: Conversation) -> Rendered:
        """A file of one: the entry alone when it was read alone, else a list holding it."""
        rendered = self.render_entry(conversation)
        extra = conversation.extra
        foreign = self.own_shape is not None and (
            hint(extra, self.format_id, "shape") != self.own_shape
        )
        if foreign or hint(extra, self.format_id, "file") == "list":
            rendered.payload = [rendered.payload]
        return rendered

    def render_many(self, conversations: Sequence[Conversation]) -> Rendered:
        """A file of several conversations, one entry each (a file of one is :meth:`render`)."""
        if len(conversations) == 1:
            return self.render(conversations[0])
        entries, warnings = [], []
        for conversation in conversations:
            rendered = self.render_entry(conversation)
            entries.append(rendered.payload)
            warnings.extend(rendered.warnings)
        return Rendered(entries, warnings)

    def iter_parse(self, binary: BinaryIO) -> Iterator[ParseResult | FormatError]:
        """The conversations of a file, one at a time; one that cannot be read is a
        :class:`FormatError` naming its position."""
        for entry in self.iter_entries(binary):
            yield self.read_entry(entry)

    def iter_entries(self, binary: BinaryIO) -> Iterator[Entry]:
        """The entries of a file (or of a zip export), not read yet."""
        return read_entries(binary, members=self.members, lines=self.lines)

    def entry_identity(self, entry: Entry) -> tuple[str | None, JSON] | None:
        """An entry's own id and the entry itself (what identifies it)."""
        return None if entry.error is not None else (self.key(entry.value), entry.value)

    def read_entry(self, entry: Entry) -> ParseResult | FormatError:
        """The conversation of one entry of :meth:`iter_entries`, or why it cannot be read."""
        if entry.error is not None:
            return entry.error
        assets = entry.archive.asset if entry.archive is not None else None
        try:
            result = self.parse_one(
                entry.value, entry.position, assets, depth_checked=entry.depth_checked
            )
        except FormatError as error:
            return entry_error(error, entry.value, *self.id_keys)
        if self.lone_value_is_list or entry.position != "file":
            self._in_list(result)
        return result

    def hooks(self) -> dict[str, Any]:
        """The :class:`~providers.formats.base.Format` fields of this archive: its parse and
        render, and (for the exports whose zips a bulk import skips through) its entries."""
        hooks: dict[str, Any] = {
            "parse": self.parse,
            "render": self.render,
            "render_many": self.render_many,
            "iter_parse": self.iter_parse,
        }
        if self.members is not None:
            hooks.update(
                iter_entries=self.iter_entries,
                entry_identity=self.entry_identity,
                read_entry=self.read_entry,
            )
        return hooks


def own_or_foreign(
    format_id: str,
    own_shape: str,
    write_own: Callable[[Conversation], Any],
    write_foreign: Callable[[Conversation], Rendered],
) -> Callable[[Conversation], Rendered]:
    """An entry's writer for the exports that write back exactly what they read (a
    conversation whose ``$shape`` hint is ``own_shape``: ``write_own`` gives its entry),
    and build one for any other conversation (``write_foreign``, with its warnings)."""

    def render_entry(conversation: Conversation) -> Rendered:
        if hint(conversation.extra, format_id, "shape") == own_shape:
            return Rendered(write_own(conversation))
        return write_foreign(conversation)

    return render_entry


def data_export(
    format_id: str,
    read: Read,
    write_own: Callable[[Conversation], Any],
    write_foreign: Callable[[Conversation], Rendered],
    id_keys: tuple[str, ...],
) -> Archive:
    """A provider's data export: ``conversations.json`` (a list of conversations, each read
    and written back exactly, keyed by the first of ``id_keys`` it has) or the export's
    zip, whose conversations may be split over ``conversations-000.json``... shards."""
    return Archive(
        format_id,
        read=read,
        render_entry=own_or_foreign(format_id, "conversation", write_own, write_foreign),
        key=lambda entry: key_of(entry, *id_keys),
        id_keys=id_keys,
        own_shape="conversation",
        members=conversations_member,
        lines="never",
    )


def key_of(entry: JSON, first: str, *others: str) -> str | None:
    """An entry's own id: its ``first`` field, or (when that is empty) the first of
    ``others`` that is not, when it is a string; else None."""
    if not isinstance(entry, dict):
        return None
    value = entry.get(first)
    for key in others:
        value = value or entry.get(key)
    return value if isinstance(value, str) else None


def fits_every_entry(payload: JSON, fits: Callable[[Any], bool], *, sample: int = 20) -> int:
    """2 when the payload (one entry, or a list of them: its first ``sample``) is entries
    of the format ``fits`` recognises, else 0."""
    entries = payload if isinstance(payload, list) else [payload]
    return 2 if entries and all(fits(entry) for entry in entries[:sample]) else 0


def entry_error(error: FormatError, value: JSON, *id_keys: str) -> FormatError:
    """``error`` naming the conversation it spoils by its own id (the first of ``id_keys``
    the entry has), so that a report of a file of many says which one was skipped."""
    if isinstance(value, dict):
        for key in id_keys:
            if isinstance(value.get(key), str | int) and not isinstance(value.get(key), bool):
                return FormatError(f"conversation {value[key]}: {error.message}", field=error.field)
    return error


def checked(read: Callable[[], T], path: str) -> T:
    """``read()``, with a value UMF's own types refuse (which the readers' checks let
    through) reported as a :class:`FormatError` at ``path``, as any bad input is."""
    try:
        return read()
    except UMFValidationError as error:
        raise FormatError(error.message, field=error.under(path) or "payload") from None
