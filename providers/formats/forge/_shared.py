"""Names, paths, extra bookkeeping and the render context the forge modules share."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from providers.formats._common import (
    hint,
    hinted_extra,
    own_extra,
    report_foreign_fields,
    report_message_metadata,
)
from providers.formats.base import Drift
from providers.umf import Block, Conversation, Extra, Message, main_path

FORMAT_ID = "forge"
ROLES = ("system", "user", "assistant", "tool")


def at(base: str, key: str) -> str:
    """The path of ``key`` inside the value at ``base``."""
    return f"{base}.{key}" if base else key


def item(base: str, index: int) -> str:
    """The path of element ``index`` of the list at ``base``."""
    return f"{base}[{index}]"


def make_extra(fields: Mapping[str, Any], **hints: Any) -> Extra:
    """``extra`` holding this format's unknown ``fields`` and its ``$`` layout hints."""
    return hinted_extra(FORMAT_ID, fields, **hints)


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def put_fields(out: dict[str, Any], extra: Extra) -> dict[str, Any]:
    """``out`` plus this format's verbatim fields; what UMF itself says wins."""
    for key, value in own_extra(extra, FORMAT_ID).items():
        out.setdefault(key, value)
    return out


@dataclass
class RenderContext:
    """One render: where warnings go, and whether the conversation was read by forge
    (then it is written back exactly as it was read)."""

    drift: Drift = field(default_factory=lambda: Drift(FORMAT_ID))
    faithful: bool = False


def report_foreign_extra(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, "Forge")


_NO_MESSAGE_METADATA = (
    "Forge messages have no ids, timestamps, models, finish reasons, usage or metadata; left out"
)


def thread(conversation: Conversation, ctx: RenderContext) -> list[tuple[int, Message]]:
    """The messages to write with their UMF indexes: one path when the conversation is a
    tree, each message left on another branch noted as dropped."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "Forge holds one thread; this message is on another branch",
                field=item("messages", index),
                original=message.id,
            )
    written = [(positions[id(message)], message) for message in path]
    if not ctx.faithful:
        report_message_metadata(written, ctx.drift, _NO_MESSAGE_METADATA)
    return written


def fingerprint(blocks: list[Block]) -> str:
    """A digest of what a message's text says (ids left out: Forge text has none), to
    tell whether the blocks read from a text are still the same."""
    said = [
        {
            **block.model_dump(mode="json", exclude={"extra", "id", "tool_use_id"}),
            "fields": own_extra(block.extra, FORMAT_ID),
        }
        for block in blocks
    ]
    return hashlib.sha256(orjson.dumps(said, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]
