"""The ``umf`` format: exact round trips of UMF documents, seed shapes included."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.umf import Conversation, ImageBlock, TextBlock, ToolResultBlock
from tests.providers.sdk.archive import assert_round_trips, check_mutation

FIXTURES = sorted((Path(__file__).parents[3] / "fixtures" / "umf").glob("*.json"))
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


_USER = {"role": "user", "content": "hi"}


@pytest.mark.parametrize(
    "payload",
    [
        {"messages": [_USER], "parameters": {"seed": None}},
        {"messages": [_USER], "parameters": {"model": "m", "custom": {}}},
        {"messages": [_USER], "metadata": {}},
        {"messages": [_USER], "metadata": {"warnings": []}},
        {"messages": [_USER], "metadata": {"provenance": {"frontend": None, "middleware": []}}},
        {
            "messages": [_USER],
            "metadata": {
                "warnings": [{"category": "id-synthesized", "message": "m", "field": None}]
            },
        },
        {"messages": [_USER], "tool_choice": {"type": "auto", "name": None}},
        {"messages": [_USER], "tools": [{"name": "f", "description": None}]},
        {
            "messages": [_USER],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": None}}],
        },
        [{"role": "assistant", "content": "x", "usage": {"prompt_tokens": None}}],
        [
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "url", "url": "u", "media_type": None}}
                ],
            }
        ],
        [
            {
                "role": "tool",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t",
                        "content": [{"type": "text", "text": "x", "citations": None, "extra": {}}],
                    }
                ],
            }
        ],
    ],
    ids=[
        "parameter",
        "empty-custom",
        "empty-metadata",
        "empty-warnings",
        "provenance",
        "warning-field",
        "tool-choice-name",
        "tool-description",
        "function-parameters",
        "usage",
        "media-type",
        "tool-result-block",
    ],
)
def test_default_values_spelled_out_at_any_depth_come_back(payload: object) -> None:
    assert_round_trips(UMF, payload)


@pytest.mark.parametrize(
    "payload",
    [
        {"messages": [_USER], "parameters": {"temperature": 1, "top_p": 0}},
        {"messages": [_USER], "metadata": {"timestamp": "2025-05-01T08:00:00.5+02:00"}},
        [{"role": "user", "content": "x", "timestamp": "2025-05-01 10:00:00Z"}],
    ],
    ids=["integer-floats", "metadata-timestamp", "message-timestamp"],
)
def test_values_the_dump_writes_otherwise_come_back_as_written(payload: object) -> None:
    assert_round_trips(UMF, payload)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"messages": [_USER], "parameters": {"seed": False}}, "payload.parameters.seed"),
        ({"messages": [_USER], "parameters": {"max_tokens": "5"}}, "payload.parameters.max_tokens"),
        ({"messages": [_USER], "parameters": {"max_tokens": 5.0}}, "payload.parameters.max_tokens"),
        ({"messages": [_USER], "parameters": {"stream": 1}}, "payload.parameters.stream"),
        ([{"role": "user", "content": "x", "timestamp": 0}], "payload[0].timestamp"),
        (
            [{"role": "assistant", "content": "x", "usage": {"total_tokens": True}}],
            "payload[0].usage.total_tokens",
        ),
        (
            [
                {
                    "role": "tool",
                    "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": 1}],
                }
            ],
            "payload[0].content[0].is_error",
        ),
    ],
)
def test_values_read_as_another_type_are_refused_naming_the_field(
    payload: object, field: str
) -> None:
    # Lax validation would take them, and they would come back as something else.
    with pytest.raises(formats.FormatError) as error:
        UMF.parse(payload)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"messages": [_USER], "extra": {"umf": {"$shape": "messages"}}}, "payload.extra.umf"),
        ([{"role": "user", "content": "x", "extra": {"umf": {"a": 1}}}], "payload[0].extra.umf"),
        (
            [{"role": "user", "content": [{"type": "text", "text": "x", "extra": {"umf": {}}}]}],
            "payload[0].content[0].extra.umf",
        ),
        (
            {"messages": [_USER], "tools": [{"name": "f", "extra": {"umf": {}}}]},
            "payload.tools[0].extra.umf",
        ),
    ],
)
def test_an_extra_named_like_the_format_is_refused(payload: object, field: str) -> None:
    # extra["umf"] holds the format's hints; a document's own would be taken for them.
    with pytest.raises(formats.FormatError) as error:
        UMF.parse(payload)
    assert error.value.field == field


def test_a_conversation_object_without_messages_is_refused() -> None:
    # It came back with "messages": []; every other format refuses a payload without them.
    with pytest.raises(formats.FormatError) as error:
        UMF.parse({"tools": [{"name": "f"}]})
    assert error.value.field == "payload.messages"


# --------------------------------------------------------------------------- fuzzing

# The fixtures; every-field.json holds every value UMF has, defaults spelled out at each depth.
_SEEDS = [orjson.loads(path.read_bytes()) for path in FIXTURES]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(UMF, _SEEDS, data)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("2024-05-01", "2024-05-01T00:00:00"),
        ("2024-05-01T10:00Z", "2024-05-01T10:00:00+00:00"),
        ("2024-05-01 10:00:00", "2024-05-01T10:00:00"),
        ("2024-05-01T10:00:00.123456789Z", "2024-05-01T10:00:00.123457+00:00"),
    ],
)
def test_an_iso_8601_timestamp_is_read_and_written_back_as_it_was(written: str, read: str) -> None:
    # Hand-written UMF may use any ISO 8601 form; the value is the instant, the document
    # gets its own string back (stored and read again, as the archive does).
    payload = {
        "messages": [{"role": "user", "content": "hi", "timestamp": written}],
        "metadata": {"timestamp": written},
    }
    [item] = UMF.parse(payload)
    conversation = item.conversation
    assert conversation.messages[0].timestamp is not None
    assert conversation.messages[0].timestamp.isoformat() == read
    assert conversation.metadata.timestamp == conversation.messages[0].timestamp
    stored = Conversation.model_validate_json(conversation.model_dump_json())
    assert UMF.render(stored).payload == payload


@pytest.mark.parametrize("written", ["soon", "2024-13-01", "1700000000"])
def test_a_timestamp_no_iso_form_reads_is_refused_naming_it(written: str) -> None:
    payload = {"messages": [{"role": "user", "content": "hi", "timestamp": written}]}
    with pytest.raises(formats.FormatError) as caught:
        UMF.parse(payload)
    assert caught.value.field == "payload.messages[0].timestamp"
    assert "RFC 3339" in caught.value.message
