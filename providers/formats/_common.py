"""Helpers every format module shares: unknown-field bookkeeping, layout hints, data URIs,
tool-argument strings, and deterministic tool-call id rewriting."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import orjson

from providers.formats.base import Drift, FormatError
from providers.umf import JSON, Extra, Message, ThinkingBlock, Tool, ToolChoice


def unknown_fields(
    source: Mapping[str, Any], known: Collection[str], *, path: str
) -> dict[str, Any]:
    """The entries of ``source`` whose keys are not in ``known``, verbatim; a
    :class:`FormatError` for one whose name starts with ``$`` (see :func:`reserved_field`).
    ``path`` is where ``source`` is in the payload."""
    # ``known`` is a handful of names: looking them up in the tuple as given is cheaper
    # than building a set on every call (this runs for every message and block).
    rest = {key: value for key, value in source.items() if key not in known}
    refuse_reserved_names(rest, path)
    return rest


def split(
    source: Mapping[str, Any],
    mapped: Collection[str],
    handled: Collection[str] = (),
    *,
    path: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(mapped fields that hold a value, every other field verbatim)``.

    A mapped field given as ``null`` stays with the others: UMF cannot say "present but
    null", so the null travels verbatim in ``extra`` and comes back as it was. ``handled``
    fields are left out of both (the caller reads them itself). One of the others whose
    name starts with ``$`` is a :class:`FormatError` (see :func:`reserved_field`); ``path``
    is where ``source`` is in the payload.
    """
    # One pass, looking names up in the small tuples as given: this runs for every message.
    fields: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for key, value in source.items():
        if key in mapped and value is not None:
            fields[key] = value
        elif key not in handled:
            if key.startswith("$"):
                raise reserved_field(path, key)
            rest[key] = value
    return fields, rest


def refuse_reserved_names(names: Iterable[str], path: str) -> None:
    """A :class:`FormatError` (:func:`reserved_field`) for the first of ``names``, fields of
    the object at ``path`` bound for ``extra``, that starts with ``$``."""
    for name in names:
        if name.startswith("$"):
            raise reserved_field(path, name)


def refuse_kept_name(source: Mapping[str, Any], name: str, path: str) -> None:
    """A :class:`FormatError` when ``source``, the object at ``path``, has a field ``name``
    that the format itself uses in the value's ``extra`` (to keep what UMF has no place
    for, such as parts it cannot read): the field and the format's own entry would take
    each other's place."""
    if name in source:
        field = f"{path}.{name}" if path else name
        raise FormatError(f"{name!r} is a name this format keeps for itself", field=field)


def has_reserved_name(names: Iterable[str]) -> bool:
    """Whether one of ``names`` starts with ``$``. For JSON objects inside a text (a tool
    call in a message's text), which are then read as plain text: reading a text never
    fails, and the text keeps them exactly."""
    return any(name.startswith("$") for name in names)


def reserved_field(path: str, key: str) -> FormatError:
    """The error for a provider field named ``key`` (inside the object at ``path``) that
    starts with ``$``.

    Inside ``extra``, ``$`` names are a format's own layout hints, which renderers leave
    out: such a field kept there verbatim would silently vanish on render, so it is refused
    instead. Values carried whole (tool parameters' ``$ref``, arguments, results) are not
    field names of the format and are never checked.
    """
    field = f"{path}.{key}" if path else key
    return FormatError("field names starting with '$' are reserved", field=field)


def extra_of(format_id: str, fields: Mapping[str, Any]) -> Extra:
    """``fields`` namespaced under ``format_id``, or ``{}`` when there are none."""
    return {format_id: dict(fields)} if fields else {}


def own_extra(extra: Extra, format_id: str) -> dict[str, Any]:
    """The provider fields (not ``$`` hints) kept under ``format_id``, as a new dict."""
    fields = extra.get(format_id)
    if not fields:
        return {}
    return {k: v for k, v in fields.items() if not k.startswith("$")}


def foreign_fields(extra: Extra, format_id: str) -> list[tuple[str, dict[str, Any]]]:
    """``(namespace, fields)`` for every other format's provider fields on a value, by
    namespace; fields that hold nothing (null, empty) are left out, and so are namespaces
    left with nothing. A renderer notes each one: they do not travel to ``format_id``."""
    found = []
    for namespace in sorted(extra):
        if namespace == format_id:
            continue
        fields = {
            k: v
            for k, v in extra[namespace].items()
            if not k.startswith("$") and v not in (None, [], {})
        }
        if fields:
            found.append((namespace, fields))
    return found


