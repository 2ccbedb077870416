"""What the tests of the file formats (chatgpt-export, claude-export, sharegpt,
openai-finetune, otel-genai) share: exact comparison, storage's reload, hostile files,
other formats' fixtures, and the check that a render drops nothing silently."""

from __future__ import annotations

import copy
import io
import random
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import Format, FormatError, ParseResult, Rendered
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats._mutations import draw_mutation

FIXTURES = Path(__file__).parents[2] / "fixtures"
# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back: through JSON, with every object's keys
    in PostgreSQL ``jsonb`` order (shortest first), as the archive's JSON columns keep them."""
    return Conversation.model_validate(_jsonb(conversation.model_dump(mode="json")))


def _jsonb(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonb(value[key]) for key in sorted(value, key=lambda k: (len(k), k))}
    if isinstance(value, list):
        return [_jsonb(item) for item in value]
    return value


def fixtures(format_id: str) -> list[Path]:
    """The ``*.json`` fixtures of a format (each one file holding one conversation)."""
    return sorted((FIXTURES / format_id).glob("*.json"))


def load(path: Path) -> Any:
    return orjson.loads(path.read_bytes())


def assert_round_trips(fmt: Format, payload: Any) -> list[ParseResult]:
    """Parse, render back (also after storage's reload, and through ``render_all``):
    the same JSON, no warnings."""
    items = fmt.parse(payload)
    assert len(items) == 1
    for candidate in (items[0].conversation, stored(items[0].conversation)):
        for rendered in (fmt.render(candidate), fmt.render_all([candidate])):
            assert canonical(rendered.payload) == canonical(payload)
            assert rendered.warnings == []
    return items


def other_fixtures(format_id: str) -> list[Path]:
    """Every other registered format's fixtures."""
    registered = {fmt.id for fmt in formats.all_formats()}
    return [
        path
        for directory in sorted(FIXTURES.iterdir())
        if directory.is_dir() and directory.name in registered and directory.name != format_id
        for path in sorted(directory.glob("*.json"))
    ]


def summary(warnings: Iterable[DriftWarning]) -> list[tuple[Any, ...]]:
    """``(category, field, original, transformed)`` of each warning."""
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


def results(fmt: Format, data: bytes) -> list[ParseResult | FormatError]:
    """Everything ``iter_parse`` yields for a file of ``data``."""
    assert fmt.iter_parse is not None
    return list(fmt.iter_parse(io.BytesIO(data)))


def zip_bytes(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive holding ``members``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def zip_bomb(name: str, size: int) -> bytes:
    """A zip whose one member expands to ``size`` zero bytes (ratio ~1000:1)."""
    return zip_bytes({name: b"\0" * size})


def nested(depth: int) -> Any:
    """A JSON value nested ``depth`` levels deep."""
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


# --------------------------------------------------------------------------- silent drops


def every_block() -> Conversation:
    """A conversation holding every UMF block type, each where it naturally occurs."""
    result_error = ToolResultBlock(
        tool_use_id="toolu_error", name="lookup", content="ERROR-RESULT-TEXT", is_error=True
    )
    return Conversation(
        messages=[
            Message(role="system", content=[TextBlock(text="SYSTEM-TEXT")]),
            Message(
                role="user",
                content=[
                    TextBlock(text="USER-TEXT"),
                    ImageBlock(
                        source=MediaSource(type="url", url="https://example.com/URL-IMAGE.png")
                    ),
                    ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
                    DocumentBlock(
                        source=MediaSource(type="text", media_type="text/plain", data="DOC-TEXT"),
                        title="notes.txt",
                    ),
                    DocumentBlock(
                        source=MediaSource(
                            type="base64", media_type="application/pdf", data="JVBERi0xLjQK"
                        ),
                        filename="report.pdf",
                    ),
                    AudioBlock(
                        source=MediaSource(
                            type="base64", media_type="audio/wav", data="UklGRiQAAABXQVZF"
                        )
                    ),
                ],
            ),
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(
                        text="SIGNED-THOUGHT", signature="SIG-BLOB", provider="anthropic"
                    ),
                    ThinkingBlock(text="PLAIN-THOUGHT"),
                    ThinkingBlock(redacted=True, data="REDACTED-BLOB", provider="anthropic"),
                    TextBlock(
                        text="ASSISTANT-TEXT", citations=[{"url": "https://example.com/CITED"}]
                    ),
                    ToolUseBlock(id="toolu_ok", name="lookup", input={"q": "CALL-ARGUMENT"}),
                    ToolUseBlock(id="toolu_error", name="lookup", input={"q": "SECOND-CALL"}),
                ],
            ),
            Message(
                role="tool",
                tool_call_id="toolu_ok",
                content=[
                    ToolResultBlock(tool_use_id="toolu_ok", name="lookup", content="RESULT-TEXT")
                ],
            ),
            Message(role="tool", tool_call_id="toolu_error", content=[result_error]),
            Message(role="assistant", content=[RefusalBlock(text="REFUSAL-TEXT")]),
        ]
    )


