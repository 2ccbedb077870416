"""A ChatGPT message's ``content`` object, and the files its metadata lists, as UMF blocks.

==========================  ==================================================================
``text``                    a text block per string part
``multimodal_text``         text parts, ``image_asset_pointer`` images (base64 from the zip
                            when the file is there, else a ``file`` source), audio pointers,
                            ``audio_transcription`` text; other parts kept with their place
``code``, ``execution_      the text field as a text block (``$key`` names the field)
output``, ``tether_quote``,
``system_error``...
``user_editable_context``   ``user_profile`` and ``user_instructions`` as text blocks
``thoughts``                a thinking block per thought (its summary and the rest in extra)
``reasoning_recap``         a thinking block
anything else               no blocks: the whole content stays in the message's ``content``
==========================  ==================================================================

The content's other fields (``language``, ``summary``...) are the ``$content`` hint of the
message, ``content_type`` the ``$content_type`` hint; a part's fields the ``$part`` hint of
its block.

Files a message lists only in ``metadata.attachments`` (uploaded PDFs and spreadsheets,
since 2025) become a document block each (an image block for an image), with the bytes
when the export zip holds them, else naming the file by its id and name. Attachments the
content already shows (an ``image_asset_pointer`` part of the same file) are not repeated.
The blocks carry an ``$attachment`` hint: the attachment itself stays in the message's
metadata, so the export is written back exactly as it came.
"""

from __future__ import annotations

import base64
from typing import Any

from providers.formats._archive.wiring import Assets
from providers.formats._kit.fields import require_mapping, require_str, unknown_fields
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
)

from ._constants import FORMAT_ID, NS, TEXT_FIELDS, UNMAPPED_PARTS


def file_id_of(pointer: str) -> str:
    """``file-AbC`` of ``file-service://file-AbC`` (or ``sediment://file_00...``)."""
    return pointer.split("://", 1)[-1]


def require_content(raw: Any, path: str) -> dict[str, Any]:
    """The content object, with a string ``content_type``."""
    content = require_mapping(raw, path)
    require_str(content.get("content_type"), f"{path}.content_type")
    return content


def parse_content(
    content: dict[str, Any], path: str, assets: Assets | None
) -> tuple[list[Block], dict[str, Any]]:
    """``(blocks, hints and fields for the message's extra)`` of a known content type;
    an unknown one gives no blocks and comes back whole as the ``content`` field."""
    kind = content.get("content_type")
    if kind in ("text", "multimodal_text") and isinstance(content.get("parts"), list):
        blocks, unmapped = _parts(content["parts"], f"{path}.parts", assets)
        extra: dict[str, Any] = {UNMAPPED_PARTS: unmapped} if unmapped else {}
        rest = unknown_fields(content, ("content_type", "parts"), path=path)
    elif kind == "thoughts" and isinstance(content.get("thoughts"), list):
        blocks, extra = _thoughts(content["thoughts"], f"{path}.thoughts"), {}
        rest = unknown_fields(content, ("content_type", "thoughts"), path=path)
    elif kind in TEXT_FIELDS:
        names = [name for name in TEXT_FIELDS[kind] if isinstance(content.get(name), str)]
        make = ThinkingBlock if kind == "reasoning_recap" else TextBlock
        blocks = [make(text=content[name], extra=NS.extra({}, key=name)) for name in names]
        extra, rest = {}, unknown_fields(content, ("content_type", *names), path=path)
    else:
        return [], {"content": content}
    return blocks, {**extra, "$content_type": kind, "$content": rest or None}


def _parts(parts: list[Any], path: str, assets: Assets | None) -> tuple[list[Block], list[Any]]:
    blocks: list[Block] = []
    unmapped: list[Any] = []
    for index, part in enumerate(parts):
        block = _part(part, f"{path}[{index}]", assets)
        if block is None:
            unmapped.append([index, part])
        else:
            blocks.append(block)
    return blocks, unmapped


def _part(part: Any, path: str, assets: Assets | None) -> Block | None:
    if isinstance(part, str):
        return TextBlock(text=part)
    if not isinstance(part, dict):
        return None
    kind = part.get("content_type")
    pointer = part.get("asset_pointer")
    if kind == "image_asset_pointer" and isinstance(pointer, str):
        return ImageBlock(source=_source(pointer, assets), extra=NS.extra({}, part=part))
    if kind == "audio_asset_pointer" and isinstance(pointer, str):
        return AudioBlock(source=_source(pointer, assets), extra=NS.extra({}, part=part))
    if kind == "audio_transcription" and isinstance(part.get("text"), str):
        fields = unknown_fields(part, ("text",), path=path)
        return TextBlock(text=part["text"], extra=NS.extra({}, part=fields))
    return None


def _source(pointer: str, assets: Assets | None, media_type: str | None = None) -> MediaSource:
    """The zip's bytes of the file (``media_type``, when the export says it, before the
    zip's guess), else the file named by its id."""
    file_id = file_id_of(pointer)
    found = assets(file_id) if assets is not None else None
    if found is None:
        return MediaSource(type="file", file_id=file_id, media_type=media_type)
    data = base64.b64encode(found[1]).decode()
    return MediaSource(type="base64", media_type=media_type or found[0], data=data)


def _thoughts(thoughts: list[Any], path: str) -> list[Block]:
    blocks: list[Block] = []
    for index, thought in enumerate(thoughts):
        if isinstance(thought, dict) and isinstance(thought.get("content"), str):
            rest = unknown_fields(thought, ("content",), path=f"{path}[{index}]")
            blocks.append(ThinkingBlock(text=thought["content"], extra=NS.extra(rest)))
        else:
            # Kept whole, a null too (NS.extra would leave a None hint out).
            blocks.append(ThinkingBlock(text="", extra={FORMAT_ID: {"$thought": thought}}))
    return blocks


def attachment_blocks(metadata: Any, content: dict[str, Any], assets: Assets | None) -> list[Block]:
    """The blocks of the attachments that ``metadata`` lists and ``content`` does not show."""
    listed = metadata.get("attachments") if isinstance(metadata, dict) else None
    if not isinstance(listed, list):
        return []
    parts = content.get("parts")
    shown = {
        file_id_of(part["asset_pointer"])
        for part in (parts if isinstance(parts, list) else [])
        if isinstance(part, dict) and isinstance(part.get("asset_pointer"), str)
    }
    blocks: list[Block] = []
    for index, attachment in enumerate(listed):
        file_id = attachment.get("id") if isinstance(attachment, dict) else None
        if isinstance(file_id, str) and file_id_of(file_id) not in shown:
            blocks.append(_attachment(attachment, file_id, index, assets))
    return blocks


def _attachment(
    attachment: dict[str, Any], file_id: str, index: int, assets: Assets | None
) -> Block:
    name = attachment.get("name") if isinstance(attachment.get("name"), str) else None
    declared = attachment.get("mime_type")
    source = _source(file_id, assets, declared if isinstance(declared, str) else None)
    extra = NS.extra({}, attachment=index)
    if (source.media_type or "").startswith("image/"):
        return ImageBlock(source=source, extra=extra)
    return DocumentBlock(source=source, filename=name, extra=extra)
