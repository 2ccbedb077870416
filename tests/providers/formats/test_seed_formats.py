"""What the four seed formats (``matey-ir``, ``forge``, ``appam``, ``art``) share: fixture
round trips, validation and detection, every block in every role carried or warned, other
formats' fixtures and random conversations rendered into valid payloads.

The helpers here are used by the per-format test modules too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
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
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk import appam, art, forge, matey_ir

FIXTURES = Path(__file__).parents[2] / "fixtures"
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


def render_checked(format_id: str, conversation: Conversation) -> Rendered:
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
    conversation: Conversation, payload: Any, warnings: list[DriftWarning]
) -> None:
    """Every block's content is in the payload, or a warning names it (or its message)."""
    text = orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in _markers(block):
            assert orjson.dumps(marker).decode()[1:-1] in text, f"{path} lost {marker!r} silently"
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            for index, inner in enumerate(block.content):
                check(inner, f"{path}.content[{index}]")

    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            check(block, f"messages[{index}].content[{position}]")


# --------------------------------------------------------------------------- fixtures

CASES = [(fid, path) for fid in SEED_FORMATS for path in fixtures(fid)]
OTHER_FIXTURES = [
    path
    for directory in sorted(FIXTURES.iterdir())
    if directory.is_dir() and directory.name not in SEED_FORMATS
    for path in sorted(directory.glob("*.json"))
]


def _case_id(case: Any) -> str:
    return f"{case[0]}/{case[1].stem}" if isinstance(case, tuple) else str(case)


