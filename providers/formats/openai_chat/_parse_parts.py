"""Content parts -> UMF blocks: ``text``, ``image_url``, ``input_audio``, ``file``, ``refusal``.

Where the provider's fields go: a part's own unknown fields stay on the block verbatim; the
unknown fields of its inner object (``image_url``, ``input_audio``, ``file``) under the
``$inner`` hint. ``$uri`` keeps a data URI (or bare base64 ``file_data``) whose exact
spelling the block's source would not give back, ``$format`` an audio format that the
media type would not give back.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import file_data_source, image_part_reader
from providers.formats._chat_completions.content import PartParser, typed_part_reader
from providers.formats._kit.fields import require_mapping, require_str, split, unknown_fields
from providers.formats._kit.paths import at
from providers.formats.base import FormatError
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
)

from ._constants import NAMESPACE, PART_TYPES, wire_audio_format


def _parse_text(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("text"), path, "text")
    if len(part) == 2:  # type and text: nothing else to keep
        return TextBlock(text=text)
    return TextBlock(
        text=text, extra=NAMESPACE.extra(unknown_fields(part, ("type", "text"), path=path))
    )


def _parse_refusal(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("refusal"), at(path, "refusal"))
    return RefusalBlock(
        text=text, extra=NAMESPACE.extra(unknown_fields(part, ("type", "refusal"), path=path))
    )


def _parse_audio(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "input_audio")
    inner = require_mapping(part.get("input_audio"), inner_path)
    data = require_str(inner.get("data"), at(inner_path, "data"))
    audio_format = require_str(inner.get("format"), at(inner_path, "format"))
    media_type = f"audio/{audio_format}"
    format_hint = None if wire_audio_format(media_type) == audio_format else audio_format
    rest = unknown_fields(inner, ("data", "format"), path=inner_path)
    return AudioBlock(
        source=MediaSource(type="base64", media_type=media_type, data=data),
        extra=NAMESPACE.extra(
            unknown_fields(part, ("type", "input_audio"), path=path),
            inner=rest or None,
            format=format_hint,
        ),
    )


def _parse_file(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "file")
    inner = require_mapping(part.get("file"), inner_path)
    fields, rest = split(inner, ("file_data", "file_id", "filename"), path=inner_path)
    for key, value in fields.items():
        require_str(value, at(inner_path, key))
    uri = None
    if "file_data" in fields:
        source, uri = file_data_source(fields["file_data"], fields.get("filename"))
        source.file_id = fields.get("file_id")
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields["file_id"])
    else:
        raise FormatError("a file part needs file_data or file_id", field=inner_path)
    outer = unknown_fields(part, ("type", "file"), path=path)
    return DocumentBlock(
        source=source,
        filename=fields.get("filename"),
        extra=NAMESPACE.extra(outer, inner=rest or None, uri=uri),
    )


_PARSERS: dict[str, PartParser] = {
    "text": _parse_text,
    "image_url": image_part_reader(NAMESPACE),
    "input_audio": _parse_audio,
    "file": _parse_file,
    "refusal": _parse_refusal,
}

# One content part as a UMF block; FormatError for anything else.
parse_part = typed_part_reader(_PARSERS, PART_TYPES, require_mapping)
