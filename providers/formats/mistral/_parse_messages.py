"""Reading Mistral chat messages into UMF messages.

* ``content`` becomes blocks; how it was spelled (string, chunks, null, absent) is the
  ``$content`` hint, written only when the renderer's default would spell it otherwise.
  Chunks UMF has no block for (``reference``, ``resource``...) are kept verbatim with their
  positions in the message's ``unmapped_chunks`` field.
* ``tool_calls`` become tool-use blocks: ``raw_arguments`` is the exact argument string,
  or the arguments were an object (``$arguments: object``).
* ``tool`` messages become role ``tool`` with one tool-result block; ``name`` is the
  message's and the result's name. ``prefix`` and other fields stay verbatim.
* Chunks: a chunk's unknown fields stay on the block verbatim, those of an ``image_url``
  object under ``$inner``. Hints: ``$uri`` a data URI the block's source would not spell
  the same way; ``$image_url: object`` an image URL sent as ``{"url"}`` without a detail;
  ``$chunk: file`` a ``file`` chunk (a document block with a file id); ``$thinking`` the
  inner chunks of a ``thinking`` chunk when they are more than one text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from providers.formats._chat_completions.blocks import ParseState, read_image_url, source_from_url
from providers.formats._chat_completions.calls import call_reader
from providers.formats._chat_completions.content import content_hint, read_content
from providers.formats._kit.fields import require_list, require_mapping, require_str, split
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import parse_data_uri
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
)

from ._constants import (
    CHUNK_TYPES,
    NS,
    ROLES,
    SYSTEM_CHUNK_TYPES,
    UNMAPPED_CHUNK_TYPES,
    UNMAPPED_CHUNKS,
)

_read_call = call_reader(NS, object_arguments=True)


@dataclass
class _Content:
    blocks: list[Block]
    kind: str
    hint: str | None
    unmapped: list[dict[str, Any]]


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One message; :class:`FormatError` naming the field when it is not a valid one."""
    source = require_mapping(raw, path)
    if UNMAPPED_CHUNKS in source:
        raise FormatError(
            f"{UNMAPPED_CHUNKS!r} is a reserved name", field=at(path, UNMAPPED_CHUNKS)
        )
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    if role == "tool":
        return _parse_tool(source, path, state)
    mapped = ("tool_calls",) if role == "assistant" else ()
    fields, rest = split(source, mapped, handled=("role", "content"), path=path)
    if fields.get("tool_calls") == []:
        rest["tool_calls"] = fields.pop("tool_calls")  # UMF has no "an empty list was sent"
    content = _read(source, path, role)
    calls_path = at(path, "tool_calls")
    raw_calls = require_list(fields["tool_calls"], calls_path) if fields else []
    calls = [
        _read_call(call, item(calls_path, i), state.call_names) for i, call in enumerate(raw_calls)
    ]
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=[*content.blocks, *calls],
        extra=NS.extra(_with_unmapped(rest, content), content=content.hint),
    )


def _read(source: dict[str, Any], path: str, role: str) -> _Content:
    """The content's blocks, with unmapped chunks set aside, and the spelling hint."""
    raw = source.get("content")
    if not isinstance(raw, list):
        blocks, parts, kind = read_content(source, path, partial(parse_chunk, role=role))
        return _Content(blocks, kind, content_hint(parts, role, kind), [])
    content_path = at(path, "content")
    blocks, unmapped = [], []
    for index, chunk in enumerate(raw):
        if is_unmapped(chunk):
            unmapped.append({"at": index, "chunk": chunk})
        else:
            blocks.append(parse_chunk(chunk, item(content_path, index), role))
    return _Content(blocks, "parts", content_hint(raw, role, "parts"), unmapped)


def _with_unmapped(rest: dict[str, Any], content: _Content) -> dict[str, Any]:
    return {**rest, UNMAPPED_CHUNKS: content.unmapped} if content.unmapped else rest


