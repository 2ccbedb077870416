"""``openai-chat`` edge-case payload shapes written back exactly and rendered as valid
requests, and a mutation fuzzer that checks any payload is read exactly or refused."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from providers.formats.openai_chat import render_request
from tests.providers.formats._mutations import draw_mutation
from tests.providers.formats.openai_chat._helpers import (
    _CALL,
    _USER,
    FIXTURES,
    OPENAI_CHAT,
    assert_round_trips,
    canonical,
    parse_one,
    stored,
)
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
)

# --------------------------------------------------------------------------- exact shapes


EDGE_PAYLOADS: dict[str, Any] = {
    "content absent": [
        {"role": "assistant", "tool_calls": [_CALL]},
        {"role": "tool", "tool_call_id": "call_1"},
    ],
    "content null without calls": [{"role": "user", "content": None}],
    "content empty list": [{"role": "user", "content": []}],
    "one text part": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    "empty string beside calls": [{"role": "assistant", "content": "", "tool_calls": [_CALL]}],
    "tool content null": [{"role": "tool", "tool_call_id": "x", "content": None}],
    "tool content parts": [
        {"role": "tool", "tool_call_id": "x", "content": [{"type": "text", "text": "a"}]}
    ],
    "tool name": [{"role": "tool", "tool_call_id": "x", "content": "a", "name": "f"}],
    "nulls everywhere": {
        "model": None,
        "messages": [{"role": "user", "content": "x", "name": None}],
        "temperature": None,
        "stop": None,
        "tools": None,
        "tool_choice": None,
        "max_tokens": None,
    },
    "integers for floats": {
        "model": "m",
        "messages": [_USER],
        "temperature": 1,
        "top_p": 0,
        "presence_penalty": -1,
    },
    "floats stay floats": {"model": "m", "messages": [_USER], "temperature": 1.0, "top_p": 0.5},
    "both token limits": {
        "model": "m",
        "messages": [_USER],
        "max_tokens": 5,
        "max_completion_tokens": 6,
    },
    "stop list and empty list": {"model": "m", "messages": [_USER], "stop": []},
    "empty tools and tool_calls": {
        "model": "m",
        "messages": [{"role": "assistant", "content": "a", "tool_calls": []}],
        "tools": [],
    },
    "request without model": {"messages": [_USER]},
    "data uri with parameters": [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/png;name=a.png;base64,iVBO"}}
            ],
        }
    ],
    "data uri without media type": [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:;base64,iVBO", "detail": None}}
            ],
        }
    ],
    "bare base64 file data": [
        {
            "role": "user",
            "content": [{"type": "file", "file": {"file_data": "JVBERi0x", "filename": "a.pdf"}}],
        }
    ],
    "file data and id": [
        {
            "role": "user",
            "content": [
                {
                    "type": "file",
                    "file": {"file_data": "data:application/pdf;base64,JVBE", "file_id": "file-1"},
                }
            ],
        }
    ],
    "audio formats": [
        {
            "role": "user",
            "content": [
                {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "mp3"}},
                {
                    "type": "input_audio",
                    "input_audio": {"data": "AAAA", "format": "mpeg", "rate": 8000},
                },
            ],
        }
    ],
    "unknown part and call fields": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "a", "prompt_cache_breakpoint": {"mode": "explicit"}}
            ],
        },
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "b"}, {"type": "refusal", "refusal": "no"}],
            "tool_calls": [
                {"id": "c", "function": {"name": "f", "arguments": " {} ", "x": 1}, "index": 0}
            ],
            "reasoning_content": "vendor extension",
        },
    ],
    "annotations with parts stay verbatim": [
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}],
            "annotations": [{"type": "url_citation"}],
        }
    ],
    "function choice and custom choice": {
        "model": "m",
        "messages": [_USER],
        "tools": [{"type": "function", "function": {"name": "f", "description": None}, "extra": 1}],
        "tool_choice": {"type": "function", "function": {"name": "f"}},
    },
    "custom tool choice": {
        "model": "m",
        "messages": [_USER],
        "tools": [{"type": "custom", "custom": {"name": "g"}}],
        "tool_choice": {"type": "custom", "custom": {"name": "g"}},
    },
    "several choices and a null finish reason": {
        "object": "chat.completion",
        "id": None,
        "usage": None,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "a"}, "finish_reason": None},
            {
                "index": 1,
                "message": {"role": "assistant", "content": "b"},
                "finish_reason": "length",
            },
        ],
    },
    "response without object or usage": {
        "choices": [{"message": {"role": "assistant", "content": "a"}}]
    },
    "legacy function without a call": [{"role": "function", "name": "f", "content": None}],
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_still_render_requests_openai_accepts(payload: Any) -> None:
    request = render_request(stored(parse_one(payload))).payload
    validate_openai_chat_request(request)
    check_openai_chat_tool_pairing(request)


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [orjson.loads(path.read_bytes()) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    payload = draw_mutation(data, _SEEDS)
    try:
        conversation = parse_one(payload)
    except FormatError:
        return
    rendered = OPENAI_CHAT.render(stored(conversation))
    assert canonical(rendered.payload) == canonical(payload)
    request = render_request(stored(conversation))
    check_openai_chat_tool_pairing(request.payload)


def test_an_assistant_message_with_null_tool_calls_renders_for_another_request() -> None:
    # Found by the mutation test above: ``tool_calls: null`` is kept as written, and
    # rendering for a request must read it as no calls (the orphan result gets a warning).
    payload = [
        {"role": "assistant", "tool_calls": None},
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
    ]
    conversation = stored(formats.get("openai-chat").parse(payload)[0].conversation)
    rendered = render_request(conversation)
    assert rendered.payload["messages"][0]["role"] == "assistant"
    assert rendered.warnings


@pytest.mark.parametrize("tool_calls", [[None], 1, [{"id": "call_1", "type": "function"}]])
def test_a_user_message_field_named_tool_calls_is_no_call_in_a_request(tool_calls: Any) -> None:
    # Found by the mutation test above: a user message keeps a ``tool_calls`` field as
    # written, and rendering for a request took it for the calls the renderer wrote (and
    # raised ValueError or TypeError).
    payload = [{"role": "user", "content": "Hi", "tool_calls": tool_calls}]
    conversation = stored(formats.get("openai-chat").parse(payload)[0].conversation)
    assert OPENAI_CHAT.render(conversation).payload == payload
    request = render_request(conversation).payload
    assert request["messages"] == payload
    check_openai_chat_tool_pairing(request)


@pytest.mark.parametrize(
    "message",
    [
        {"role": "assistant", "content": "a", "tool_calls": None},
        {"role": "assistant", "content": "a", "tool_calls": []},
        {"role": "user", "content": "a", "tool_calls": []},
        {"role": "tool", "content": "a", "tool_call_id": "call_1"},
    ],
)
def test_a_message_of_three_fields_comes_back_as_written(message: dict[str, Any]) -> None:
    # A tool result, or an assistant's calls beside its content, is read without the
    # split of its fields: a null or empty field still travels verbatim.
    assert OPENAI_CHAT.render(parse_one([message])).payload == [message]


@pytest.mark.parametrize(
    ("call_id", "said"),
    [(None, "a tool message needs tool_call_id"), (1, "expected a string, got a number")],
)
def test_a_tool_message_without_a_string_call_id_is_refused(call_id: Any, said: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_one([{"role": "tool", "content": "a", "tool_call_id": call_id}])
    assert (caught.value.message, caught.value.field) == (said, "[0].tool_call_id")