def report_foreign_fields(
    extra: Extra,
    path: str,
    drift: Drift,
    format_id: str,
    label: str,
    *,
    tail: str = "",
    with_empty: bool = False,
) -> None:
    """One ``field-unknown`` (info) warning for each other format's fields on a value
    (``path`` is the value's UMF path): they do not travel into ``format_id``'s output.
    Fields that hold nothing (null, empty) are not worth one (:func:`foreign_fields`),
    unless ``with_empty`` (formats that report every field as it was kept). ``tail`` ends
    the message (" and are not sent")."""
    if with_empty:
        found = [(ns, own_extra(extra, ns)) for ns in sorted(extra) if ns != format_id]
    else:
        found = foreign_fields(extra, format_id)
    for namespace, fields in found:
        if fields:
            drift.add(
                "field-unknown",
                f"{namespace} fields have no {label} equivalent{tail}",
                field=f"{path}.extra.{namespace}" if path else f"extra.{namespace}",
                original=fields,
                severity="info",
            )


def hint(extra: Extra, format_id: str, key: str, default: Any = None) -> Any:
    """A layout hint (``$key``) that ``format_id`` left on a value."""
    fields = extra.get(format_id)
    return default if fields is None else fields.get("$" + key, default)


def with_hints(fields: Mapping[str, Any], **hints: Any) -> dict[str, Any]:
    """``fields`` plus ``$``-prefixed hints, skipping hints that are None."""
    merged = dict(fields)
    for key, value in hints.items():
        if value is not None:
            merged["$" + key] = value
    return merged


