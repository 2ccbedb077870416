"""The ``mistral`` format: reading Mistral chat payloads and writing them back exactly.

Conversions from other formats are in ``mistral/``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from providers.umf import (
    AudioBlock,
    DocumentBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats._mutations import draw_mutation
from tests.providers.formats.chat_completions import _helpers as family
from tests.providers.formats.chat_completions._helpers import (
    canonical,
    fixtures_of,
    load,
    stored,
)
from tests.providers.sdk.mistral import (
    validate_mistral_response,
)

MISTRAL = formats.get("mistral")
FIXTURES = fixtures_of("mistral")
FIXTURE_DIR = FIXTURES[0].parent


def fixture(name: str) -> Any:
    return load(FIXTURE_DIR / f"{name}.json")


parse_one_without_warnings = partial(family.parse_one_without_warnings, "mistral")
assert_round_trips = partial(family.assert_round_trips, "mistral")
shape_of = partial(family.shape_of, "mistral")


def test_a_bare_response_is_read_and_written_back() -> None:
    # Not a fixture: a bare chat.completion is OpenAI's too, so auto-detection cannot
    # tell them apart; read as mistral it round-trips all the same.
    response = fixture("exchange_usage")["response"]
    assert shape_of(parse_one_without_warnings(response)) == "response"
    assert_round_trips(response)
    validate_mistral_response(response)


# --------------------------------------------------------------------------- what parse reads


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = fixture("exchange_usage")
    conversation = parse_one_without_warnings(payload)
    answer = conversation.messages[-1]
    thinking, text = answer.content
    assert isinstance(thinking, ThinkingBlock) and thinking.provider == "mistral"
    assert thinking.text.startswith("Departure 9:57.")
    assert isinstance(text, TextBlock) and text.text.startswith("Leaving 17 minutes late")
    assert (answer.id, answer.model) == ("5c1bd7fbc1b84b7c9e5bbd1f9e4a6a52", "magistral-small-2509")
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "stop")
    assert answer.usage == Usage(
        prompt_tokens=412,
        completion_tokens=868,
        total_tokens=1280,
        raw=payload["response"]["usage"],
    )
    assert answer.timestamp == datetime(2025, 9, 8, 14, 35, 12, tzinfo=UTC)
    assert conversation.metadata.provider_response_id == answer.id
    kept = conversation.extra["mistral"]
    assert kept["$exchange"] == {"logged_at": "2025-09-08T14:35:12.418Z", "latency_ms": 6114}
    assert kept["prompt_mode"] == "reasoning"
    assert answer.extra["mistral"]["tool_calls"] is None


def test_thinking_calls_and_named_results_are_read() -> None:
    conversation = parse_one_without_warnings(fixture("magistral_thinking_tools"))
    thinking, airbus, _ = conversation.messages[2].content
    assert isinstance(thinking, ThinkingBlock) and thinking.text.startswith("Airbus trades")
    assert (thinking.provider, thinking.signature) == (
        "mistral",
        "bXN0LXRoaW5rLXYxOjdmM2ExYzkyOmUwYjQ1ZDYxYTk4YzQyZjM5YjA3NmMxZThkMmY1YTQz",
    )
    assert isinstance(airbus, ToolUseBlock) and airbus.input == {"ticker": "AIR.PA"}
    assert airbus.raw_arguments == '{"ticker": "AIR.PA"}'
    assert airbus.extra == {"mistral": {"index": 0}}
    error = conversation.messages[4]
    assert (error.role, error.name, error.tool_call_id) == ("tool", "get_stock_price", "kF3xQ9mZ2")
    assert error.content == [
        ToolResultBlock(
            tool_use_id="kF3xQ9mZ2",
            name="get_stock_price",
            content="Error: quote service timed out after 10s (HTTP 504)",
        )
    ]
    assert conversation.messages[5].content[0].extra == {"mistral": {"closed": True}}
    assert conversation.parameters.parallel_tool_calls is True
    assert conversation.tools[1].extra == {"mistral": {"strict": True}}


def test_media_chunks_become_media_blocks() -> None:
    conversation = parse_one_without_warnings(fixture("multimodal_documents_audio"))
    url_image, data_image, pdf = conversation.messages[1].content[1:]
    assert isinstance(url_image, ImageBlock) and url_image.source.type == "url"
    assert isinstance(data_image, ImageBlock) and data_image.detail == "high"
    assert (data_image.source.type, data_image.source.media_type) == ("base64", "image/jpeg")
    assert isinstance(pdf, DocumentBlock) and pdf.filename == "POL-55310.pdf"
    assert pdf.source.url == "https://claims.example.com/policies/POL-55310.pdf"
    invoice = conversation.messages[3].content[1]
    assert isinstance(invoice, DocumentBlock)
    assert (invoice.source.type, invoice.source.file_id) == (
        "file",
        "b5e1c7a2-4d2f-4c1e-9a3b-2f1d8e6c0a77",
    )
    audio = conversation.messages[5].content[0]
    assert isinstance(audio, AudioBlock)
    assert (audio.source.type, audio.source.media_type) == ("base64", "audio/wav")
    assert conversation.parameters.seed == 1337


def test_object_arguments_and_any_tool_choice() -> None:
    conversation = parse_one_without_warnings(fixture("tool_choice_any_object_arguments"))
    call = conversation.messages[1].content[1]
    assert isinstance(call, ToolUseBlock) and call.raw_arguments is None
    assert call.input["priority"] == "high"
    assert call.extra == {"mistral": {"$arguments": "object"}}
    assert conversation.tool_choice is not None and conversation.tool_choice.type == "required"


def test_unmapped_chunks_and_tools_are_kept_with_their_positions() -> None:
    payload = fixture("document_library_references")
    conversation = parse_one_without_warnings(payload)
    assert conversation.tools == []
    assert conversation.extra["mistral"]["unmapped_tools"] == [
        {"at": 0, "tool": payload["tools"][0]}
    ]
    answer = conversation.messages[1]
    assert [block.type for block in answer.content] == ["text", "text", "text"]
    assert answer.extra["mistral"]["unmapped_chunks"] == [
        {"at": 1, "chunk": {"type": "reference", "reference_ids": [0]}},
        {"at": 3, "chunk": {"type": "reference", "reference_ids": [0, 2]}},
    ]


def test_prefix_and_long_conversation_fields_stay_verbatim() -> None:
    prefill = parse_one_without_warnings(fixture("bare_messages")).messages[-1]
    assert prefill.extra == {"mistral": {"prefix": True}}
    conversation = parse_one_without_warnings(fixture("long_conversation"))
    assert conversation.extra["mistral"]["safe_prompt"] is True
    assert conversation.extra["mistral"]["$stop"] == "string"
    assert conversation.extra["mistral"]["$int_parameters"] == ["temperature"]
    assert (conversation.parameters.seed, conversation.parameters.stop) == (20251103, ["\n\nUser:"])


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("stop", "stop"),
        ("length", "length"),
        ("model_length", "length"),
        ("tool_calls", "tool_calls"),
        ("error", "error"),
        ("something_new", None),
    ],
)
def test_finish_reasons_are_normalised(raw: str, normalised: str | None) -> None:
    response = fixture("exchange_usage")["response"]
    response["choices"][0]["finish_reason"] = raw
    message = parse_one_without_warnings(response).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (normalised, raw)
    assert_round_trips(response)


# --------------------------------------------------------------------------- exact shapes

_USER = {"role": "user", "content": "hi"}
_CALL = {"id": "abcDEF123", "type": "function", "function": {"name": "f", "arguments": "{}"}}

EDGE_PAYLOADS: dict[str, Any] = {
    "content absent, null and empty": [
        {"role": "assistant", "tool_calls": [_CALL]},
        {"role": "tool", "tool_call_id": "abcDEF123"},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "tool", "content": None, "tool_call_id": None, "name": None},
        {"role": "user", "content": []},
        {"role": "tool", "content": "x"},
    ],
    "one text chunk and odd fields": [
        {"role": "system", "content": [{"type": "text", "text": "a"}]},
        {"role": "user", "content": [{"type": "text", "text": "b", "x": 1}], "y": None},
    ],
    "image forms": [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "https://x/a.png"}},
                {"type": "image_url", "image_url": {"url": "https://x/b.png", "detail": None}},
                {"type": "image_url", "image_url": "data:image/png;name=a;base64,iVBO"},
                {"type": "image_url", "image_url": {"url": "data:;base64,iVBO", "z": 2}},
            ],
        }
    ],
    "documents, audio and files": [
        {
            "role": "user",
            "content": [
                {"type": "document_url", "document_url": "data:application/pdf;base64,JVBE"},
                {"type": "document_url", "document_url": "https://x/a.pdf", "document_name": None},
                {"type": "input_audio", "input_audio": "data:audio/mpeg;base64,SUQz"},
                {"type": "input_audio", "input_audio": "AAAA"},
                {"type": "file", "file_id": "f-1", "extra": True},
            ],
        }
    ],
    "thinking forms": [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": [], "signature": None},
                {
                    "type": "thinking",
                    "thinking": [
                        {"type": "text", "text": "a"},
                        {"type": "tool_reference", "tool": "web_search", "title": "t"},
                        {"type": "text", "text": "b", "x": 1},
                    ],
                    "signature": "c2ln",
                },
            ],
        },
        {
            "role": "system",
            "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "s"}]}],
        },
    ],
    "unmapped chunks everywhere": [
        {"role": "user", "content": [{"type": "resource_link", "uri": "file:///a"}]},
        {
            "role": "tool",
            "tool_call_id": "x",
            "content": [{"type": "reference", "reference_ids": ["a"]}],
        },
        {
            "role": "assistant",
            "content": [{"type": "reference", "reference_ids": [1]}, {"type": "text", "text": "t"}],
        },
    ],
    "call forms": [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "x", "function": {"name": "f", "arguments": " {", "y": 1}},
                {"id": "null", "type": "function", "function": {"name": "g", "arguments": {}}},
            ],
            "prefix": False,
        }
    ],
    "nulls everywhere": {
        "model": None,
        "messages": [_USER],
        "temperature": None,
        "stop": None,
        "tools": None,
        "tool_choice": None,
        "random_seed": None,
        "response_format": None,
    },
    "integers for floats and a stop list": {
        "model": "m",
        "messages": [_USER],
        "temperature": 0,
        "top_p": 1,
        "presence_penalty": -1,
        "stop": ["a", "b"],
    },
    "empty tools": {"model": "m", "messages": [_USER], "tools": [], "stream": True},
    "tool choices": {
        "model": "m",
        "messages": [_USER],
        "tools": [{"function": {"name": "f", "parameters": {}, "description": None}, "x": 1}],
        "tool_choice": {"function": {"name": "f", "y": 2}, "z": 3},
    },
    "tool choice required": {"model": "m", "messages": [_USER], "tool_choice": "required"},
    "tool choice none": {"model": "m", "messages": [_USER], "tool_choice": "none"},
    "response without object or usage": {
        "choices": [{"message": {"content": "a"}, "finish_reason": None}]
    },
    "response with several choices": {
        "id": None,
        "object": "chat.completion",
        "usage": {"prompt_tokens": 1, "prompt_tokens_details": {"cached_tokens": 1}},
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "a"},
                "finish_reason": "length",
            },
            {"index": 1, "message": {"role": "assistant", "content": "b"}, "finish_reason": "stop"},
        ],
    },
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


# --------------------------------------------------------------------------- bad input

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": (3, "payload"),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "messages"),
    "messages not a list": ({"messages": "hi"}, "messages"),
    "unknown role": ([{"role": "developer", "content": "hi"}], "[0].role"),
    "content an object": ([{"role": "user", "content": {"text": "a"}}], "[0].content"),
    "unknown chunk": (
        [{"role": "user", "content": [{"type": "input_text"}]}],
        "[0].content[0].type",
    ),
    "image chunk in a system message": (
        [{"role": "system", "content": [_USER, {"type": "image_url", "image_url": "x"}]}],
        "[0].content[0].type",
    ),
    "audio as an object": (
        [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AA"}}]}],
        "[0].content[0].input_audio",
    ),
    "image url a number": (
        [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": 1}}]}],
        "[0].content[0].image_url.url",
    ),
    "document name a number": (
        [
            {
                "role": "user",
                "content": [{"type": "document_url", "document_url": "u", "document_name": 1}],
            }
        ],
        "[0].content[0].document_name",
    ),
    "thinking not a list": (
        [{"role": "assistant", "content": [{"type": "thinking", "thinking": "x"}]}],
        "[0].content[0].thinking",
    ),
    "a reserved field": (
        [{"role": "user", "content": "a", "unmapped_chunks": []}],
        "[0].unmapped_chunks",
    ),
    "tool call without id": (
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        "[0].tool_calls[0].id",
    ),
    "arguments a list": (
        [
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": []}}],
            }
        ],
        "[0].tool_calls[0].function.arguments",
    ),
    "tool name a number": ([{"role": "tool", "tool_call_id": "c", "name": 1}], "[0].name"),
    "tool_choice unknown": ({"messages": [_USER], "tool_choice": "REQUIRED"}, "tool_choice"),
    "random_seed a float": ({"messages": [_USER], "random_seed": 1.5}, "random_seed"),
    "tool without a name": (
        {"messages": [_USER], "tools": [{"type": "function", "function": {}}]},
        "tools[0].function.name",
    ),
    "exchange without response": ({"request": {"messages": [_USER]}}, "response"),
    "response with no choice": ({"choices": []}, "choices"),
    "choice message from the user": ({"choices": [{"message": _USER}]}, "choices[0].message.role"),
    "usage a string": ({"choices": [{"message": {"content": "a"}}], "usage": "x"}, "usage"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        MISTRAL.parse(payload)
    assert raised.value.field == field


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [load(path) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    payload = draw_mutation(data, _SEEDS)
    try:
        [item] = MISTRAL.parse(payload)
    except FormatError:
        return
    rendered = MISTRAL.render(stored(item.conversation))
    assert canonical(rendered.payload) == canonical(payload)
