"""The ``cohere`` format: reading Cohere v2 chat payloads and writing them back exactly.

Conversions from other formats are in ``cohere/``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from providers.umf import (
    DocumentBlock,
    ImageBlock,
    MediaSource,
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

COHERE = formats.get("cohere")
FIXTURES = fixtures_of("cohere")
FIXTURE_DIR = FIXTURES[0].parent


def fixture(name: str) -> Any:
    return load(FIXTURE_DIR / f"{name}.json")


parse_one_without_warnings = partial(family.parse_one_without_warnings, "cohere")
assert_round_trips = partial(family.assert_round_trips, "cohere")
shape_of = partial(family.shape_of, "cohere")


# --------------------------------------------------------------------------- what parse reads


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = fixture("exchange_reasoning_usage")
    conversation = parse_one_without_warnings(payload)
    answer = conversation.messages[-1]
    thinking, text = answer.content
    assert isinstance(thinking, ThinkingBlock) and thinking.provider == "cohere"
    assert thinking.text.startswith("3% of 1,380 is 41.4")
    assert isinstance(text, TextBlock) and text.text.startswith("About 331 late orders")
    assert (answer.id, answer.model) == (
        "0f6f1b2e-51c4-4d0c-9f47-6a2b9f8e3c15",
        "command-a-reasoning-08-2025",
    )
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "COMPLETE")
    assert answer.usage == Usage(
        prompt_tokens=538,
        completion_tokens=239,
        total_tokens=777,
        cached_tokens=448,
        raw=payload["response"]["usage"],
    )
    assert conversation.metadata.provider_response_id == answer.id
    assert conversation.extra["cohere"]["$exchange"] == {"latency_ms": 3877}
    assert conversation.extra["cohere"]["thinking"] == {"type": "enabled", "token_budget": 2048}


def test_tool_plan_calls_and_document_results_are_read() -> None:
    conversation = parse_one_without_warnings(fixture("tool_loop_documents"))
    plan, paris, weather = conversation.messages[2].content
    assert isinstance(plan, TextBlock) and plan.extra == {"cohere": {"$field": "tool_plan"}}
    assert isinstance(paris, ToolUseBlock) and paris.name == "get_train_status"
    assert paris.input == {
        "origin": "Lyon Part-Dieu",
        "destination": "Paris Gare de Lyon",
        "departure": "08:12",
    }
    assert isinstance(weather, ToolUseBlock) and weather.raw_arguments == '{"city":"Paris"}'
    [result] = conversation.messages[3].content
    assert isinstance(result, ToolResultBlock) and result.name == "get_train_status"
    assert result.tool_use_id == paris.id == conversation.messages[3].tool_call_id
    assert isinstance(result.content, list)
    [document] = result.content
    assert document == DocumentBlock(
        source=MediaSource(
            type="text",
            media_type="application/json",
            data='{"train":"TGV 6604","status":"delayed","delay_minutes":14,"platform":"K"}',
        ),
        extra={"cohere": {"$id": "train_6604"}},
    )
    assert conversation.extra["cohere"]["strict_tools"] is True


def test_citations_ride_on_the_first_text_block() -> None:
    payload = fixture("tool_loop_documents")
    answer = parse_one_without_warnings(payload).messages[5]
    [text] = answer.content
    assert isinstance(text, TextBlock)
    assert text.citations == payload["messages"][5]["citations"]
    assert "citations" not in answer.extra.get("cohere", {})


def test_request_documents_stay_verbatim() -> None:
    payload = fixture("rag_documents_citations")
    kept = parse_one_without_warnings(payload).extra["cohere"]
    assert kept["documents"] == payload["documents"]
    assert kept["citation_options"] == {"mode": "ACCURATE"}


def test_sampling_parameters_are_read() -> None:
    conversation = parse_one_without_warnings(fixture("vision_sampling"))
    parameters = conversation.parameters
    assert (parameters.top_p, parameters.top_k, parameters.seed) == (0.75, 40, 7)
    assert parameters.stop == ["</answer>"]
    assert parameters.temperature == 0.0
    assert conversation.extra["cohere"]["$int_parameters"] == ["temperature"]
    images = conversation.messages[1].content[1:]
    assert [(i.source.type, i.detail) for i in images if isinstance(i, ImageBlock)] == [
        ("url", None),
        ("base64", "high"),
    ]


def test_bare_response_tool_calls_and_usage() -> None:
    message = parse_one_without_warnings(fixture("bare_response")).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == ("tool_calls", "TOOL_CALL")
    assert [type(block) for block in message.content] == [TextBlock, ToolUseBlock, ToolUseBlock]
    assert message.usage is not None and message.usage.cached_tokens == 1536


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("COMPLETE", "stop"),
        ("STOP_SEQUENCE", "stop"),
        ("MAX_TOKENS", "length"),
        ("TOOL_CALL", "tool_calls"),
        ("ERROR", "error"),
        ("TIMEOUT", "error"),
        ("SOMETHING_NEW", None),
    ],
)
def test_finish_reasons_are_normalised(raw: str, normalised: str | None) -> None:
    response = {**fixture("bare_response"), "finish_reason": raw}
    message = parse_one_without_warnings(response).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (normalised, raw)
    assert_round_trips(response)


def test_usage_falls_back_to_billed_units() -> None:
    response = {**fixture("bare_response"), "usage": {"billed_units": {"input_tokens": 9.0}}}
    usage = parse_one_without_warnings(response).messages[0].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (9, None, None)


# --------------------------------------------------------------------------- exact shapes

_USER = {"role": "user", "content": "hi"}
_CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}

EDGE_PAYLOADS: dict[str, Any] = {
    "content absent and null": [
        {"role": "assistant", "tool_calls": [_CALL]},
        {"role": "tool", "tool_call_id": "c1"},
        {"role": "assistant", "content": None},
        {"role": "tool", "tool_call_id": "c1", "content": None},
    ],
    "content empty list and one text part": [
        {"role": "user", "content": []},
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "system", "content": [{"type": "text", "text": "a", "extra": 1}]},
    ],
    "string content beside calls": [
        {"role": "assistant", "content": "", "tool_plan": "", "tool_calls": [_CALL]}
    ],
    "call without type and odd fields": [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c", "function": {"name": "f", "arguments": " {", "x": 1}, "y": 2}
            ],
        }
    ],
    "tool content as text parts": [
        {"role": "tool", "tool_call_id": "x", "content": [{"type": "text", "text": "a"}]}
    ],
    "documents with string data and fields": [
        {
            "role": "tool",
            "tool_call_id": "x",
            "content": [
                {"type": "document", "document": {"data": "plain", "id": "d"}, "z": 1},
                {"type": "document", "document": {"data": {"n": 1.0, "m": [1, None]}, "k": 2}},
            ],
        },
        {"role": "user", "content": [{"type": "document", "document": {"data": {"title": "t"}}}]},
    ],
    "citations without text and empty citations": [
        {"role": "assistant", "tool_plan": "p", "citations": [{"type": "PLAN"}]},
        {"role": "assistant", "content": "a", "citations": []},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}], "citations": "x"},
    ],
    "image data uri with parameters and odd detail": [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;name=a;base64,iVBO"}},
                {"type": "image_url", "image_url": {"url": "https://x/y.png", "detail": "zoom"}},
                {"type": "image_url", "image_url": {"url": "data:;base64,iVBO", "detail": None}},
            ],
        }
    ],
    "nulls everywhere": {
        "model": None,
        "messages": [{"role": "user", "content": "x", "extra": None}],
        "temperature": None,
        "stop_sequences": None,
        "tools": None,
        "tool_choice": None,
        "k": None,
    },
    "integers for floats": {"model": "m", "messages": [_USER], "temperature": 1, "p": 0, "seed": 3},
    "floats stay floats": {"model": "m", "messages": [_USER], "temperature": 1.0, "p": 0.5},
    "empty tools and stop sequences": {
        "model": "m",
        "messages": [_USER],
        "tools": [],
        "stop_sequences": [],
        "stream": False,
    },
    "tool without type, description null": {
        "messages": [_USER],
        "tools": [{"function": {"name": "f", "description": None, "parameters": {}}, "x": 1}],
        "tool_choice": "NONE",
    },
    "response without usage": {"finish_reason": "COMPLETE", "message": {"role": "assistant"}},
    "response with null id and logprobs": {
        "id": None,
        "finish_reason": "MAX_TOKENS",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
        "usage": {"tokens": {"input_tokens": 1.5}},
        "logprobs": [{"token_ids": [1], "text": "a"}],
    },
    "exchange without a request model": {
        "request": {"messages": [_USER]},
        "response": {"id": "r", "finish_reason": "COMPLETE", "message": {"role": "assistant"}},
    },
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


# --------------------------------------------------------------------------- bad input

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": ("hello", "payload"),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "messages"),
    "messages not a list": ({"messages": {"role": "user"}}, "messages"),
    "message not an object": ([_USER, "hi"], "[1]"),
    "unknown role": ([{"role": "developer", "content": "hi"}], "[0].role"),
    "content a number": (
        {"messages": [_USER, {"role": "user", "content": 3}]},
        "messages[1].content",
    ),
    "part of another role": (
        [{"role": "user", "content": [{"type": "thinking", "thinking": "x"}]}],
        "[0].content[0].type",
    ),
    "anthropic block": (
        [{"role": "assistant", "content": [{"type": "tool_use", "id": "x"}]}],
        "[0].content[0].type",
    ),
    "text not a string": (
        [{"role": "user", "content": [{"type": "text", "text": 1}]}],
        "[0].content[0].text",
    ),
    "image_url a string": (
        [{"role": "user", "content": [{"type": "image_url", "image_url": "https://x"}]}],
        "[0].content[0].image_url",
    ),
    "document data a list": (
        [
            {
                "role": "tool",
                "tool_call_id": "x",
                "content": [{"type": "document", "document": {"data": []}}],
            }
        ],
        "[0].content[0].document.data",
    ),
    "tool_plan not a string": ([{"role": "assistant", "tool_plan": ["x"]}], "[0].tool_plan"),
    "tool call without id": (
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        "[0].tool_calls[0].id",
    ),
    "arguments an object": (
        [
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {}}}],
            }
        ],
        "[0].tool_calls[0].function.arguments",
    ),
    "tool message without tool_call_id": ([{"role": "tool", "content": "a"}], "[0].tool_call_id"),
    "tool_choice lower case": ({"messages": [_USER], "tool_choice": "required"}, "tool_choice"),
    "k a float": ({"messages": [_USER], "k": 1.5}, "k"),
    "stop_sequences a string": ({"messages": [_USER], "stop_sequences": "x"}, "stop_sequences"),
    "tool of unknown type": ({"messages": [_USER], "tools": [{"type": "web"}]}, "tools[0].type"),
    "exchange without response": ({"request": {"messages": [_USER]}}, "response"),
    "response message from the user": (
        {"finish_reason": "COMPLETE", "message": _USER},
        "message.role",
    ),
    "finish reason a number": (
        {"finish_reason": 1, "message": {"role": "assistant"}},
        "finish_reason",
    ),
    "usage a list": ({"message": {"role": "assistant"}, "usage": []}, "usage"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        COHERE.parse(payload)
    assert raised.value.field == field


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [load(path) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    payload = draw_mutation(data, _SEEDS)
    try:
        [item] = COHERE.parse(payload)
    except FormatError:
        return
    rendered = COHERE.render(stored(item.conversation))
    assert canonical(rendered.payload) == canonical(payload)