def _parse_tool(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(source, ("tool_call_id", "name"), handled=("role", "content"), path=path)
    call_id = ""
    if "tool_call_id" in fields:
        call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    name = require_str(fields["name"], at(path, "name")) if "name" in fields else None
    content = _read(source, path, "tool")
    value: str | list[Block] = content.blocks
    if content.kind == "string":
        value = source["content"]
    elif content.kind in ("absent", "null"):
        value = ""
    result = ToolResultBlock(
        tool_use_id=call_id, content=value, name=name or state.call_names.get(call_id)
    )
    hints = {
        "content": content.kind if content.kind in ("absent", "null") else None,
        "call_id": "absent" if "tool_call_id" not in source else None,
    }
    return Message(
        role="tool",
        content=[result],
        name=name,
        tool_call_id=call_id or None,
        extra=NS.extra(_with_unmapped(rest, content), **hints),
    )


# --------------------------------------------------------------------------- chunks

# The first bytes of common audio files, as base64, for sources that only say "audio".
_AUDIO_MAGIC = {
    "UklGR": "audio/wav",
    "SUQz": "audio/mpeg",
    "//s": "audio/mpeg",
    "//u": "audio/mpeg",
    "T2dnUw": "audio/ogg",
    "ZkxhQw": "audio/flac",
}

# --------------------------------------------------------------------------- parse


def parse_chunk(raw: JSON, path: str, role: str) -> Block:
    """One chunk of a ``role`` message (not of the unmapped types); :class:`FormatError`
    for anything else."""
    chunk = require_mapping(raw, path)
    kind = chunk.get("type")
    allowed = SYSTEM_CHUNK_TYPES if role == "system" else CHUNK_TYPES
    parser = _PARSERS.get(kind) if isinstance(kind, str) and kind in allowed else None
    if parser is None:
        raise FormatError(
            f"a {role} content chunk has type {', '.join(allowed)}", field=at(path, "type")
        )
    return parser(chunk, path)


def is_unmapped(raw: JSON) -> bool:
    """Whether a chunk is of a type UMF has no block for (kept verbatim instead)."""
    return isinstance(raw, dict) and raw.get("type") in UNMAPPED_CHUNK_TYPES


def _parse_text(chunk: dict[str, Any], path: str) -> Block:
    text = require_str(chunk.get("text"), at(path, "text"))
    _, rest = split(chunk, (), handled=("type", "text"), path=path)
    return TextBlock(text=text, extra=NS.extra(rest))


def _parse_image(chunk: dict[str, Any], path: str) -> Block:
    value, value_path = chunk.get("image_url"), at(path, "image_url")
    detail, form = None, None
    rest: dict[str, Any] = {}
    if isinstance(value, dict):
        source, detail, uri, rest = read_image_url(value, value_path)
        form = "object" if detail is None else None
    else:
        source, uri = source_from_url(require_str(value, value_path))
    _, outer = split(chunk, (), handled=("type", "image_url"), path=path)
    return ImageBlock(
        source=source,
        detail=detail,
        extra=NS.extra(outer, inner=rest or None, uri=uri, image_url=form),
    )


def _parse_document(chunk: dict[str, Any], path: str) -> Block:
    url = require_str(chunk.get("document_url"), at(path, "document_url"))
    fields, rest = split(chunk, ("document_name",), handled=("type", "document_url"), path=path)
    name = None
    if fields:
        name = require_str(fields["document_name"], at(path, "document_name"))
    source, uri = source_from_url(url)
    return DocumentBlock(source=source, filename=name, extra=NS.extra(rest, uri=uri))


def _parse_audio(chunk: dict[str, Any], path: str) -> Block:
    data = require_str(chunk.get("input_audio"), at(path, "input_audio"))
    parsed = parse_data_uri(data)
    if parsed is not None:
        source, uri = MediaSource(type="base64", media_type=parsed[0], data=parsed[1]), data
    else:
        source, uri = MediaSource(type="base64", media_type=_sniff_audio(data), data=data), None
    _, rest = split(chunk, (), handled=("type", "input_audio"), path=path)
    return AudioBlock(source=source, extra=NS.extra(rest, uri=uri))


def _sniff_audio(data: str) -> str | None:
    return next((kind for magic, kind in _AUDIO_MAGIC.items() if data.startswith(magic)), None)


def _parse_file(chunk: dict[str, Any], path: str) -> Block:
    file_id = require_str(chunk.get("file_id"), at(path, "file_id"))
    _, rest = split(chunk, (), handled=("type", "file_id"), path=path)
    source = MediaSource(type="file", file_id=file_id)
    return DocumentBlock(source=source, extra=NS.extra(rest, chunk="file"))


def _parse_thinking(chunk: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "thinking")
    inner = require_list(chunk.get("thinking"), inner_path)
    for index, part in enumerate(inner):
        require_mapping(part, item(inner_path, index))
    text = thinking_text(inner)
    plain = inner == [{"type": "text", "text": text}]
    fields, rest = split(chunk, ("signature",), handled=("type", "thinking"), path=path)
    signature = require_str(fields["signature"], at(path, "signature")) if fields else None
    return ThinkingBlock(
        text=text,
        signature=signature,
        provider=NS.format_id,
        extra=NS.extra(rest, thinking=None if plain else inner),
    )


def thinking_text(inner: list[Any]) -> str:
    """The readable text of a thinking chunk's inner chunks."""
    return "".join(
        part["text"]
        for part in inner
        if isinstance(part, dict)
        and part.get("type") == "text"
        and isinstance(part.get("text"), str)
    )


_PARSERS: dict[str, Callable[[dict[str, Any], str], Block]] = {
    "text": _parse_text,
    "image_url": _parse_image,
    "document_url": _parse_document,
    "input_audio": _parse_audio,
    "file": _parse_file,
    "thinking": _parse_thinking,
}
