"""What the tests of the four seed formats (``matey-ir``, ``forge``, ``appam``, ``art``)
share: fixtures, exact round trips (also after storage and with keys reordered),
validated rendering that drops nothing silently, and mutation checks.

The per-format test modules use these helpers too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError, Rendered
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats._mutations import draw_mutation
from tests.providers.sdk import appam, art, forge, matey_ir

FIXTURES = Path(__file__).parents[3] / "fixtures"
SEED_FORMATS = ("matey-ir", "forge", "appam", "art")
VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "matey-ir": matey_ir.validate_payload,
    "forge": forge.validate_payload,
    "appam": appam.validate_payload,
    "art": art.validate_payload,
}
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer orjson cannot write (over 64 bits)
        return json.dumps(value, sort_keys=True).encode()


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def reordered(conversation: Conversation) -> Conversation:
    """The conversation with every JSON object's keys in another order: PostgreSQL's jsonb
    does not keep key order, so a round trip must not depend on it."""
    dump = conversation.model_dump(mode="json")
    return Conversation.model_validate(_reversed_keys(dump))


def fixtures(format_id: str) -> list[Path]:
    """The fixture files of a format."""
    return sorted((FIXTURES / format_id).glob("*.json"))


def load(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def parse_one(format_id: str, payload: Any) -> Conversation:
    """The one conversation ``format_id`` reads from ``payload``."""
    [item] = formats.get(format_id).parse(payload)
    return item.conversation


def assert_round_trips(format_id: str, payload: Any) -> None:
    """Reading and writing back gives the very payload, also after storage."""
    conversation = parse_one(format_id, payload)
    for candidate in (conversation, stored(conversation), reordered(conversation)):
        rendered = formats.get(format_id).render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    """``(category, field, original, transformed)`` of each warning."""
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


def message_summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    """:func:`summary` of the warnings about the messages (those about the request around
    them are the same for every format with no place for it: ``test_conversions.py``)."""
    return summary([w for w in warnings if (w.field or "").startswith("messages")])


def assert_renders(format_id: str, conversation: Conversation) -> Rendered:
    """Render, validate the payload, and check that nothing was dropped silently."""
    rendered = formats.get(format_id).render(conversation)
    VALIDATORS[format_id](rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    assert {w.source for w in rendered.warnings} <= {format_id}
    return rendered


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        # Line by line: text formats may write each line of a thinking block apart.
        return [line for line in block.text.split("\n") if line]
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        return [value for value in (source.data, source.url, source.file_id) if value]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content] if block.content else []
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation,
    payload: Any,
    warnings: list[DriftWarning],
    markers: Callable[[Block], list[str]] = _markers,
) -> None:
    """Every block's content (its ``markers``) is in the payload, or a warning names it (or
    its message). A text payload (ChatML) is searched as it is, any other as JSON."""
    raw = isinstance(payload, str)
    text = payload if raw else orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in markers(block):
            needle = marker if raw else orjson.dumps(marker).decode()[1:-1]
            assert needle in text, f"{path} lost {marker!r} silently"
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            for index, inner in enumerate(block.content):
                check(inner, f"{path}.content[{index}]")

    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            check(block, f"messages[{index}].content[{position}]")


CASES = [(fid, path) for fid in SEED_FORMATS for path in fixtures(fid)]


def _case_id(case: Any) -> str:
    return f"{case[0]}/{case[1].stem}" if isinstance(case, tuple) else str(case)


# --------------------------------------------------------------------------- mutations


def check_mutation(format_id: str, seeds: list[Any], data: st.DataObject) -> None:
    """A mutated payload is either read and written back exactly, or refused with a
    :class:`FormatError` (never another exception)."""
    payload = draw_mutation(data, seeds)
    try:
        conversation = parse_one(format_id, payload)
    except FormatError:
        return
    for candidate in (stored(conversation), reordered(conversation)):
        rendered = formats.get(format_id).render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