def _markers(block: Block) -> list[str]:
    """Strings that show a block made it into a payload."""
    if isinstance(block, TextBlock | RefusalBlock):
        return [block.text]
    if isinstance(block, ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ToolUseBlock):
        return [str(block.input["q"])]
    if isinstance(block, ToolResultBlock):
        return [block.content] if isinstance(block.content, str) else []
    source = block.source
    return [value for value in (source.url, source.data) if value]


def assert_nothing_dropped_silently(conversation: Conversation, rendered: Rendered) -> None:
    """Every block is in the payload or named by a warning; every signature, citation
    and error flag that is not in the payload is named by a warning too."""
    text = (
        rendered.payload
        if isinstance(rendered.payload, str)
        else orjson.dumps(rendered.payload).decode()
    )
    named = [w.field or "" for w in rendered.warnings]
    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            path = f"messages[{index}].content[{position}]"
            warned = any(field.startswith(path) for field in named)
            markers = _markers(block)
            present = bool(markers) and all(_in(marker, text) for marker in markers)
            assert present or warned, f"{path} ({block.type}) vanished without a warning"
            # Facts beside the content, each with the strings that show it was kept.
            hidden: list[tuple[str, ...]] = []
            if isinstance(block, ThinkingBlock) and (block.signature or block.data):
                hidden.append((block.signature or block.data or "",))
            if isinstance(block, TextBlock) and block.citations:
                hidden.append(("CITED",))
            if isinstance(block, ToolResultBlock) and block.is_error:
                hidden.append(("Error", '"is_error":true'))
            for markers_kept in hidden:
                kept = any(_in(marker, text) for marker in markers_kept)
                assert kept or warned, f"{path}: {markers_kept[0]} lost without a warning"


def _in(marker: str, text: str) -> bool:
    return marker in text or orjson.dumps(marker).decode()[1:-1] in text


# --------------------------------------------------------------------------- mutations


_ODD_VALUES: list[Any] = [None, 0, 1.5, -1, True, "", "x", [], {}, [1], {"a": 1}, "all", "tool"]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterable[tuple[Any, ...]]:
    yield path
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        yield from _paths(child, (*path, key))


def mutated(value: Any, rng: random.Random) -> Any:
    """``value`` with one to five of its members replaced by odd values or removed."""
    value = copy.deepcopy(value)
    paths = list(_paths(value))[1:]
    for _ in range(rng.randint(1, 5)):
        path = rng.choice(paths)
        parent = value
        try:
            for key in path[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and rng.random() < 0.3:
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(_ODD_VALUES))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change moved this path
    return value


def assert_mutations_fail_cleanly(
    fmt: Format,
    payload: Any,
    seed: str,
    count: int = 40,
    encode: Callable[[Any], Any] = lambda value: value,
) -> None:
    """Parse ``count`` mutations of ``payload`` (each ``encode``-d, for text formats):
    each reads (and renders, to this format and to openai-chat) or is refused with a
    FormatError, never another exception."""
    rng = random.Random(seed)
    for _ in range(count):
        candidate = encode(mutated(payload, rng))
        try:
            items = fmt.parse(candidate)
        except FormatError:
            continue
        for item in items:
            fmt.render(stored(item.conversation))
            formats.get("openai-chat").render(item.conversation)


def check_mutation(
    fmt: Format,
    seeds: list[Any],
    data: st.DataObject,
    encode: Callable[[Any], Any] = lambda value: value,
) -> None:
    """One of ``seeds`` damaged by :func:`draw_mutation` (then ``encode``-d, for text
    formats) is either read and written back exactly, all its conversations after
    storage's reload, or refused with a :class:`FormatError` (never another exception)."""
    document = encode(draw_mutation(data, seeds))
    try:
        items = fmt.parse(document)
    except FormatError:
        return
    rendered = fmt.render_all([stored(item.conversation) for item in items])
    assert canonical(rendered.payload) == canonical(document)
