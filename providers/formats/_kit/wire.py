"""Values as they travel on the wire: base64 ``data:`` URIs, tool-argument strings, thinking
signatures and finish reasons, and the warnings for a signature or a call that cannot."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from typing import Any

import orjson

from providers.formats.base import Drift
from providers.umf import (
    JSON,
    DocumentBlock,
    MediaSource,
    Message,
    ThinkingBlock,
    Tool,
    ToolUseBlock,
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
# What such a text starts with (never the empty string).
_OBJECT_FIRST = frozenset("{ \t\n\r")


def parse_object(text: str) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, or None (not JSON, or JSON that is not an object)."""
    # Plain text (most tool results) cannot hold an object: it skips the decoder and the
    # exception that the decoder would raise. Its first character is checked before the
    # regex, which costs 1.5k instructions a call (gemini bench: -0.5%).
    if text[:1] not in _OBJECT_FIRST or _OBJECT_START.match(text) is None:
        return None
    decoded, ok = parse_arguments(text)
    return decoded if ok and isinstance(decoded, dict) else None


def dump_arguments(value: JSON) -> str:
    """The compact JSON string of tool arguments (what providers send)."""
    return orjson.dumps(value).decode()


def json_digest(value: JSON) -> str:
    """A short digest of a JSON value, the same for the same value whatever its key order:
    to tell whether what was read is still what is written."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


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


def report_signature_stripped(block: ThinkingBlock, path: str, drift: Drift, why: str) -> None:
    """The ``signature-stripped`` warning for a thinking block sent without its signature
    or encrypted data, ``why`` in the target's words; it names the block's provider, never
    the signature."""
    drift.add("signature-stripped", why, field=path, original=block.provider)


def report_signature_not_written(
    block: ThinkingBlock, path: str, drift: Drift, why: str, *, written_as: str
) -> None:
    """The ``signature-stripped`` warning for a signed thinking block written as plain
    reasoning text (``written_as``: ChatML's ``<think>``, Ollama's ``thinking``), ``why`` in
    the target's words; it says the block was signed, never the signature."""
    original = {"provider": block.provider, "signed": True}
    drift.add("signature-stripped", why, field=path, original=original, transformed=written_as)


def report_call_not_made(block: ToolUseBlock, path: str, drift: Drift, why: str) -> None:
    """The ``content-dropped`` warning for a tool call in a message whose role cannot make
    one (``why`` in the target's words); it shows the call's id, name and input."""
    original = {"id": block.id, "name": block.name, "input": block.input}
    drift.add("content-dropped", why, field=path, original=original)


def empty_object_schema() -> dict[str, Any]:
    """The JSON Schema of a tool that takes no arguments, for targets that require one: a
    new object each time, since whoever gets a payload may change it."""
    return {"type": "object", "properties": {}}


def tool_definition(tool: Tool) -> dict[str, Any]:
    """A tool as most targets define a function: its ``name``, then its ``description`` and
    ``parameters`` (JSON Schema) when it has them."""
    out: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    if tool.parameters is not None:
        out["parameters"] = tool.parameters
    return out


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


def arguments_object(
    block: ToolUseBlock, path: str, drift: Drift, *, what: str = "tool"
) -> dict[str, Any]:
    """The call's arguments as the JSON object a target requires: ``input``, or the raw
    argument string decoded; ``{}`` and a ``content-dropped`` warning when the source only
    had arguments that are not an object. ``what`` names the call ("function")."""
    if isinstance(block.input, dict) and (block.input or block.raw_arguments is None):
        return block.input
    if block.raw_arguments is not None:
        decoded, ok = parse_arguments(block.raw_arguments)
        if ok and isinstance(decoded, dict):
            return decoded
        original, where = block.raw_arguments, "raw_arguments"
    else:
        original, where = block.input, "input"
    drift.add(
        "content-dropped",
        f"{what} call arguments are not a JSON object; sent as {{}}",
        field=f"{path}.{where}",
        original=original,
        transformed={},
    )
    return {}


def inline_media(source: MediaSource) -> tuple[str, str] | None:
    """``(media type, base64 data)`` of base64 bytes, whether given as such or a data URI."""
    if source.type == "base64" and source.data is not None:
        return source.media_type or "application/octet-stream", source.data
    if source.type == "url" and source.url and source.url.startswith("data:"):
        return parse_data_uri(source.url)
    return None


def decoded_text(data: str) -> str | None:
    """The UTF-8 text that base64 ``data`` holds, or None."""
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def base64_text(source: MediaSource) -> str | None:
    """The text of base64 ``text/*`` bytes, or None."""
    if source.type != "base64" or source.data is None:
        return None
    return decoded_text(source.data) if (source.media_type or "").startswith("text/") else None


def document_text(block: DocumentBlock) -> str | None:
    """The text of a plain-text document: given as text, or as base64 ``text/*`` bytes
    (none when there are no bytes)."""
    source = block.source
    if source.type == "text":
        return source.data
    return base64_text(source) if source.data else None


def media_summary(source: MediaSource) -> dict[str, Any]:
    """What a warning says about media: its source type, media type, size in bytes, URL
    and file id, never the bytes themselves, so neither base64 data nor a ``data:`` URL
    (which is the bytes again); the warning's field says where they are."""
    inline = inline_media(source)
    summary = {
        "source": source.type,
        "media_type": source.media_type or (inline[0] if inline else None),
        "size": base64_size(inline[1]) if inline else None,
        "url": None if source.url and source.url[:5].lower() == "data:" else source.url,
        "file_id": source.file_id,
    }
    return {key: value for key, value in summary.items() if value is not None}


def base64_size(data: str) -> int:
    """How many bytes base64 ``data`` holds (counted, not decoded)."""
    return len(data.rstrip("=")) * 3 // 4
