"""The one detector behind ``auto``: each format declares the fields its payloads may
carry (:class:`Distinctive`), and a field that only one format declares decides.

A format's own ``detect`` says whether a payload has its shape at all (0 not mine, 1 it
fits, 2 a shape mark no one else has) and hands that to :func:`score_fit`, which raises a fit to
2 when the payload carries a field only this format declares. :func:`detect` then ranks
the formats that fit by that score and by how many such fields each one found, so a Cohere
request with ``documents`` or ``p`` is Cohere even though ``response_format``,
``stop_sequences`` or ``thinking`` would fit OpenAI or Anthropic too. A field two formats
declare decides nothing; a true tie goes to the formats' readings (:func:`break_tie`).

Declarations are vocabularies, not claims: a format lists every request field, message
field, block type and block field it knows, shared or not, so that no other format can
claim one of them as its own by mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from providers.formats.base import FormatDetectionError, FormatError
from providers.umf import JSON, Conversation

if TYPE_CHECKING:
    from providers.formats.base import Format

# When a payload reads the same in several formats (a plain list of role/content text
# messages is valid OpenAI, Anthropic and UMF alike), the first of these wins.
DETECTION_PREFERENCE = ("openai-chat", "anthropic", "umf")


@dataclass(frozen=True)
class Distinctive:
    """The fields a chat format's payloads may carry, by where they sit.

    ``request``: top-level request fields; ``message``: fields of a message; ``block_types``
    and ``block_fields``: the ``type`` tags and fields of content blocks; ``values``: request
    values that mark the format where the field name alone is shared, as
    ``"tool_choice=REQUIRED"`` (that string value) or ``"thinking.token_budget"`` (that
    nested field present). Declare every name the format knows, shared or not.
    """

    request: tuple[str, ...] = ()
    message: tuple[str, ...] = ()
    block_types: tuple[str, ...] = ()
    block_fields: tuple[str, ...] = ()
    values: tuple[str, ...] = ()

    def marks(self) -> frozenset[str]:
        """Every declared name, prefixed with where it sits (``request:p``)."""
        return frozenset(
            [f"request:{name}" for name in self.request]
            + [f"message:{name}" for name in self.message]
            + [f"block:{name}" for name in self.block_types]
            + [f"block-field:{name}" for name in self.block_fields]
            + [f"value:{spec}" for spec in self.values]
        )


def score_fit(format_id: str, payload: JSON, fit: int) -> int:
    """A format's ``detect`` result: ``fit`` (its shape check, 0/1/2), raised to 2 when the
    payload carries a field that only this format declares."""
    if fit == 0 or fit >= 2:
        return fit
    return 2 if own_marks(format_id, payload, _registered()) else fit


def own_marks(format_id: str, payload: JSON, formats: Sequence[Format]) -> frozenset[str]:
    """The marks in ``payload`` that ``format_id`` declares and no other of ``formats``
    does."""
    owners = _owners(tuple((fmt.id, fmt.distinctive) for fmt in formats if fmt.distinctive))
    return frozenset(_owned_by(format_id, owners, payload_marks(payload, _value_specs(owners))))


def detect(payload: JSON, formats: Sequence[Format]) -> Format:
    """The format ``payload`` is in, among ``formats``.

    The formats that fit are ranked by their ``detect`` score, then by how many of the
    payload's fields only they declare among the formats that fit, then by how few of its
    fields that another of them declares they do not know; several still level go to
    :func:`break_tie`. Raises :class:`FormatDetectionError` (naming the candidates) when
    none fits or a tie remains.
    """
    fits = [(fmt.detect(payload), fmt) for fmt in formats]
    fitting = [(level, fmt) for level, fmt in fits if level]
    if not fitting:
        raise FormatDetectionError(
            "could not detect the format of the payload; name it explicitly", candidates=[]
        )
    candidates = [fmt for _, fmt in fitting]
    owners = _owners(tuple((fmt.id, fmt.distinctive) for fmt in candidates if fmt.distinctive))
    marks = payload_marks(payload, _value_specs(owners))
    ranked = [
        ((level, len(_owned_by(fmt.id, owners, marks)), -_unknown(fmt, owners, marks)), fmt)
        for level, fmt in fitting
    ]
    best = max(rank for rank, _ in ranked)
    winners = [fmt for rank, fmt in ranked if rank == best]
    return winners[0] if len(winners) == 1 else break_tie(payload, winners)


def break_tie(payload: JSON, candidates: Sequence[Format]) -> Format:
    """Among formats that fit ``payload`` equally: the one that can read it, or the
    preferred one (:data:`DETECTION_PREFERENCE`) when they all read the same messages;
    :class:`FormatDetectionError` naming them when they read it differently."""
    readings: list[tuple[Format, list[JSON]]] = []
    for fmt in candidates:
        try:
            items = fmt.parse(payload)
        except FormatError:
            continue
        readings.append((fmt, [meaning(item.conversation) for item in items]))
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


def meaning(conversation: Conversation) -> JSON:
    """What a reading says, without the layout hints and fields each format keeps apart."""
    dumped = conversation.model_dump(mode="json", exclude={"extra"})
    for message in dumped["messages"]:
        del message["extra"]
        for block in message["content"]:
            del block["extra"]
    for tool in dumped["tools"]:
        del tool["extra"]
    return dumped


def score_messages(messages: JSON, score_message: Callable[[JSON], int]) -> int:
    """A message list's score: 0 unless ``messages`` is a non-empty array whose every
    message fits (``score_message`` above 0), else the surest message's."""
    if not isinstance(messages, list) or not messages:
        return 0
    return _surest(messages, score_message)


