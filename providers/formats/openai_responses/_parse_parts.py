"""Content parts -> UMF blocks: ``input_text``, ``output_text``, ``refusal``, ``input_image``
and ``input_file`` (in messages and in function-call outputs).

Where the provider's fields go: a part's unknown fields stay on the block verbatim.
``$type`` keeps a text part type the role would not give (``input_text`` in an assistant
message), ``$annotations: absent`` an ``output_text`` sent without its annotations (non-empty
annotations are the block's citations), ``$uri`` a data URI (or bare base64 ``file_data``)
whose exact spelling the block's source would not give back. Of an ``input_file`` with
several sources, the first of ``file_data``, ``file_url``, ``file_id`` is the block's
source and the others stay verbatim.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.blocks import file_data_source, source_from_url
from providers.formats._chat_completions.content import PartParser, typed_part_reader
from providers.formats._kit.fields import (
    refuse_kept_name,
    refuse_reserved_names,
    require_mapping,
    require_str,
    split,
)
from providers.formats._kit.paths import at
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
)

from ._constants import NS, PART_TYPES, UNMAPPED_ITEMS, UNMAPPED_TOOLS


def plain(raw: JSON, path: str) -> dict[str, Any]:
    """``raw`` as an object whose keys cannot be mistaken for this format's ``$`` hints or
    its own ``unmapped_*`` fields (which renderers put back as items or tools, never as
    fields: a provider field of that name would vanish)."""
    # The type is checked here first (this runs for every item and part): the kit's
    # message only for a value that is not an object.
    found = raw if isinstance(raw, dict) else require_mapping(raw, path or "payload")
    refuse_reserved_names(found, path)
    for name in (UNMAPPED_ITEMS, UNMAPPED_TOOLS):
        refuse_kept_name(found, name, path)
    return found


def text_type(role: str) -> str:
    """The text part type a role writes by default."""
    return "output_text" if role == "assistant" else "input_text"


def parse_part(raw: JSON, path: str, role: str) -> Block:
    """One content part as a UMF block; :class:`FormatError` for anything else."""
    block = _read_part(raw, path)
    if isinstance(block, TextBlock) and isinstance(raw, dict) and raw["type"] != text_type(role):
        NS.add_hints(block.extra, type=raw["type"])
    return block


def _parse_text(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("text"), at(path, "text"))
    rest = {k: v for k, v in part.items() if k not in ("type", "text")}
    citations = None
    hints: dict[str, Any] = {}
    if part["type"] == "output_text":
        annotations = rest.get("annotations")
        if "annotations" not in rest:
            hints["annotations"] = "absent"
        elif annotations == []:
            del rest["annotations"]
        elif isinstance(annotations, list) and all(isinstance(a, dict) for a in annotations):
            citations = rest.pop("annotations")
    return TextBlock(text=text, citations=citations, extra=NS.extra(rest, **hints))


def _parse_refusal(part: dict[str, Any], path: str) -> Block:
    text = require_str(part.get("refusal"), at(path, "refusal"))
    rest = {k: v for k, v in part.items() if k not in ("type", "refusal")}
    return RefusalBlock(text=text, extra=NS.extra(rest))


def _parse_image(part: dict[str, Any], path: str) -> Block:
    fields, rest = split(part, ("image_url", "file_id", "detail"), handled=("type",), path=path)
    for key, value in fields.items():
        require_str(value, at(path, key))
    uri = None
    if "image_url" in fields:
        source, uri = source_from_url(fields["image_url"])
        source.file_id = fields.get("file_id")
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields["file_id"])
    else:
        raise FormatError("an input_image needs image_url or file_id", field=path)
    return ImageBlock(source=source, detail=fields.get("detail"), extra=NS.extra(rest, uri=uri))


def _parse_file(part: dict[str, Any], path: str) -> Block:
    keys = ("file_data", "file_url", "file_id", "filename")
    fields, rest = split(part, keys, handled=("type",), path=path)
    for key, value in fields.items():
        require_str(value, at(path, key))
    uri = None
    if "file_data" in fields:
        source, uri = file_data_source(fields.pop("file_data"), fields.get("filename"))
    elif "file_url" in fields:
        source = MediaSource(type="url", url=fields.pop("file_url"))
    elif "file_id" in fields:
        source = MediaSource(type="file", file_id=fields.pop("file_id"))
    else:
        raise FormatError("an input_file needs file_data, file_url or file_id", field=path)
    filename = fields.pop("filename", None)
    rest.update(fields)  # the sources after the first travel verbatim
    return DocumentBlock(source=source, filename=filename, extra=NS.extra(rest, uri=uri))


_PARSERS: dict[str, PartParser] = {
    "input_text": _parse_text,
    "output_text": _parse_text,
    "refusal": _parse_refusal,
    "input_image": _parse_image,
    "input_file": _parse_file,
}

_read_part = typed_part_reader(_PARSERS, PART_TYPES, plain)
