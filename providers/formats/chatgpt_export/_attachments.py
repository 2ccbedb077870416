"""Files a ChatGPT message lists only in ``metadata.attachments`` (uploaded PDFs and
spreadsheets, since 2025): a document block each (an image block for an image), with the
bytes when the export zip holds them, else naming the file by its id and name.

Attachments that the content already shows (an ``image_asset_pointer`` part of the same
file) are not repeated. The blocks carry an ``$attachment`` hint: the attachment itself
stays in the message's metadata, so the export is written back exactly as it came.
"""

from __future__ import annotations

import base64
from typing import Any

from providers.umf import Block, DocumentBlock, ImageBlock, MediaSource

from ._content import Assets, file_id_of
from ._shared import hints


def attachment_blocks(metadata: Any, content: dict[str, Any], assets: Assets | None) -> list[Block]:
    """The blocks of the attachments that ``metadata`` lists and ``content`` does not show."""
    listed = metadata.get("attachments") if isinstance(metadata, dict) else None
    if not isinstance(listed, list):
        return []
    shown = _shown_files(content)
    blocks: list[Block] = []
    for index, attachment in enumerate(listed):
        file_id = attachment.get("id") if isinstance(attachment, dict) else None
        if isinstance(file_id, str) and file_id_of(file_id) not in shown:
            blocks.append(_block(attachment, file_id_of(file_id), index, assets))
    return blocks


def _shown_files(content: dict[str, Any]) -> set[str]:
    parts = content.get("parts")
    return {
        file_id_of(part["asset_pointer"])
        for part in (parts if isinstance(parts, list) else [])
        if isinstance(part, dict) and isinstance(part.get("asset_pointer"), str)
    }


def _block(attachment: dict[str, Any], file_id: str, index: int, assets: Assets | None) -> Block:
    name = attachment.get("name") if isinstance(attachment.get("name"), str) else None
    declared = attachment.get("mime_type")
    found = assets(file_id) if assets is not None else None
    if found is None:
        source = MediaSource(
            type="file", file_id=file_id, media_type=declared if isinstance(declared, str) else None
        )
    else:
        media_type = declared if isinstance(declared, str) and declared else found[0]
        data = base64.b64encode(found[1]).decode()
        source = MediaSource(type="base64", media_type=media_type, data=data)
    extra = hints({}, attachment=index)
    if (source.media_type or "").startswith("image/"):
        return ImageBlock(source=source, extra=extra)
    return DocumentBlock(source=source, filename=name, extra=extra)
