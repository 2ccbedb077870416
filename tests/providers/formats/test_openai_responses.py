"""The ``openai-responses`` format: reading Responses payloads and writing them back exactly.

Conversions from other formats are in ``test_openai_responses_convert.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from providers.formats.openai_responses import render_request
from providers.umf import (
    Conversation,
    DocumentBlock,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_items,
    validate_openai_responses_request,
    validate_openai_responses_response,
)

FORMAT_ID = "openai-responses"
FIXTURES_ROOT = Path(__file__).parents[2] / "fixtures"
FIXTURE_DIR = FIXTURES_ROOT / FORMAT_ID
FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
RESPONSES = formats.get(FORMAT_ID)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURE_DIR / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = RESPONSES.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = RESPONSES.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(conversation: Conversation) -> str:
    return str(conversation.extra[FORMAT_ID]["$shape"])


def ours(conversation: Conversation, index: int) -> dict[str, Any]:
    return conversation.messages[index].extra.get(FORMAT_ID, {})


# --------------------------------------------------------------------------- fixtures


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURES) >= 6


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_exactly(path: Path) -> None:
    assert_round_trips(orjson.loads(path.read_bytes()))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_what_the_sdk_accepts(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    shape = shape_of(parse_one(payload))
    if shape == "request":
        validate_openai_responses_request(payload)
        check_openai_responses_rules(payload)
    elif shape == "messages":
        validate_openai_responses_items(payload)
        check_openai_responses_rules(payload)
    elif shape == "response":
        validate_openai_responses_response(payload)
    else:
        validate_openai_responses_request(payload["request"])
        validate_openai_responses_response(payload["response"])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_the_api_accepts(path: Path) -> None:
    request = render_request(stored(parse_one(orjson.loads(path.read_bytes())))).payload
    validate_openai_responses_request(request)
    check_openai_responses_rules(request)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_openai_responses(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    assert RESPONSES.detect(payload) == 2
    assert formats.detect(payload).id == FORMAT_ID


OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES_ROOT.iterdir()
    if directory.is_dir() and directory.name != FORMAT_ID
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_do_not_score_two_here(path: Path) -> None:
    assert RESPONSES.detect(orjson.loads(path.read_bytes())) < 2


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_no_other_format_scores_two_on_our_fixtures(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    others = [fmt.id for fmt in formats.all_formats() if fmt.id != FORMAT_ID]
    assert [fmt for fmt in others if formats.get(fmt).detect(payload) == 2] == []


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_items_custom_tool.json", "messages"),
        ("exchange_reasoning_usage.json", "exchange"),
        ("bare_response_web_search.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(parse_one(load(name))) == shape


def test_plain_text_messages_only_fit() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert RESPONSES.detect(plain) == 1
    assert RESPONSES.detect([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) == 0
    assert RESPONSES.detect({"messages": plain}) == 0


# --------------------------------------------------------------------------- what parse reads


def test_reasoning_items_become_thinking_blocks_of_this_provider() -> None:
    payload = load("tool_loop_parallel.json")
    conversation = parse_one(payload)
    first = conversation.messages[2].content[0]
    raw = payload["input"][1]
    assert isinstance(first, ThinkingBlock)
    assert (first.provider, first.signature, first.redacted) == (FORMAT_ID, None, False)
    assert first.data == raw["encrypted_content"]
    assert first.text == raw["summary"][0]["text"]
    assert first.extra[FORMAT_ID] == {"id": raw["id"], "$summary": raw["summary"]}


def test_reasoning_text_joins_summaries_or_falls_back_to_content() -> None:
    answer = parse_one(load("exchange_reasoning_usage.json")).messages[-1]
    summaries = load("exchange_reasoning_usage.json")["response"]["output"][0]["summary"]
    assert answer.content[0] == ThinkingBlock(
        text="\n\n".join(part["text"] for part in summaries),
        provider=FORMAT_ID,
        extra={
            FORMAT_ID: {
                "id": "rs_6849b20f1a7c81909e8d7c6b5a4f3e2d0c9d8e7f6a5b4c3d",
                "$summary": summaries,
            }
        },
    )
    content_only = parse_one(
        [
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [],
                "content": [
                    {"type": "reasoning_text", "text": "a"},
                    {"type": "reasoning_text", "text": "b"},
                ],
            }
        ]
    )
    assert content_only.messages[0].content[0].text == "a\n\nb"  # type: ignore[union-attr]


def test_parallel_calls_and_their_outputs() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    roles = [message.role for message in conversation.messages]
    assert roles == ["system", "user", "assistant", "tool", "tool", "tool", "assistant", "tool"]
    calls = conversation.messages[2].content[1:]
    assert [type(block) for block in calls] == [ToolUseBlock] * 3
    first = calls[0]
    assert isinstance(first, ToolUseBlock)
    assert (first.id, first.name, first.input) == (
        "call_Q8nZ2kL4vT7xR1sW9mB3pD6f",
        "get_weather",
        {"city": "Paris", "unit": "celsius"},
    )
    assert first.raw_arguments == '{"city":"Paris","unit":"celsius"}'
    assert first.extra[FORMAT_ID] == {
        "id": "fc_6849a1f3a7c08191b1d2e3f4a5b6c7d80a8e2b1c4d5f6a70",
        "status": "completed",
    }
    result = conversation.messages[3]
    assert result.tool_call_id == "call_Q8nZ2kL4vT7xR1sW9mB3pD6f"
    assert result.content == [
        ToolResultBlock(
            tool_use_id="call_Q8nZ2kL4vT7xR1sW9mB3pD6f",
            name="get_weather",
            content='{"city":"Paris","temp_c":21,"conditions":"partly cloudy"}',
        )
    ]


def test_invalid_json_arguments_keep_the_raw_string() -> None:
    call = parse_one(load("tool_loop_parallel.json")).messages[6].content[1]
    assert isinstance(call, ToolUseBlock)
    assert call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.endswith('"2025-06-13",')


def test_instructions_become_a_marked_leading_system_message() -> None:
    system = parse_one(load("tool_loop_parallel.json")).messages[0]
    assert system.role == "system"
    assert system.content == [
        TextBlock(
            text="You are a travel assistant. Use the tools for live data and answer in two "
            "sentences at most."
        )
    ]
    assert system.extra == {FORMAT_ID: {"$instructions": True}}


def test_string_input_is_one_user_message() -> None:
    conversation = parse_one(load("string_input_structured.json"))
    assert [m.role for m in conversation.messages] == ["system", "user"]
    assert conversation.messages[1].content == [
        TextBlock(text="Alice and Bob are going to a science fair on Friday.")
    ]
    assert conversation.parameters.temperature == 1 and conversation.parameters.top_p == 0.9
    assert conversation.parameters.user == "user_2f9c41"
    assert conversation.extra[FORMAT_ID]["$int_parameters"] == ["temperature"]
    assert conversation.extra[FORMAT_ID]["text"]["format"]["name"] == "calendar_event"


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = load("exchange_reasoning_usage.json")
    conversation = parse_one(payload)
    answer = conversation.messages[-1]
    assert answer.role == "assistant"
    assert [block.type for block in answer.content] == ["thinking", "text"]
    assert (answer.id, answer.model) == (
        "resp_6849b20e5f0c8190a3d3c1b2e4f5a6b70c9d8e7f6a5b4c3d",
        "o4-mini-2025-04-16",
    )
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "completed")
    assert answer.usage == Usage(
        prompt_tokens=2112,
        completion_tokens=1405,
        total_tokens=3517,
        cached_tokens=1920,
        cache_write_tokens=0,
        reasoning_tokens=1152,
        raw=payload["response"]["usage"],
    )
    assert answer.timestamp == datetime(2025, 6, 11, 16, 42, 54, tzinfo=UTC)
    assert conversation.metadata.provider_response_id == answer.id
    kept = ours(conversation, -1)["$response"]
    assert kept["object"] == "response" and kept["status"] == "completed"
    assert "output" not in kept and "usage" not in kept
    assert conversation.parameters.max_tokens == 4000
    assert conversation.extra[FORMAT_ID]["metadata"] == {
        "team": "data-platform",
        "ticket": "DP-1187",
    }


def test_output_message_fields_ride_on_its_first_block() -> None:
    answer = parse_one(load("bare_response_incomplete.json")).messages[0]
    text = answer.content[1]
    assert isinstance(text, TextBlock)
    assert text.extra[FORMAT_ID]["$message"] == {
        "fields": {
            "id": "msg_684d0a3e5f6081909c8b7a6f5e4d3c2b0a1b2c3d4e5f6071",
            "type": "message",
            "status": "incomplete",
            "phase": "final_answer",
        },
        "blocks": 1,
    }
    assert text.extra[FORMAT_ID]["logprobs"] == []


@pytest.mark.parametrize(
    ("status", "details", "calls", "expected"),
    [
        ("completed", None, False, ("stop", "completed")),
        ("completed", None, True, ("tool_calls", "completed")),
        ("incomplete", {"reason": "max_output_tokens"}, False, ("length", "max_output_tokens")),
        ("incomplete", {"reason": "content_filter"}, False, ("content_filter", "content_filter")),
        ("incomplete", {"reason": "max_messages"}, False, (None, "max_messages")),
        ("incomplete", None, False, (None, "incomplete")),
        ("failed", None, False, ("error", "failed")),
        ("cancelled", None, False, ("cancelled", "cancelled")),
        ("in_progress", None, False, (None, "in_progress")),
    ],
)
def test_finish_reason_is_derived_from_status(
    status: str, details: Any, calls: bool, expected: tuple[Any, Any]
) -> None:
    output: list[Any] = [{"type": "message", "role": "assistant", "content": "x"}]
    if calls:
        output.append({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"})
    response = {"object": "response", "status": status, "incomplete_details": details}
    answer = parse_one({**response, "output": output}).messages[0]
    assert (answer.finish_reason, answer.provider_finish_reason) == expected


def test_citations_come_from_annotations() -> None:
    answer = parse_one(load("bare_response_web_search.json")).messages[0]
    [text] = answer.content
    assert isinstance(text, TextBlock)
    assert text.citations is not None and text.citations[0]["type"] == "url_citation"
    assert "annotations" not in text.extra[FORMAT_ID]


def test_hosted_items_and_references_stay_verbatim_in_place() -> None:
    payload = load("long_conversation.json")
    conversation = parse_one(payload)
    developer = conversation.messages[0]
    assert developer.role == "developer"
    assert ours(conversation, 0)["unmapped_items"] == [{"at": 1, "item": payload["input"][1]}]
    search = [m for m in conversation.messages if "unmapped_items" in m.extra.get(FORMAT_ID, {})]
    assert len(search) == 3
    assert conversation.extra[FORMAT_ID]["unmapped_tools"] == [
        {"at": 0, "tool": payload["tools"][0]},
        {"at": 3, "tool": payload["tools"][3]},
    ]
    answer = parse_one(load("bare_response_web_search.json")).messages[0]
    assert answer.extra[FORMAT_ID]["unmapped_items"][0]["item"]["type"] == "web_search_call"


def test_custom_tools_calls_and_allowed_tools() -> None:
    conversation = parse_one(load("long_conversation.json"))
    assert [tool.name for tool in conversation.tools] == ["create_ticket", "sql"]
    assert conversation.tools[1].extra[FORMAT_ID]["$type"] == "custom"
    assert conversation.tools[0].parameters is not None
    assert "$defs" in conversation.tools[0].parameters
    choice = conversation.tool_choice
    assert choice is not None and choice.type == "auto"
    assert choice.extra[FORMAT_ID]["$type"] == "allowed_tools"
    call = conversation.messages[2].content[2]
    assert isinstance(call, ToolUseBlock) and call.name == "sql" and call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.startswith("SELECT")
    assert ours(conversation, 3)["$type"] == "custom"


def test_media_parts_become_media_blocks() -> None:
    user = parse_one(load("multimodal_input.json")).messages[1].content
    _, url_image, data_image, pdf, by_id, by_url = user
    assert isinstance(url_image, ImageBlock) and url_image.source.type == "url"
    assert url_image.detail == "high"
    assert isinstance(data_image, ImageBlock)
    assert (data_image.source.type, data_image.source.media_type) == ("base64", "image/png")
    assert isinstance(pdf, DocumentBlock) and pdf.filename == "card-statement-2025-05.pdf"
    assert (pdf.source.type, pdf.source.media_type) == ("base64", "application/pdf")
    assert (
        isinstance(by_id, DocumentBlock) and by_id.source.file_id == "file-6F2ksmvXxt4VdoqmHRw6kL"
    )
    assert isinstance(by_url, DocumentBlock) and by_url.source.type == "url"


def test_refusals_and_tool_output_parts() -> None:
    answer = parse_one(load("refusal_exchange.json")).messages[-1]
    assert [type(block) for block in answer.content] == [RefusalBlock]
    output = parse_one(load("bare_items_custom_tool.json")).messages[3].content[0]
    assert isinstance(output, ToolResultBlock) and isinstance(output.content, list)
    assert [block.type for block in output.content] == ["text", "image"]


# --------------------------------------------------------------------------- exact shapes

_CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
_OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}

EDGE_PAYLOADS: dict[str, Any] = {
    "typed easy message": [{"type": "message", "role": "user", "content": "hi"}],
    "empty content list": [{"role": "user", "content": []}],
    "assistant input_text part": [
        {"role": "assistant", "content": [{"type": "input_text", "text": "a"}]}
    ],
    "empty assistant message": [
        {
            "type": "message",
            "role": "assistant",
            "content": [],
            "id": "msg_1",
            "status": "completed",
        }
    ],
    "two answers back to back": [
        {"role": "assistant", "content": "a"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "b"}]},
        {
            "role": "assistant",
            "content": [{"type": "output_text", "text": "c", "annotations": None}],
        },
    ],
    "only item references": [{"id": "msg_1"}, {"type": "item_reference", "id": "rs_2"}],
    "reference before a message": [{"id": "msg_1", "type": None}, {"role": "user", "content": "x"}],
    "unknown item type between calls": [
        _CALL,
        {"type": "future_call", "id": "fut_1", "payload": {"x": 1}},
        {**_CALL, "call_id": "c2"},
        _OUT,
        {**_OUT, "call_id": "c2", "output": []},
    ],
    "reasoning with nulls": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [],
            "content": None,
            "encrypted_content": None,
        }
    ],
    "reasoning with edited-looking text": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "a"}],
            "content": [{"type": "reasoning_text", "text": "b"}],
            "status": "completed",
        }
    ],
    "custom call with json input": [
        {"type": "custom_tool_call", "call_id": "c", "name": "g", "input": '{"a": 1}'},
        {
            "type": "custom_tool_call_output",
            "call_id": "c",
            "output": [{"type": "input_text", "text": "x"}],
        },
    ],
    "output with a name and nulls": [
        {"type": "function_call_output", "call_id": "x", "output": "", "name": "f", "id": None}
    ],
    "data uri with parameters": [
        {
            "role": "user",
            "content": [
                {
                    "type": "input_image",
                    "image_url": "data:image/png;name=a.png;base64,iVBO",
                    "detail": "auto",
                },
                {"type": "input_image", "image_url": "https://x/a.png", "file_id": "file-1"},
                {"type": "input_image", "image_url": None, "file_id": "file-2", "detail": "low"},
            ],
        }
    ],
    "files in every spelling": [
        {
            "role": "user",
            "content": [
                {"type": "input_file", "file_data": "JVBERi0x", "filename": "a.pdf"},
                {"type": "input_file", "file_data": "JVBERi0x"},
                {"type": "input_file", "file_url": "https://x/a.pdf", "file_id": "file-3"},
                {
                    "type": "input_file",
                    "file_data": "data:;base64,JVBE",
                    "file_url": "https://x/b.pdf",
                },
                {"type": "input_file", "file_id": "file-4", "detail": "high", "filename": None},
            ],
        }
    ],
    "request nulls and empties": {
        "model": None,
        "input": [],
        "instructions": None,
        "tools": [],
        "tool_choice": None,
        "temperature": None,
        "max_output_tokens": None,
    },
    "integers for floats": {"input": "x", "temperature": 0, "top_p": 1},
    "floats stay floats": {"input": "x", "temperature": 1.0, "top_p": 0.5},
    "string input beside instructions that are not text": {"input": "hi", "model": "m"},
    "tool choices": {
        "input": "x",
        "tools": [
            {
                "type": "function",
                "name": "f",
                "parameters": None,
                "strict": None,
                "description": None,
            },
            {"type": "custom", "name": "g"},
        ],
        "tool_choice": {"type": "custom", "name": "g"},
    },
    "function tool choice": {
        "input": "x",
        "tools": [{"type": "function", "name": "f"}],
        "tool_choice": {"type": "function", "name": "f"},
    },
    "hosted tool choice": {
        "input": "x",
        "tools": [
            {
                "type": "mcp",
                "server_label": "deepwiki",
                "server_url": "https://mcp.deepwiki.com/mcp",
            }
        ],
        "tool_choice": {"type": "mcp", "server_label": "deepwiki"},
    },
    "string choices": {
        "input": "x",
        "tools": [{"type": "function", "name": "f"}],
        "tool_choice": "required",
    },
    "response without object or usage": {"output": [{"role": "assistant", "content": "a"}]},
    "response with nothing out": {
        "object": "response",
        "id": None,
        "output": [],
        "status": "failed",
    },
    "response with only hosted output": {
        "object": "response",
        "output": [
            {"type": "image_generation_call", "id": "ig_1", "status": "completed", "result": "iVBO"}
        ],
    },
    "response with outputs run by the api": {
        "object": "response",
        "output": [_CALL, {**_OUT, "id": "fco_1"}, {"role": "assistant", "content": "done"}],
    },
    "exchange with an envelope": {
        "request": {"input": "x"},
        "response": {"object": "response", "output": [], "status": "queued"},
        "logged_at": "2025-06-01T10:00:00Z",
    },
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_still_render_requests_the_api_accepts(payload: Any) -> None:
    request = render_request(stored(parse_one(payload))).payload
    validate_openai_responses_request(request)
    check_openai_responses_rules(request)


def test_an_exchange_renders_as_the_next_request() -> None:
    payload = load("exchange_reasoning_usage.json")
    request = render_request(parse_one(payload)).payload
    reasoning, message = payload["response"]["output"]
    # The answer's items go back as they came: the reasoning with its id, the message
    # that followed it with its own.
    assert request["input"][2:] == [reasoning, message]
    assert [item["role"] for item in request["input"][:2]] == ["developer", "user"]
    assert request["reasoning"] == {"effort": "high", "summary": "detailed"}


def test_answers_with_an_id_go_back_in_full_output_form() -> None:
    payload = [
        {"role": "assistant", "id": "msg_1", "content": [{"type": "input_text", "text": "a"}]},
        {"role": "assistant", "id": "msg_2", "content": "b"},
        {"role": "assistant", "id": "not_a_message_id", "content": "c"},
    ]
    request = render_request(parse_one(payload))
    validate_openai_responses_request(request.payload)
    assert request.payload["input"] == [
        {
            "role": "assistant",
            "id": f"msg_{number}",
            "type": "message",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        for number, text in ((1, "a"), (2, "b"))
    ] + [{"role": "assistant", "content": "c"}]
    assert [(w.category, w.field, w.original_value) for w in request.warnings] == [
        ("id-rewritten", "messages[0].content[2].id", "not_a_message_id"),
        ("parameter-defaulted", "parameters.model", None),
    ]


def test_a_conversation_edited_after_import_still_renders() -> None:
    conversation = parse_one(load("bare_response_incomplete.json"))
    answer = conversation.messages[0]
    answer.content[0] = ThinkingBlock(
        text="rewritten", provider=FORMAT_ID, extra=answer.content[0].extra
    )
    answer.content.append(TextBlock(text="added later"))
    output = RESPONSES.render(conversation).payload["output"]
    assert output[0]["summary"] == [{"type": "summary_text", "text": "rewritten"}]
    assert output[-1] == {"role": "assistant", "content": "added later"}


def test_an_unanswered_conversation_renders_its_request() -> None:
    conversation = parse_one(load("refusal_exchange.json"))
    conversation.messages.pop()
    payload = RESPONSES.render(conversation).payload
    assert payload == load("refusal_exchange.json")["request"]


# --------------------------------------------------------------------------- bad input

_USER = {"role": "user", "content": "hi"}

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": ("hello", "payload"),
    "no input": ({"model": "m"}, "input"),
    "input a number": ({"input": 3}, "input"),
    "item not an object": ([_USER, "hi"], "[1]"),
    "item without type or role": ([{"content": "hi"}], "[0].type"),
    "item type a number": ([{"type": 3}], "[0].type"),
    "reserved key": ([{"role": "user", "content": "x", "$content": "string"}], "[0].$content"),
    "unknown role": ({"input": [{"role": "tool", "content": "hi"}]}, "input[0].role"),
    "message without content": ([{"role": "user"}], "[0].content"),
    "content a number": ({"input": [_USER, {"role": "user", "content": 3}]}, "input[1].content"),
    "part without type": ([{"role": "user", "content": [{"text": "a"}]}], "[0].content[0].type"),
    "chat part type": (
        [{"role": "user", "content": [{"type": "text", "text": "a"}]}],
        "[0].content[0].type",
    ),
    "text not a string": (
        [{"role": "user", "content": [{"type": "input_text", "text": 1}]}],
        "[0].content[0].text",
    ),
    "image with no source": (
        [{"role": "user", "content": [{"type": "input_image", "detail": "auto"}]}],
        "[0].content[0]",
    ),
    "image url a number": (
        [{"role": "user", "content": [{"type": "input_image", "image_url": 5}]}],
        "[0].content[0].image_url",
    ),
    "file with no source": (
        [{"role": "user", "content": [{"type": "input_file", "filename": "a.pdf"}]}],
        "[0].content[0]",
    ),
    "refusal not a string": (
        [{"role": "assistant", "content": [{"type": "refusal", "refusal": None}]}],
        "[0].content[0].refusal",
    ),
    "call without call_id": (
        [{"type": "function_call", "name": "f", "arguments": "{}"}],
        "[0].call_id",
    ),
    "arguments an object": (
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}],
        "[0].arguments",
    ),
    "custom call without input": (
        [{"type": "custom_tool_call", "call_id": "c", "name": "f"}],
        "[0].input",
    ),
    "output without call_id": ([{"type": "function_call_output", "output": "x"}], "[0].call_id"),
    "output without output": ([{"type": "function_call_output", "call_id": "c"}], "[0].output"),
    "output an object": (
        [{"type": "function_call_output", "call_id": "c", "output": {"a": 1}}],
        "[0].output",
    ),
    "reasoning without summary": ([{"type": "reasoning", "id": "rs_1"}], "[0].summary"),
    "summary part without text": (
        [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text"}]}],
        "[0].summary[0].text",
    ),
    "encrypted content a number": (
        [{"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": 1}],
        "[0].encrypted_content",
    ),
    "instructions a list": ({"input": "x", "instructions": ["a"]}, "instructions"),
    "temperature a string": ({"input": "x", "temperature": "0.7"}, "temperature"),
    "max_output_tokens a float": ({"input": "x", "max_output_tokens": 1.5}, "max_output_tokens"),
    "tools not a list": ({"input": "x", "tools": {}}, "tools"),
    "tool without type": ({"input": "x", "tools": [{"name": "f"}]}, "tools[0].type"),
    "function tool without name": (
        {"input": "x", "tools": [{"type": "function"}]},
        "tools[0].name",
    ),
    "tool parameters a list": (
        {"input": "x", "tools": [{"type": "function", "name": "f", "parameters": []}]},
        "tools[0].parameters",
    ),
    "tool_choice unknown": ({"input": "x", "tool_choice": "any"}, "tool_choice"),
    "tool_choice without name": (
        {"input": "x", "tool_choice": {"type": "function"}},
        "tool_choice.name",
    ),
    "allowed tools bad mode": (
        {"input": "x", "tool_choice": {"type": "allowed_tools", "mode": "none", "tools": []}},
        "tool_choice.mode",
    ),
    "exchange without response": ({"request": {"input": "x"}}, "response"),
    "exchange request without input": (
        {"request": {}, "response": {"output": []}},
        "request.input",
    ),
    "exchange with a bad item": (
        {"request": {"input": [_USER, {"role": "user", "content": 1}]}, "response": {"output": []}},
        "request.input[1].content",
    ),
    "response output not a list": ({"object": "response", "output": {}}, "output"),
    "response output from the user": ({"output": [_USER]}, "output[0].role"),
    "response status a number": ({"output": [], "status": 1}, "status"),
    "response incomplete details a string": (
        {"output": [], "status": "incomplete", "incomplete_details": "max"},
        "incomplete_details",
    ),
    "response id a number": ({"output": [], "id": 7}, "id"),
    "usage a list": ({"output": [], "usage": []}, "usage"),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "input"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        RESPONSES.parse(payload)
    assert raised.value.field == field


# --------------------------------------------------------------------------- fuzzing

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
_SEEDS = [orjson.loads(path.read_bytes()) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


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
    copy = orjson.loads(orjson.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return copy


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(_SEEDS))
    path = data.draw(st.sampled_from(_nodes(seed)))
    delete = bool(path) and data.draw(st.booleans())
    payload = _mutate(seed, path, data.draw(_JSON), delete)
    try:
        conversation = parse_one(payload)
    except FormatError:
        return
    rendered = RESPONSES.render(stored(conversation))
    assert canonical(rendered.payload) == canonical(payload)
    request = render_request(stored(conversation)).payload
    check_openai_responses_rules(request)


def test_messages_built_by_hand_render_too() -> None:
    conversation = Conversation(messages=[Message(role="user", content=[TextBlock(text="hi")])])
    assert RESPONSES.render(conversation).payload["input"] == [{"role": "user", "content": "hi"}]