@pytest.mark.parametrize("format_id", SEED_FORMATS)
def test_there_are_enough_fixtures(format_id: str) -> None:
    assert len(fixtures(format_id)) >= 6


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_round_trips_exactly(case: tuple[str, Path]) -> None:
    format_id, path = case
    assert_round_trips(format_id, load(path))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_is_what_the_seed_types_allow(case: tuple[str, Path]) -> None:
    format_id, path = case
    VALIDATORS[format_id](load(path))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_is_detected_as_its_own_format(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload = load(path)
    assert formats.get(format_id).detect(payload) == 2
    assert formats.detect(payload).id == format_id


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_no_other_format_claims_a_fixture_for_sure(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload = load(path)
    for other in formats.all_formats():
        if other.id == format_id or other.detect(payload) < 2:
            continue
        # umf's detect counts ``timestamp``/``metadata`` keys as its own marks, which Appam
        # messages and IR requests carry too; it must then at least fail to read the
        # payload, so that auto-detection still lands here (see the report on umf.py).
        assert other.id == "umf", f"{other.id} claims {path.name}"
        with pytest.raises(FormatError):
            other.parse(payload)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_seed_formats_do_not_claim_other_fixtures(path: Path) -> None:
    payload = load(path)
    for format_id in SEED_FORMATS:
        assert formats.get(format_id).detect(payload) < 2, format_id


# --------------------------------------------------------------------------- conversions

CONVERTIBLE = [
    path
    for name in ("openai-chat", "anthropic", "umf")
    for path in sorted((FIXTURES / name).glob("*.json"))
]


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@pytest.mark.parametrize("path", CONVERTIBLE, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_render_valid_payloads(path: Path, format_id: str) -> None:
    for item in formats.parse(path.parent.name, load(path)).items:
        render_checked(format_id, stored(item.conversation))


@pytest.mark.parametrize("target", SEED_FORMATS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_seed_fixtures_convert_into_each_other(case: tuple[str, Path], target: str) -> None:
    format_id, path = case
    if format_id != target:
        render_checked(target, stored(parse_one(format_id, load(path))))


BLOCKS: dict[str, Block] = {
    "text": TextBlock(text="plain words"),
    "text with citations": TextBlock(text="cited", citations=[{"type": "page_location"}]),
    "refusal": RefusalBlock(text="I won't"),
    "image base64": ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
    "image url": ImageBlock(source=MediaSource(type="url", url="https://example.com/cat.png")),
    "image file": ImageBlock(source=MediaSource(type="file", file_id="file-img")),
    "pdf": DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0x"),
        filename="a.pdf",
    ),
    "document url": DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
    "document text": DocumentBlock(source=MediaSource(type="text", data="doc words")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
    "tool use": ToolUseBlock(id="call_table", name="lookup", input={"q": "x"}),
    "tool result text": ToolResultBlock(tool_use_id="call_table", content="found it"),
    "tool result blocks": ToolResultBlock(
        tool_use_id="call_table",
        content=[TextBlock(text="rows"), ImageBlock(source=MediaSource(type="url", url="u"))],
    ),
    "tool result error": ToolResultBlock(tool_use_id="call_table", content="broke", is_error=True),
    "thinking signed": ThinkingBlock(text="let me think", signature="sig", provider="anthropic"),
    "thinking unsigned": ThinkingBlock(text="musing"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}
ROLES = ("system", "developer", "user", "assistant", "tool")


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(
    block: Block, role: str, format_id: str
) -> None:
    call = ToolUseBlock(id="call_table", name="lookup", input={})
    conversation = Conversation(
        messages=[
            Message(role="assistant", content=[call]),
            Message(
                role=role,  # type: ignore[arg-type]
                content=[block],
                tool_call_id="call_table" if role == "tool" else None,
            ),
        ],
    )
    render_checked(format_id, conversation)


_IDS = st.sampled_from(["call_a", "toolu_01B", "fc_" + "9" * 60, "bad id!", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([block for name, block in BLOCKS.items() if "tool" not in name])
    uses = st.builds(ToolUseBlock, id=_IDS, name=st.just("f"), input=st.just({"x": "1"}))
    results = st.builds(
        ToolResultBlock,
        tool_use_id=_IDS,
        content=st.one_of(st.text(max_size=5), st.lists(simple, max_size=3)),
        is_error=st.sampled_from([None, True]),
    )
    return st.one_of(simple, uses, results)


_MESSAGES = st.builds(
    Message,
    role=st.sampled_from(ROLES),
    content=st.lists(_blocks(), max_size=4),
    tool_call_id=st.one_of(st.none(), _IDS),
    name=st.one_of(st.none(), st.just("someone")),
)


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@settings(max_examples=150, deadline=None)
@given(messages=st.lists(_MESSAGES, min_size=1, max_size=6))
def test_any_conversation_renders_a_valid_payload_and_warns_for_each_loss(
    format_id: str, messages: list[Message]
) -> None:
    render_checked(format_id, Conversation(messages=messages))


# --------------------------------------------------------------------------- mutations

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _nodes(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _nodes(inner, (*path, index))
    return found


def _mutate(document: Any, path: tuple[Any, ...], replacement: Any, delete: bool) -> Any:
    if not path:
        return replacement
    copy = json.loads(json.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return copy


def check_mutation(format_id: str, seeds: list[Any], data: st.DataObject) -> None:
    """A mutated payload is either read and written back exactly, or refused with a
    :class:`FormatError` (never another exception)."""
    seed = data.draw(st.sampled_from(seeds))
    path = data.draw(st.sampled_from(_nodes(seed)))
    delete = bool(path) and data.draw(st.booleans())
    payload = _mutate(seed, path, data.draw(_JSON), delete)
    try:
        conversation = parse_one(format_id, payload)
    except FormatError:
        return
    for candidate in (stored(conversation), reordered(conversation)):
        rendered = formats.get(format_id).render(candidate)
        assert canonical(rendered.payload) == canonical(payload)


# --------------------------------------------------------------------------- imports to convert

ANTHROPIC_REQUEST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "temperature": 0.7,
    "top_k": 40,
    "stop_sequences": ["\n\nHuman:"],
    "system": "You are terse.",
    "metadata": {"user_id": "u-1"},
    "tools": [
        {
            "name": "get_weather",
            "description": "Weather by city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
            "cache_control": {"type": "ephemeral"},
        },
        {"name": "get_wind", "input_schema": {"type": "object"}},
    ],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather in Paris and Rome?"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Need both cities.", "signature": "EqQBCkgIARAB"},
                {"type": "text", "text": "Checking both."},
                {
                    "type": "tool_use",
                    "id": "toolu_01Paris",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_01Rome",
                    "name": "get_weather",
                    "input": {"city": "Rome"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Paris",
                    "content": [
                        {"type": "text", "text": "18 °C, sunny"},
                        {
                            "type": "image",
                            "source": {"type": "url", "url": "https://maps.example/radar.png"},
                        },
                    ],
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Rome",
                    "content": "upstream timeout",
                    "is_error": True,
                },
                {"type": "text", "text": "Also, is it windy?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"},
                {
                    "type": "tool_use",
                    "id": "toolu_01Wind",
                    "name": "get_wind",
                    "input": {"city": "Paris"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01Wind", "content": "12 km/h"},
                {
                    "type": "document",
                    "source": {
                        "type": "base64",
                        "media_type": "application/pdf",
                        "data": "JVBERi0x",
                    },
                    "title": "Forecast",
                },
            ],
        },
    ],
}

OPENAI_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "temperature": 1.2,
    "max_completion_tokens": 500,
    "parallel_tool_calls": True,
    "seed": 7,
    "stop": ["END"],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "describe",
                "description": "Describe a picture",
                "parameters": {"type": "object", "properties": {"target": {"type": "string"}}},
                "strict": True,
            },
        },
        {"type": "function", "function": {"name": "transcribe", "parameters": {"type": "object"}}},
    ],
    "tool_choice": {"type": "function", "function": {"name": "describe"}},
    "messages": [
        {"role": "developer", "content": "Answer briefly.", "name": "acme"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in this photo and recording?"},
                {
                    "type": "image_url",
                    "image_url": {"url": "https://example.com/photo.jpg", "detail": "high"},
                },
                {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "describe", "arguments": '{"target":"photo"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "transcribe", "arguments": '{"target": "aud'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "A red bicycle leaning on a wall."},
        {"role": "tool", "tool_call_id": "call_2", "content": "unsupported codec"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "A red bicycle."},
                {"type": "refusal", "refusal": "I can't transcribe that audio."},
            ],
        },
        {"role": "user", "content": "Thanks!", "name": "maria"},
    ],
}


def anthropic_import() -> Conversation:
    """A conversation as the anthropic format reads ANTHROPIC_REQUEST."""
    return stored(parse_one("anthropic", ANTHROPIC_REQUEST))


def openai_import() -> Conversation:
    """A conversation as the openai-chat format reads OPENAI_REQUEST."""
    return stored(parse_one("openai-chat", OPENAI_REQUEST))


@pytest.mark.parametrize("format_id", SEED_FORMATS)
def test_other_branches_and_citations_are_dropped_with_warnings(format_id: str) -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    conversation = Conversation(
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(
                id="c",
                parent_id="a",
                role="assistant",
                content=[TextBlock(text="new", citations=citations)],
            ),
        ]
    )
    rendered = render_checked(format_id, conversation)
    assert "old" not in orjson.dumps(rendered.payload).decode()
    assert [w for w in summary(rendered.warnings) if w[0] == "content-dropped"] == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages[2].content[0].citations", citations, None),
    ]
