"""A ChatGPT message's ``content`` object and UMF blocks, both ways.

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
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from providers.formats._archive import put_back
from providers.formats._common import require_mapping, require_str, unknown_fields
from providers.umf import (
    AudioBlock,
    Block,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
)

from ._shared import FORMAT_ID, fields_of, get_hint, hints

# Content types whose string fields are the text, in the order they are read.
TEXT_FIELDS = {
    "code": ("text",),
    "execution_output": ("text",),
    "tether_browsing_display": ("result",),
    "tether_quote": ("text",),
    "system_error": ("text",),
    "sonic_webpage": ("text",),
    "user_editable_context": ("user_profile", "user_instructions"),
    "model_editable_context": ("model_set_context",),
    "reasoning_recap": ("content",),
}
UNMAPPED_PARTS = "unmapped_parts"
Assets = Callable[[str], tuple[str, bytes] | None]


def file_id_of(pointer: str) -> str:
    """``file-AbC`` of ``file-service://file-AbC`` (or ``sediment://file_00...``)."""
    return pointer.split("://", 1)[-1]


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
        blocks = [make(text=content[name], extra=hints({}, key=name)) for name in names]
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
        return ImageBlock(source=_source(pointer, assets), extra=hints({}, part=part))
    if kind == "audio_asset_pointer" and isinstance(pointer, str):
        return AudioBlock(source=_source(pointer, assets), extra=hints({}, part=part))
    if kind == "audio_transcription" and isinstance(part.get("text"), str):
        return TextBlock(
            text=part["text"], extra=hints({}, part=unknown_fields(part, ("text",), path=path))
        )
    return None


def _source(pointer: str, assets: Assets | None) -> MediaSource:
    file_id = file_id_of(pointer)
    found = assets(file_id) if assets is not None else None
    if found is None:
        return MediaSource(type="file", file_id=file_id)
    media_type, data = found
    return MediaSource(type="base64", media_type=media_type, data=base64.b64encode(data).decode())


def _thoughts(thoughts: list[Any], path: str) -> list[Block]:
    blocks: list[Block] = []
    for index, thought in enumerate(thoughts):
        if isinstance(thought, dict) and isinstance(thought.get("content"), str):
            rest = unknown_fields(thought, ("content",), path=f"{path}[{index}]")
            blocks.append(ThinkingBlock(text=thought["content"], extra=hints(rest)))
        else:
            # Kept whole, a null too (hints() would leave a None hint out).
            blocks.append(ThinkingBlock(text="", extra={FORMAT_ID: {"$thought": thought}}))
    return blocks


def require_content(raw: Any, path: str) -> dict[str, Any]:
    """The content object, with a string ``content_type``."""
    content = require_mapping(raw, path)
    require_str(content.get("content_type"), f"{path}.content_type")
    return content


# --------------------------------------------------------------------------- render


def render_content(blocks: list[Block], extra: dict[str, Any]) -> dict[str, Any]:
    """The content object of blocks read from this format (``extra`` is the message's
    own namespace: its ``$content_type``, ``$content`` and unmapped parts)."""
    kind = extra["$content_type"]
    out: dict[str, Any] = {"content_type": kind, **(extra.get("$content") or {})}
    if kind in ("text", "multimodal_text"):
        parts = [_render_part(block) for block in blocks]
        out["parts"] = put_back(parts, extra.get(UNMAPPED_PARTS))
    elif kind == "thoughts":
        out["thoughts"] = [_render_thought(block) for block in blocks]
    else:
        for block in blocks:
            out[get_hint(block, "key")] = getattr(block, "text", "")
    return out


def _render_part(block: Block) -> Any:
    part = get_hint(block, "part")
    if isinstance(block, ImageBlock | AudioBlock):
        return part
    if isinstance(block, TextBlock) and part is not None:
        return {**part, "text": block.text}
    return block.text if isinstance(block, TextBlock) else ""


def _render_thought(block: Block) -> Any:
    own = block.extra.get(FORMAT_ID, {})
    if "$thought" in own:
        return own["$thought"]
    return {**fields_of(block), "content": getattr(block, "text", "")}
