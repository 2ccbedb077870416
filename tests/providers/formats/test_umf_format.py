"""The ``umf`` format: exact round trips of UMF documents, seed shapes included."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers import formats
from providers.umf import Conversation, ImageBlock, TextBlock, ToolResultBlock

FIXTURES = sorted((Path(__file__).parents[2] / "fixtures" / "umf").glob("*.json"))
UMF = formats.get("umf")


def canonical(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_exactly(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    [item] = UMF.parse(payload)
    stored = Conversation.model_validate_json(item.conversation.model_dump_json())
    assert canonical(UMF.render(stored).payload) == canonical(payload)
    assert UMF.render(stored).warnings == []


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_umf(path: Path) -> None:
    assert formats.detect(orjson.loads(path.read_bytes())).id == "umf"


def test_seed_string_content_becomes_one_text_block() -> None:
    [item] = UMF.parse([{"role": "user", "content": "Hello, world!"}])
    assert item.conversation.messages[0].content == [TextBlock(text="Hello, world!")]


def test_seed_blocks_parse_into_typed_blocks() -> None:
    payload = orjson.loads((Path(FIXTURES[0]).parent / "seed-tool-calling.json").read_bytes())
    [item] = UMF.parse(payload)
    messages = item.conversation.messages
    assert isinstance(messages[2].content[0], ToolResultBlock)
    assert isinstance(messages[3].content[1], ImageBlock)
    assert messages[3].content[1].source.media_type == "image/png"


def test_openai_shaped_tool_definitions_are_read() -> None:
    payload = {
        "messages": [{"role": "user", "content": "x"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
    }
    [item] = UMF.parse(payload)
    assert item.conversation.tools[0].name == "f"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"messages": "nope"}, "payload.messages"),
        (
            {"messages": [{"role": "user", "content": [{"type": "video"}]}]},
            "payload.messages[0].content[0].type",
        ),
        ({"messages": [{"content": "x"}]}, "payload.messages[0].role"),
        ({"messages": [], "surprise": 1}, "payload"),
        ([{"role": "user", "content": 5}], "payload[0].content"),
    ],
)
def test_malformed_documents_name_the_field(payload: object, field: str) -> None:
    with pytest.raises(formats.FormatError) as error:
        UMF.parse(payload)
    assert error.value.field == field


@pytest.mark.parametrize("tools", [{}, {"tools": []}], ids=["absent", "empty"])
def test_a_conversation_without_tools_comes_back_without_or_with_them_as_read(
    tools: dict[str, list[object]],
) -> None:
    payload = {"messages": [{"role": "user", "content": "hi"}], **tools}
    [item] = UMF.parse(payload)
    stored = Conversation.model_validate_json(item.conversation.model_dump_json())
    assert UMF.render(stored).payload == payload


def test_unknown_message_keys_are_kept_and_come_back() -> None:
    payload = [{"role": "user", "content": "x", "x-trace": {"span": 7}}]
    [item] = UMF.parse(payload)
    assert UMF.render(item.conversation).payload == payload


def test_detection_explains_an_unknown_payload() -> None:
    with pytest.raises(formats.FormatDetectionError) as error:
        formats.detect({"hello": "world"})
    assert error.value.field == "payload"
