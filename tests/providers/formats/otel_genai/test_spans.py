"""The ``otel-genai`` format: GenAI span attributes (and spans, and message lists) read and
written back exactly, and streamed span files (other formats' conversations as spans are in
test_convert.py)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    AudioBlock,
    Conversation,
    DocumentBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.archive._helpers import parse_fixture
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_round_trips,
    check_mutation,
    fixtures,
    load,
    nested,
    results,
    summary,
)
from tests.providers.sdk.otel_genai import validate_otel_attributes, validate_otel_messages

FORMAT = formats.get("otel-genai")
FIXTURE_PATHS = fixtures("otel-genai")
SPANS_FILE = FIXTURES / "otel-genai" / "files" / "spans.jsonl"


def parse_one(name: str) -> Conversation:
    return parse_fixture(FORMAT, name)


def assert_valid_otel(payload: Any) -> None:
    if isinstance(payload, list) and payload and "parts" in payload[0]:
        validate_otel_messages(payload)
        return
    for span in payload if isinstance(payload, list) else [payload]:
        validate_otel_attributes(span)


# --------------------------------------------------------------------------- reading


def test_span_attributes_give_messages_parameters_answer_and_usage() -> None:
    conversation = parse_one("chat_json_string_attributes.json")
    assert [m.role for m in conversation.messages] == ["system", "user", "assistant"]
    answer = conversation.messages[-1]
    assert answer.model == "gpt-4o-mini-2024-07-18"
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "stop")
    assert answer.usage is not None
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (31, 17)
    assert answer.usage.cached_tokens == 0
    parameters = conversation.parameters
    assert (parameters.model, parameters.temperature, parameters.stop) == (
        "gpt-4o-mini",
        0.7,
        ["\n\nUser:"],
    )
    assert conversation.metadata.provider_response_id == "chatcmpl-CGx1zKQm3Y9vT4s2"


def test_parts_become_blocks_and_unknown_parts_stay_in_place() -> None:
    conversation = parse_one("multimodal_parts.json")
    blocks = conversation.messages[0].content
    assert [type(block) for block in blocks] == [
        TextBlock,
        ImageBlock,
        ImageBlock,
        ImageBlock,
        DocumentBlock,
        AudioBlock,
    ]
    media = [b for b in blocks if isinstance(b, ImageBlock | DocumentBlock | AudioBlock)]
    assert [b.source.type for b in media] == [
        "base64",
        "url",
        "file",
        "url",
        "base64",
    ]
    [[position, video]] = conversation.messages[0].extra["otel-genai"]["unmapped_parts"]
    assert position == 6 and video["modality"] == "video"


def test_tool_calls_and_responses_pair_by_id_or_by_order() -> None:
    conversation = parse_one("tool_loop_structured.json")
    call = conversation.messages[1].content[0]
    result = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock) and call.input == {"location": "Paris"}
    assert isinstance(result, ToolResultBlock) and result.tool_use_id == call.id
    assert isinstance(result.content, str)
    assert result.name == "get_weather" and orjson.loads(result.content) == {
        "temp_c": 14,
        "sky": "rain",
    }
    [item] = FORMAT.parse(load(FIXTURES / "otel-genai" / "bare_messages.json"))
    made = item.conversation.messages[2].content[0]
    assert isinstance(made, ToolResultBlock) and made.tool_use_id == "call_0"
    assert summary(item.warnings) == [
        ("id-synthesized", "payload[1].parts[0]", None, "call_0"),
        ("id-synthesized", "payload[2].parts[0]", None, "call_0"),
    ]


@pytest.mark.parametrize("call_id", [None, ""], ids=["null", "empty"])
def test_a_call_and_a_response_whose_id_is_null_or_empty_keep_it(call_id: Any) -> None:
    # The id made up for pairing is not written back, but the id the part gave is.
    messages = [
        {"role": "assistant", "parts": [{"type": "tool_call", "id": call_id, "name": "f"}]},
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id, "response": 1}]},
    ]
    [item] = assert_round_trips(FORMAT, messages)
    call, result = (message.content[0] for message in item.conversation.messages)
    assert isinstance(call, ToolUseBlock) and isinstance(result, ToolResultBlock)
    assert call.id == result.tool_use_id == "call_0"


ODD_MEDIA_PARTS = [
    {"type": "uri", "modality": "image", "mime_type": None, "uri": "https://a.example/b.png"},
    {"type": "blob", "modality": "", "mime_type": "application/pdf", "content": "eA=="},
    {"type": "file", "modality": "document", "file_id": "f", "title": "", "filename": ""},
]


@pytest.mark.parametrize(
    "part", ODD_MEDIA_PARTS, ids=["null mime type", "empty modality", "empty title and filename"]
)
def test_a_media_part_with_null_or_empty_properties_comes_back_as_it_was(
    part: dict[str, Any],
) -> None:
    assert_round_trips(FORMAT, [{"role": "user", "parts": [part]}])


def test_a_message_whose_role_is_empty_keeps_it() -> None:
    # Read as a user message, like any role the conventions do not name.
    [item] = assert_round_trips(FORMAT, [{"role": "", "parts": []}])
    assert item.conversation.messages[0].role == "user"


def test_string_arguments_an_error_flag_and_two_choices() -> None:
    conversation = parse_one("spans_list.json")
    call, result = conversation.messages[1].content[0], conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock) and call.raw_arguments == '{"id": "1042"}'
    assert isinstance(result, ToolResultBlock) and result.is_error is True
    assert [m.finish_reason for m in conversation.messages[-2:]] == ["stop", "length"]
    assert conversation.messages[0].name == "alice"


def test_reasoning_is_thinking_without_a_signature() -> None:
    answer = parse_one("span_object.json").messages[-1]
    thinking = answer.content[0]
    assert isinstance(thinking, ThinkingBlock) and thinking.signature is None
    assert answer.usage is not None and answer.usage.reasoning_tokens == 22


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ("text", "payload"),
        ([], "payload"),
        ({"gen_ai.operation.name": "chat"}, "gen_ai.input.messages"),
        ({"gen_ai.input.messages": "[{"}, "gen_ai.input.messages"),
        ({"gen_ai.input.messages": [{"parts": []}]}, "gen_ai.input.messages[0].role"),
        (
            {"gen_ai.input.messages": [{"role": "user", "parts": [{"content": "x"}]}]},
            "gen_ai.input.messages[0].parts[0].type",
        ),
        (
            {"gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text"}]}]},
            "gen_ai.input.messages[0].parts[0].content",
        ),
        (
            {
                "gen_ai.input.messages": [
                    {"role": "tool", "parts": [{"type": "tool_call_response"}]}
                ]
            },
            "gen_ai.input.messages[0].parts[0].response",
        ),
        ({"attributes": {"gen_ai.input.messages": 7}}, "attributes.gen_ai.input.messages"),
        ({"gen_ai.input.messages": nested(150)}, "payload"),
        ([{"gen_ai.input.messages": []}, {"x": 1}], "[1].gen_ai.input.messages"),
        # Where a message keeps the parts UMF has no block for.
        ([{"role": "user", "parts": [], "unmapped_parts": []}], "payload[0].unmapped_parts"),
    ],
)
def test_what_is_not_genai_telemetry_is_refused_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        FORMAT.parse(payload)
    assert error.value.field == field


# --------------------------------------------------------------------------- files


def test_a_span_file_streams_span_by_span() -> None:
    found = results(FORMAT, SPANS_FILE.read_bytes())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[1]
    assert isinstance(error, FormatError)
    assert error.field == "line 2.gen_ai.input.messages[0].parts[0].content"
    assert [item.key for item in found if isinstance(item, ParseResult)] == [
        None,
        None,
        "thread-77",
    ]


def test_a_json_array_of_spans_streams_too_and_comes_back_as_one_file() -> None:
    spans = [
        load(FIXTURES / "otel-genai" / name)
        for name in ("tool_loop_structured.json", "span_object.json")
    ]
    found = results(FORMAT, orjson.dumps(spans))
    conversations = [item.conversation for item in found if isinstance(item, ParseResult)]
    assert len(conversations) == 2
    assert FORMAT.render_all(conversations).payload == spans


# --------------------------------------------------------------------------- fuzzing

# Beside the fixtures, parts whose values are null or empty where the fixtures' are not.
_SEEDS = [load(path) for path in FIXTURE_PATHS] + [
    [
        {"role": "", "parts": ODD_MEDIA_PARTS},
        {"role": "assistant", "parts": [{"type": "tool_call", "id": None, "name": "f"}]},
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "", "response": 1}]},
    ]
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(FORMAT, _SEEDS, data)
