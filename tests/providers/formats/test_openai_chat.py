"""The ``openai-chat`` format: reading Chat Completions payloads and writing them back exactly.

Conversions from other formats are in ``test_openai_chat_conversions.py``.
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
from providers.formats.openai_chat import render_request
from providers.umf import (
    AudioBlock,
    Conversation,
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
    validate_openai_chat_response,
)

FIXTURE_DIR = Path(__file__).parents[2] / "fixtures" / "openai-chat"
FIXTURES = sorted(FIXTURE_DIR.glob("*.json"))
OPENAI_CHAT = formats.get("openai-chat")


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURE_DIR / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = OPENAI_CHAT.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = OPENAI_CHAT.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(conversation: Conversation) -> str:
    return str(conversation.extra["openai-chat"]["$shape"])


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
        validate_openai_chat_request(payload)
    elif shape == "messages":
        validate_openai_chat_request({"model": "gpt-4o", "messages": payload})
    elif shape == "response":
        validate_openai_chat_response(payload)
    else:
        validate_openai_chat_request(payload["request"])
        validate_openai_chat_response(payload["response"])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_openai_accepts(path: Path) -> None:
    conversation = stored(parse_one(orjson.loads(path.read_bytes())))
    rendered = render_request(conversation)
    validate_openai_chat_request(rendered.payload)
    check_openai_chat_tool_pairing(rendered.payload)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_openai_chat(path: Path) -> None:
    assert formats.detect(orjson.loads(path.read_bytes())).id == "openai-chat"


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_messages.json", "messages"),
        ("exchange_usage.json", "exchange"),
        ("bare_response.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(parse_one(load(name))) == shape


# --------------------------------------------------------------------------- what parse reads


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = load("exchange_usage.json")
    conversation = parse_one(payload)
    answer = conversation.messages[-1]
    assert answer.role == "assistant"
    assert answer.content == [
        TextBlock(text=payload["response"]["choices"][0]["message"]["content"])
    ]
    assert (answer.id, answer.model) == (
        "chatcmpl-BaX3kP9sTq1mZ2vW8yR4nL6oJ0cE",
        "o4-mini-2025-04-16",
    )
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "stop")
    assert answer.usage == Usage(
        prompt_tokens=1536,
        completion_tokens=958,
        total_tokens=2494,
        cached_tokens=1280,
        reasoning_tokens=896,
        raw=payload["response"]["usage"],
    )
    assert answer.timestamp == datetime(2025, 5, 23, 12, 12, 17, tzinfo=UTC)
    assert conversation.metadata.provider_response_id == answer.id
    kept = answer.extra["openai-chat"]
    assert kept["$response"] == {
        "object": "chat.completion",
        "created": 1748002337,
        "service_tier": "default",
        "system_fingerprint": None,
    }
    assert kept["$choice"] == {"index": 0, "logprobs": None}
    assert conversation.parameters.model == "o4-mini"
    assert conversation.parameters.max_tokens == 4000
    assert conversation.extra["openai-chat"]["reasoning_effort"] == "high"


def test_parallel_tool_calls_and_results_are_read() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    calls = conversation.messages[2].content
    assert [type(block) for block in calls] == [ToolUseBlock] * 3
    first = calls[0]
    assert isinstance(first, ToolUseBlock)
    assert first.input == {"city": "Paris", "unit": "celsius"}
    assert first.raw_arguments == '{"city":"Paris","unit":"celsius"}'
    result = conversation.messages[3]
    assert result.role == "tool"
    assert result.tool_call_id == "call_pWq3kq8mJ2u7vT1sXbN0aZcD"
    assert result.content == [
        ToolResultBlock(
            tool_use_id="call_pWq3kq8mJ2u7vT1sXbN0aZcD",
            name="get_weather",
            content='{"city":"Paris","temp_c":14,"conditions":"light rain"}',
        )
    ]
    assert conversation.tools[0].extra == {"openai-chat": {"strict": True}}
    assert conversation.parameters.parallel_tool_calls is True


def test_invalid_json_arguments_keep_the_raw_string() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    call = conversation.messages[8].content[1]
    assert isinstance(call, ToolUseBlock)
    assert call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.endswith('"party_size":2,')


def test_media_parts_become_media_blocks() -> None:
    user = parse_one(load("multimodal_request.json")).messages[1].content
    url_image, data_image, audio, pdf, by_id = user[1:]
    assert isinstance(url_image, ImageBlock) and url_image.source.type == "url"
    assert url_image.detail == "high"
    assert isinstance(data_image, ImageBlock)
    assert (data_image.source.type, data_image.source.media_type) == ("base64", "image/png")
    assert isinstance(audio, AudioBlock)
    assert (audio.source.type, audio.source.media_type) == ("base64", "audio/wav")
    assert isinstance(pdf, DocumentBlock) and pdf.filename == "invoice.pdf"
    assert (pdf.source.type, pdf.source.media_type) == ("base64", "application/pdf")
    assert isinstance(by_id, DocumentBlock)
    assert (by_id.source.type, by_id.source.file_id) == ("file", "file-6F2ksmvXxt4VdoqmHRw6kL")


def test_refusals_become_refusal_blocks() -> None:
    conversation = parse_one(load("refusal_exchange.json"))
    assert conversation.messages[1].content == [
        RefusalBlock(text="I can't help with getting into someone else's home.")
    ]
    answer = conversation.messages[-1]
    assert [block.type for block in answer.content] == ["refusal"]
    assert answer.content[0].text == "I'm sorry, I can't help with that."  # type: ignore[union-attr]


def test_url_annotations_become_citations() -> None:
    answer = parse_one(load("web_search_annotations.json")).messages[-1]
    [text] = answer.content
    assert isinstance(text, TextBlock)
    assert text.citations is not None and text.citations[0]["type"] == "url_citation"
    assert "annotations" not in answer.extra["openai-chat"]


def test_developer_name_and_unknown_fields_are_kept() -> None:
    conversation = parse_one(load("developer_name_unknown_fields.json"))
    developer, user = conversation.messages[:2]
    assert (developer.role, developer.name, user.name) == ("developer", "acme_app", "maria_k")
    kept = conversation.extra["openai-chat"]
    assert kept["metadata"] == {"team": "dev-tools", "ticket": "DT-4821"}
    assert (kept["store"], kept["logprobs"], kept["top_logprobs"]) == (True, True, 3)
    assert kept["$stop"] == "string" and kept["$max_tokens_key"] == "max_tokens"
    assert conversation.parameters.stop == ["###"]
    assert conversation.tool_choice is not None and conversation.tool_choice.type == "auto"


def test_custom_tool_call_keeps_its_text_input() -> None:
    conversation = parse_one(load("developer_name_unknown_fields.json"))
    call = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock)
    assert (call.name, call.input) == ("apply_patch", {})
    assert call.raw_arguments is not None and call.raw_arguments.startswith("*** Begin Patch")
    assert conversation.tools[0].extra["openai-chat"]["$type"] == "custom"


def test_legacy_function_call_pairs_with_its_function_message() -> None:
    [item] = OPENAI_CHAT.parse(load("legacy_functions.json"))
    call = item.conversation.messages[1].content[0]
    result = item.conversation.messages[2]
    assert isinstance(call, ToolUseBlock) and call.id == "call_legacy_0"
    assert result.role == "tool" and result.tool_call_id == "call_legacy_0"
    assert [(w.category, w.field, w.transformed_value) for w in item.warnings] == [
        ("id-synthesized", "messages[1].function_call", "call_legacy_0")
    ]


def test_finish_reason_function_call_is_normalised() -> None:
    response = load("bare_response.json")
    response["choices"][0]["finish_reason"] = "function_call"
    answer = parse_one(response).messages[0]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("tool_calls", "function_call")


# --------------------------------------------------------------------------- exact shapes

_USER = {"role": "user", "content": "hi"}
_CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}

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


# --------------------------------------------------------------------------- bad input

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": ("hello", "payload"),
    "no messages": ({"model": "m"}, "messages"),
    "messages not a list": ({"messages": {"role": "user"}}, "messages"),
    "message not an object": ([_USER, "hi"], "[1]"),
    "message without role": ({"messages": [{"content": "hi"}]}, "messages[0].role"),
    "unknown role": ({"messages": [{"role": "robot", "content": "hi"}]}, "messages[0].role"),
    "content a number": (
        {"messages": [_USER, _USER, {"role": "user", "content": 3}]},
        "messages[2].content",
    ),
    "content an object": ([{"role": "user", "content": {"text": "a"}}], "[0].content"),
    "part without type": ([{"role": "user", "content": [{"text": "a"}]}], "[0].content[0].type"),
    "unknown part type": (
        [{"role": "user", "content": [{"type": "input_text", "text": "a"}]}],
        "[0].content[0].type",
    ),
    "text not a string": (
        [{"role": "user", "content": [{"type": "text", "text": 1}]}],
        "[0].content[0].text",
    ),
    "image without url": (
        [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}],
        "[0].content[0].image_url.url",
    ),
    "image_url a string": (
        [{"role": "user", "content": [{"type": "image_url", "image_url": "https://x"}]}],
        "[0].content[0].image_url",
    ),
    "audio without format": (
        [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AA"}}]}],
        "[0].content[0].input_audio.format",
    ),
    "file with neither data nor id": (
        [{"role": "user", "content": [{"type": "file", "file": {"filename": "a.pdf"}}]}],
        "[0].content[0].file",
    ),
    "name not a string": ([{"role": "user", "content": "a", "name": 5}], "[0].name"),
    "tool_calls not a list": ([{"role": "assistant", "tool_calls": _CALL}], "[0].tool_calls"),
    "tool call without id": (
        [
            {
                "role": "assistant",
                "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}],
            }
        ],
        "[0].tool_calls[0].id",
    ),
    "tool call of unknown type": (
        [{"role": "assistant", "tool_calls": [{"id": "c", "type": "web", "function": {}}]}],
        "[0].tool_calls[0].type",
    ),
    "arguments an object": (
        [
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}
                ],
            }
        ],
        "[0].tool_calls[0].function.arguments",
    ),
    "tool message without tool_call_id": ([{"role": "tool", "content": "a"}], "[0].tool_call_id"),
    "tool_call_id a number": (
        [{"role": "tool", "tool_call_id": 3, "content": "a"}],
        "[0].tool_call_id",
    ),
    "function message without name": ([{"role": "function", "content": "a"}], "[0].name"),
    "refusal not a string": ([{"role": "assistant", "refusal": ["no"]}], "[0].refusal"),
    "audio without id": ([{"role": "assistant", "audio": {}}], "[0].audio.id"),
    "temperature a string": ({"messages": [_USER], "temperature": "0.7"}, "temperature"),
    "seed a boolean": ({"messages": [_USER], "seed": True}, "seed"),
    "stop of numbers": ({"messages": [_USER], "stop": ["a", 1]}, "stop[1]"),
    "tools not a list": ({"messages": [_USER], "tools": {}}, "tools"),
    "tool without function": (
        {"messages": [_USER], "tools": [{"type": "function"}]},
        "tools[0].function",
    ),
    "tool of unknown type": (
        {"messages": [_USER], "tools": [{"type": "web_search"}]},
        "tools[0].type",
    ),
    "tool parameters a list": (
        {
            "messages": [_USER],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": []}}],
        },
        "tools[0].function.parameters",
    ),
    "tool_choice unknown": ({"messages": [_USER], "tool_choice": "any"}, "tool_choice"),
    "tool_choice without name": (
        {"messages": [_USER], "tool_choice": {"type": "function", "function": {}}},
        "tool_choice.function.name",
    ),
    "allowed_tools bad mode": (
        {
            "messages": [_USER],
            "tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "none"}},
        },
        "tool_choice.allowed_tools.mode",
    ),
    "exchange without response": ({"request": {"messages": [_USER]}}, "response"),
    "exchange request without messages": ({"request": {}, "response": {}}, "request.messages"),
    "exchange with a bad request message": (
        {"request": {"messages": [_USER, {"role": "user", "content": 1}]}, "response": {}},
        "request.messages[1].content",
    ),
    "response without choices": (
        {"request": {"messages": [_USER]}, "response": {"id": "x"}},
        "response.choices",
    ),
    "response with no choice": ({"choices": []}, "choices"),
    "choice without message": ({"choices": [{"index": 0}]}, "choices[0].message"),
    "choice message from the user": ({"choices": [{"message": _USER}]}, "choices[0].message.role"),
    "finish reason a number": (
        {"choices": [{"message": {"role": "assistant", "content": "a"}, "finish_reason": 1}]},
        "choices[0].finish_reason",
    ),
    "usage a list": (
        {"choices": [{"message": {"role": "assistant", "content": "a"}}], "usage": []},
        "usage",
    ),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "messages"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        OPENAI_CHAT.parse(payload)
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