def hinted_extra(format_id: str, fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding ``format_id``'s verbatim ``fields`` and its ``$`` layout hints
    (hints given as None are left out), or ``{}`` when there is neither."""
    merged = with_hints(fields, **hints)  # a new dict already: no second copy
    return {format_id: merged} if merged else {}


def require_mapping(value: JSON, field: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else a :class:`FormatError` for ``field``."""
    if not isinstance(value, dict):
        raise FormatError(f"expected an object, got {_json_type(value)}", field=field)
    return value


def require_list(value: JSON, field: str) -> list[Any]:
    """``value`` if it is a JSON array, else a :class:`FormatError` for ``field``."""
    if not isinstance(value, list):
        raise FormatError(f"expected an array, got {_json_type(value)}", field=field)
    return value


def require_str(value: JSON, field: str) -> str:
    """``value`` if it is a string, else a :class:`FormatError` for ``field``."""
    if not isinstance(value, str):
        raise FormatError(f"expected a string, got {_json_type(value)}", field=field)
    return value


def _json_type(value: JSON) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


_DATA_URI = re.compile(
    r"^data:(?P<media>[\w.+-]+/[\w.+-]+)?(?P<params>(;[^;,]*)*?);base64,(?P<data>.*)$", re.S
)


def parse_data_uri(uri: str) -> tuple[str, str] | None:
    """``(media_type, base64 data)`` of a base64 ``data:`` URI, or None for anything else."""
    match = _DATA_URI.match(uri)
    if match is None:
        return None
    return match.group("media") or "application/octet-stream", match.group("data")


def data_uri(media_type: str | None, data: str) -> str:
    """A base64 ``data:`` URI."""
    return f"data:{media_type or 'application/octet-stream'};base64,{data}"


def is_base64(data: str) -> bool:
    """Whether ``data`` decodes as strict base64."""
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def parse_arguments(raw: str) -> tuple[JSON, bool]:
    """Decode a tool-call argument string: ``(value, ok)``; ``({}, False)`` if invalid JSON."""
    try:
        return orjson.loads(raw), True
    except orjson.JSONDecodeError:
        return {}, False


# JSON's own whitespace, then the brace that opens an object.
_OBJECT_START = re.compile(r"[ \t\n\r]*\{")


def parse_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, or None (not JSON, or JSON that is not an object)."""
    # Plain text (most tool results) cannot hold an object: it skips the decoder and the
    # exception that the decoder would raise.
    if _OBJECT_START.match(text) is None:
        return None
    decoded, ok = parse_arguments(text)
    return decoded if ok and isinstance(decoded, dict) else None


def dump_arguments(value: JSON) -> str:
    """The compact JSON string of tool arguments (what providers send)."""
    return orjson.dumps(value).decode()


def arguments_string(input_value: JSON, raw: str | None) -> str:
    """The argument string to send: the original when it still says the same thing."""
    if raw is not None:
        decoded, ok = parse_arguments(raw)
        if not ok or decoded == input_value:
            return raw
    return dump_arguments(input_value)


def signature_portable(block: ThinkingBlock, target: str) -> bool:
    """Whether the block's opaque signature/data may be sent to ``target``: only back to
    the provider that produced it (blocks of unknown origin never travel)."""
    return block.provider is not None and block.provider == target


class ToolIdMap:
    """Rewrites tool-call ids that the target rejects, the same way every time.

    ``valid`` says whether the target accepts an id; ``make`` builds a valid id from a hash.
    The same original always gives the same new id, so calls and their results stay paired.
    """

    def __init__(
        self,
        drift: Drift,
        valid: Callable[[str], bool],
        make: Callable[[str], str],
    ) -> None:
        self._drift = drift
        self._valid = valid
        self._make = make
        self._map: dict[str, str] = {}
        self._used: set[str] = set()

    def __call__(self, original: str, field: str) -> str:
        if original in self._map:
            return self._map[original]
        new = original
        if not self._valid(original):
            digest = hashlib.sha256(original.encode()).hexdigest()
            new = self._make(digest)
            salt = 0
            while new in self._used:
                salt += 1
                new = self._make(hashlib.sha256(f"{original}#{salt}".encode()).hexdigest())
            self._drift.add(
                "id-rewritten",
                "tool call id rewritten to fit the target's id rules",
                field=field,
                original=original,
                transformed=new,
                severity="info",
            )
        self._map[original] = new
        self._used.add(new)
        return new


def wire_finish_reason(
    message: Message, wire: Mapping[str, str], *, keep_unknown: bool = False
) -> str | None:
    """The finish reason to write for ``message``: the provider's own value as it was read
    (an empty string too), else the wire name of the normalised one (``wire``: UMF name ->
    wire name; one it lacks is left out, or written as it is with ``keep_unknown``)."""
    if message.provider_finish_reason is not None:
        return message.provider_finish_reason
    if message.finish_reason is None:
        return None
    return wire.get(message.finish_reason, message.finish_reason if keep_unknown else None)


MESSAGE_METADATA = ("id", "timestamp", "model", "finish_reason", "usage", "metadata")


def report_message_metadata(
    thread: Iterable[tuple[int, Message]],
    drift: Drift,
    message: str,
    *,
    held: Collection[str] = (),
) -> None:
    """One note (info) for the per-message facts a payload has no place for: ids,
    timestamps, models, finish reasons, usage, metadata (less the ``held`` ones it
    carries), which of them were left out and on which messages (UMF indexes)."""
    dropped: dict[str, list[int]] = {}
    for index, item in thread:
        for name in MESSAGE_METADATA:
            if name not in held and getattr(item, name):
                dropped.setdefault(name, []).append(index)
    if dropped:
        drift.add(
            "content-dropped",
            message,
            field="messages",
            original=sorted(dropped),
            details={"messages": dropped},
            severity="info",
        )


def report_message_name(message: Message, path: str, drift: Drift, what: str) -> None:
    """An info note for the ``name`` of a message other than a tool's (a tool's is the
    tool's), which ``what`` (e.g. "a ShareGPT turn") has no place for."""
    if message.name is not None and message.role != "tool":
        drift.add(
            "content-dropped",
            f"{what} has no name",
            field=f"{path}.name",
            original=message.name,
            severity="info",
        )


def offered_choice(choice: ToolChoice, tools: list[Tool], drift: Drift) -> ToolChoice:
    """``choice``, unless it forces a tool that is not offered (or names none): then any
    tool (``required``), said as ``parameter-normalized``; a provider refuses the first."""
    if choice.type != "tool" or choice.name in {tool.name for tool in tools}:
        return choice
    drift.add(
        "parameter-normalized",
        "the forced tool is not among the tools; any tool may be called",
        field="tool_choice.name",
        original=choice.name,
        transformed="any",
    )
    return ToolChoice(type="required", extra=choice.extra)