def score_content(content: JSON, score_block: Callable[[JSON], int]) -> int:
    """A message content's score: 1 for text, 0 for anything but text or an array; for an
    array, 0 unless every block fits (``score_block`` above 0), else the surest block's
    (1 for no blocks)."""
    if isinstance(content, str):
        return 1
    if not isinstance(content, list):
        return 0
    return _surest(content, score_block) if content else 1


def typed_block_score(known: Collection[str], own: Collection[str]) -> Callable[[JSON], int]:
    """A ``score_block`` for blocks told apart by their ``type``: 0 unless it is one of
    ``known``, 2 when it is one of ``own`` (types no other format has), else 1."""

    def score(block: JSON) -> int:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind not in known:
            return 0
        return 2 if kind in own else 1

    return score


def _surest(values: list[Any], score: Callable[[JSON], int]) -> int:
    """0 when one of ``values`` does not fit, else the surest one's score."""
    scores = [score(value) for value in values]
    return 0 if min(scores) == 0 else max(scores)


def payload_marks(payload: JSON, value_specs: Iterable[str] = ()) -> frozenset[str]:
    """The marks a chat payload carries: its request fields, its messages' fields and
    their blocks' types and fields, and which of ``value_specs`` hold. A logged exchange
    is read by its request."""
    if isinstance(payload, dict) and isinstance(payload.get("request"), dict):
        payload = payload["request"]
    request = payload if isinstance(payload, dict) else {}
    messages = payload if isinstance(payload, list) else request.get("messages")
    marks = {f"request:{name}" for name in request}
    marks.update(f"value:{spec}" for spec in value_specs if _holds(request, spec))
    for message in messages if isinstance(messages, list) else ():
        if isinstance(message, dict):
            marks.update(f"message:{name}" for name in message)
            marks.update(_block_marks(message.get("content")))
    return frozenset(marks)


def _block_marks(content: JSON) -> set[str]:
    marks: set[str] = set()
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict):
            if isinstance(block.get("type"), str):
                marks.add(f"block:{block['type']}")
            marks.update(f"block-field:{name}" for name in block)
    return marks


def _holds(request: dict[str, Any], spec: str) -> bool:
    path, _, expected = spec.partition("=")
    value: Any = request
    for name in path.split("."):
        if not isinstance(value, dict) or name not in value:
            return False
        value = value[name]
    return not expected or value == expected


def _owned_by(format_id: str, owners: dict[str, frozenset[str]], marks: frozenset[str]) -> set[str]:
    return {mark for mark in marks if owners.get(mark) == frozenset({format_id})}


def _unknown(fmt: Format, owners: dict[str, frozenset[str]], marks: frozenset[str]) -> int:
    """How many of ``marks`` that some format declares ``fmt`` does not (0 when ``fmt``
    declares nothing: its shape check is all it says)."""
    if fmt.distinctive is None:
        return 0
    return sum(1 for mark in marks if mark in owners and fmt.id not in owners[mark])


def _value_specs(owners: dict[str, frozenset[str]]) -> list[str]:
    return [mark[len("value:") :] for mark in owners if mark.startswith("value:")]


@cache
def _owners(declared: tuple[tuple[str, Distinctive], ...]) -> dict[str, frozenset[str]]:
    owners: dict[str, set[str]] = {}
    for format_id, distinctive in declared:
        for mark in distinctive.marks():
            owners.setdefault(mark, set()).add(format_id)
    return {mark: frozenset(ids) for mark, ids in owners.items()}


def _registered() -> list[Format]:
    # The registry imports the formats, which import this module: read it when asked.
    from providers.formats import all_formats

    return all_formats()


def _preference(fmt: Format) -> int:
    if fmt.id in DETECTION_PREFERENCE:
        return DETECTION_PREFERENCE.index(fmt.id)
    return len(DETECTION_PREFERENCE)
