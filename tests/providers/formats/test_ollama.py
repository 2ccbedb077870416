"""The ``ollama`` format: reading ``/api/chat`` payloads and writing them back exactly.

Conversions from other formats are in ``test_ollama_convert.py``.
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
from providers.formats.ollama import FORMAT, detect
from providers.formats.ollama._media import sniff_media_type
from providers.umf import (
    Conversation,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.sdk.ollama import validate_ollama_request, validate_ollama_response

FIXTURES = Path(__file__).parents[2] / "fixtures"
OLLAMA_FIXTURES = sorted((FIXTURES / "ollama").glob("*.json"))
OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name not in ("ollama", "chatml")
    for path in directory.glob("*.json")
)
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "kYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def canonical(value: object) -> bytes:
    """JSON text with sorted keys: equal only when keys, values and number types match."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / "ollama" / name).read_bytes())


def parse_one(payload: Any) -> Conversation:
    [item] = FORMAT.parse(payload)
    return item.conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def assert_round_trips(payload: Any) -> None:
    conversation = parse_one(payload)
    for candidate in (conversation, stored(conversation)):
        rendered = FORMAT.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


def shape_of(payload: Any) -> str:
    return str(parse_one(payload).extra["ollama"]["$shape"])


# --------------------------------------------------------------------------- fixtures


def test_there_are_enough_fixtures() -> None:
    assert len(OLLAMA_FIXTURES) >= 6


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_exactly(path: Path) -> None:
    assert_round_trips(orjson.loads(path.read_bytes()))


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_what_the_sdk_accepts(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    shape = shape_of(payload)
    if shape == "request":
        validate_ollama_request(payload)
    elif shape == "messages":
        validate_ollama_request({"model": "llama3.2", "messages": payload})
    elif shape == "response":
        validate_ollama_response(payload)
    else:
        validate_ollama_request(payload["request"])
        validate_ollama_response(payload["response"])


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_ollama(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    assert formats.detect(payload).id == "ollama"
    assert detect(payload) == 2


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_no_other_format_claims_an_ollama_fixture(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    others = {fmt.id: fmt.detect(payload) for fmt in formats.all_formats() if fmt.id != "ollama"}
    assert max(others.values()) < 2, others


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_are_not_claimed(path: Path) -> None:
    assert detect(orjson.loads(path.read_bytes())) < 2


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_messages.json", "messages"),
        ("thinking_exchange.json", "exchange"),
        ("bare_response_tool_calls.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(load(name)) == shape


def test_registered_under_its_contract_id() -> None:
    assert formats.get("ollama") is FORMAT
    assert (FORMAT.provider, FORMAT.kind) == ("ollama", "json")


# --------------------------------------------------------------------------- what parse reads


def test_exchange_answer_carries_usage_finish_reason_model_and_time() -> None:
    payload = load("thinking_exchange.json")
    answer = parse_one(payload).messages[-1]
    assert answer.content == [
        ThinkingBlock(text=payload["response"]["message"]["thinking"], provider="ollama"),
        TextBlock(text=payload["response"]["message"]["content"]),
    ]
    assert (answer.model, answer.finish_reason, answer.provider_finish_reason) == (
        "deepseek-r1:14b",
        "stop",
        "stop",
    )
    metrics = {k: v for k, v in payload["response"].items() if k.endswith(("count", "duration"))}
    assert answer.usage == Usage(
        prompt_tokens=17, completion_tokens=142, total_tokens=159, raw=metrics
    )
    assert answer.timestamp == datetime(2025, 6, 2, 9, 14, 27, 318542, tzinfo=UTC)
    assert answer.extra["ollama"]["$response"] == {
        "created_at": "2025-06-02T09:14:27.318542913Z",
        "done": True,
    }


def test_length_is_normalised_and_options_become_parameters() -> None:
    conversation = parse_one(load("length_exchange_usage.json"))
    answer = conversation.messages[-1]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("length", "length")
    parameters = conversation.parameters
    assert (parameters.model, parameters.max_tokens, parameters.temperature) == (
        "mistral:7b-instruct",
        32,
        1.0,
    )
    assert (parameters.frequency_penalty, parameters.presence_penalty) == (0.5, 0.2)
    assert conversation.extra["ollama"]["options"] == {}
    assert conversation.extra["ollama"]["format"] == ""


def test_unmapped_options_stay_verbatim() -> None:
    conversation = parse_one(load("long_conversation.json"))
    assert conversation.parameters.stop == ["<|eot_id|>", "Student:"]
    assert (conversation.parameters.seed, conversation.parameters.stream) == (7, True)
    assert conversation.extra["ollama"]["options"] == {"repeat_penalty": 1.1, "num_ctx": 8192}
    assert conversation.extra["ollama"]["keep_alive"] == -1


def test_tool_calls_get_ids_and_results_pair_by_name_and_order() -> None:
    [item] = FORMAT.parse(load("tool_loop_parallel.json"))
    conversation = item.conversation
    calls = conversation.messages[2].content[1:]
    assert [(c.id, c.input) for c in calls if isinstance(c, ToolUseBlock)] == [
        ("call_2_0", {"city": "Toronto", "unit": "celsius"}),
        ("call_2_1", {"city": "Lisbon", "unit": "celsius"}),
        ("call_2_2", {"timezone": "Europe/Lisbon"}),
    ]
    results = [m.content[0] for m in conversation.messages[3:6]]
    assert [(r.tool_use_id, r.name) for r in results if isinstance(r, ToolResultBlock)] == [
        ("call_2_0", "get_current_weather"),
        ("call_2_1", "get_current_weather"),
        ("call_2_2", "get_local_time"),
    ]
    assert [(w.category, w.field, w.transformed_value) for w in item.warnings] == [
        ("id-synthesized", "messages[2].tool_calls[0].id", "call_2_0"),
        ("id-synthesized", "messages[2].tool_calls[1].id", "call_2_1"),
        ("id-synthesized", "messages[2].tool_calls[2].id", "call_2_2"),
        ("id-synthesized", "messages[3].tool_call_id", "call_2_0"),
        ("id-synthesized", "messages[4].tool_call_id", "call_2_1"),
        ("id-synthesized", "messages[5].tool_call_id", "call_2_2"),
    ]


def test_results_pair_by_name_before_order() -> None:
    calls = [
        {"function": {"name": "a", "arguments": {}}},
        {"function": {"name": "b", "arguments": {}}},
    ]
    conversation = parse_one(
        [
            {"role": "assistant", "content": "", "tool_calls": calls},
            {"role": "tool", "tool_name": "b", "content": "B"},
            {"role": "tool", "content": "A"},
            {"role": "tool", "tool_name": "c", "content": "late"},
        ]
    )
    assert [m.tool_call_id for m in conversation.messages[1:]] == ["call_0_1", "call_0_0", None]
    assert conversation.messages[2].content[0] == ToolResultBlock(
        tool_use_id="call_0_0", content="A", name="a"
    )


def test_a_result_answering_no_call_is_kept_as_text() -> None:
    [item] = FORMAT.parse(
        [
            {"role": "tool", "tool_name": "f", "content": "late"},
            {"role": "tool", "tool_call_id": "call_gone", "content": "lost"},
        ]
    )
    first, second = item.conversation.messages
    assert (first.role, first.name, first.tool_call_id) == ("tool", "f", None)
    assert first.content == [TextBlock(text="late")]
    assert second.content == [TextBlock(text="lost")]
    assert second.extra["ollama"] == {"tool_call_id": "call_gone", "$tool_call_id": "absent"}
    assert [(w.category, w.field) for w in item.warnings] == [
        ("content-type-unsupported", "[0]"),
        ("content-type-unsupported", "[1]"),
    ]
    assert_round_trips([{"role": "tool", "tool_call_id": "call_gone", "content": "lost"}])


def test_server_ids_are_kept_and_finish_reason_is_tool_calls() -> None:
    [item] = FORMAT.parse(load("bare_response_tool_calls.json"))
    answer = item.conversation.messages[0]
    assert [b.id for b in answer.content if isinstance(b, ToolUseBlock)] == [
        "call_k3b9x2lq",
        "call_p0v7m4ce",
    ]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("tool_calls", "stop")
    assert item.warnings == []


def test_images_are_base64_blocks_with_sniffed_media_types() -> None:
    user = parse_one(load("vision_structured_output.json")).messages[1]
    images = [b for b in user.content if isinstance(b, ImageBlock)]
    assert [b.source.media_type for b in images] == ["image/jpeg", "image/png"]
    assert all(
        b.source.type == "base64" and b.extra == {"ollama": {"$sniffed": True}} for b in images
    )
    last = parse_one(load("vision_structured_output.json")).messages[3]
    assert [b.source.media_type for b in last.content if isinstance(b, ImageBlock)] == [
        "image/gif",
        "image/webp",
    ]


def test_unknown_image_bytes_have_no_media_type() -> None:
    assert sniff_media_type("AAAAAAAAAAAAAAAA") is None
    [block] = parse_one([{"role": "user", "images": ["AAAA"]}]).messages[0].content
    assert isinstance(block, ImageBlock) and block.source.media_type is None and not block.extra


# --------------------------------------------------------------------------- exact shapes

_CALL = {"function": {"name": "f", "arguments": {}}}

EDGE_PAYLOADS: dict[str, Any] = {
    "content absent": [{"role": "assistant", "tool_calls": [_CALL]}, {"role": "tool"}],
    "content null": [{"role": "user", "content": None}, {"role": "tool", "content": None}],
    "empty strings and lists": [
        {"role": "assistant", "content": "", "thinking": "", "images": [], "tool_calls": []}
    ],
    "tool_name null": [
        {"role": "assistant", "tool_calls": [_CALL]},
        {"role": "tool", "tool_name": None},
    ],
    "a result answering no call": [{"role": "tool", "tool_name": "f", "content": ""}],
    "ids given by a recent server": [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_x1", **_CALL}]},
        {"role": "tool", "tool_call_id": "call_x1", "tool_name": "f", "content": "ok"},
    ],
    "id null": [{"role": "assistant", "tool_calls": [{"id": None, **_CALL}]}],
    "unknown fields everywhere": {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi", "name": "ann", "tool_name": "stray"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "type": "function",
                        "function": {"name": "f", "arguments": {"a": 1}, "index": 3},
                    }
                ],
            },
        ],
        "tools": [{"function": {"name": "f", "strict": True}}],
        "logprobs": True,
        "top_logprobs": 2,
    },
    "nulls at the top": {
        "model": None,
        "messages": [{"role": "user", "content": "x"}],
        "tools": None,
        "options": None,
        "stream": None,
    },
    "empty tools and options": {"model": "m", "messages": [], "tools": [], "options": {}},
    "options of every kind": {
        "model": "m",
        "messages": [],
        "options": {
            "temperature": 1,
            "top_p": 2**53 + 1,
            "top_k": 40.0,
            "seed": 3,
            "num_predict": -1,
            "stop": [],
            "presence_penalty": None,
            "mirostat": 2,
        },
    },
    "response without metrics or reason": {
        "message": {"role": "assistant", "content": "a"},
        "done": False,
        "done_reason": None,
        "model": None,
    },
    "response with an empty reason": {
        "message": {"role": "assistant", "content": "a"},
        "done": True,
        "done_reason": "",
    },
    "response with odd metrics": {
        "message": {"role": "assistant", "content": "a"},
        "done": True,
        "done_reason": "load",
        "eval_count": "many",
        "prompt_eval_count": None,
        "created_at": "not a time",
    },
    "exchange with an envelope": {
        "request": {"model": "m", "messages": [{"role": "user", "content": "q"}]},
        "response": {"message": {"role": "assistant", "content": "a"}, "done": True},
        "latency_ms": 812,
    },
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


# --------------------------------------------------------------------------- bad input

_USER = {"role": "user", "content": "hi"}

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": ("hello", "payload"),
    "no messages": ({"model": "m"}, "payload"),
    "messages not a list": ({"messages": {"role": "user"}}, "messages"),
    "message not an object": ([_USER, "hi"], "[1]"),
    "message without role": ({"messages": [{"content": "hi"}]}, "messages[0].role"),
    "unknown role": ([{"role": "developer", "content": "hi"}], "[0].role"),
    "content parts": (
        [{"role": "user", "content": [{"type": "text", "text": "a"}]}],
        "[0].content",
    ),
    "thinking an object": ([{"role": "assistant", "thinking": {}}], "[0].thinking"),
    "images a string": ([{"role": "user", "images": PNG}], "[0].images"),
    "image a data uri": (
        [{"role": "user", "images": [f"data:image/png;base64,{PNG}"]}],
        "[0].images[0]",
    ),
    "image not a string": ([{"role": "user", "images": [1]}], "[0].images[0]"),
    "tool call without function": (
        [{"role": "assistant", "tool_calls": [{"id": "c"}]}],
        "[0].tool_calls[0].function",
    ),
    "tool call without name": (
        [{"role": "assistant", "tool_calls": [{"function": {"arguments": {}}}]}],
        "[0].tool_calls[0].function.name",
    ),
    "arguments a string": (
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        "[0].tool_calls[0].function.arguments",
    ),
    "tool call id a number": (
        [{"role": "assistant", "tool_calls": [{"id": 1, **_CALL}]}],
        "[0].tool_calls[0].id",
    ),
    "tool_name a number": ([{"role": "tool", "tool_name": 3}], "[0].tool_name"),
    "reserved field name": ([{"role": "user", "$shape": "x"}], "[0].$shape"),
    "model a number": ({"model": 1, "messages": []}, "model"),
    "stream a string": ({"messages": [], "stream": "no"}, "stream"),
    "options a list": ({"messages": [], "options": []}, "options"),
    "temperature a string": (
        {"messages": [], "options": {"temperature": "hot"}},
        "options.temperature",
    ),
    "stop of numbers": ({"messages": [], "options": {"stop": ["a", 1]}}, "options.stop[1]"),
    "tools an object": ({"messages": [], "tools": {}}, "tools"),
    "tool without function": (
        {"messages": [], "tools": [{"type": "function"}]},
        "tools[0].function",
    ),
    "tool parameters a list": (
        {"messages": [], "tools": [{"function": {"name": "f", "parameters": []}}]},
        "tools[0].function.parameters",
    ),
    "exchange without response": ({"request": {"messages": [_USER]}}, "response"),
    "exchange with a bad request": ({"request": [], "response": {}}, "request"),
    "response without message": ({"done": True, "message": None}, "message"),
    "response from the user": ({"message": _USER, "done": True}, "message.role"),
    "done_reason a number": (
        {"message": {"role": "assistant", "content": "a"}, "done_reason": 1},
        "done_reason",
    ),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "payload"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        FORMAT.parse(payload)
    assert raised.value.field == field


# --------------------------------------------------------------------------- detection

DETECT_CASES: dict[str, tuple[Any, int]] = {
    "plain messages": ([_USER, {"role": "assistant", "content": "a"}], 1),
    "options": ({"model": "m", "messages": [_USER], "options": {}}, 2),
    "think": ({"model": "m", "messages": [_USER], "think": "high"}, 2),
    "images": ([{"role": "user", "content": "x", "images": [PNG]}], 2),
    "tool_name": ([{"role": "tool", "tool_name": "f", "content": "x"}], 2),
    "object arguments without type": ([{"role": "assistant", "tool_calls": [_CALL]}], 2),
    "string arguments": (
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}],
        0,
    ),
    "content parts": ([{"role": "user", "content": [{"type": "text", "text": "a"}]}], 0),
    "openai name": ([{"role": "user", "content": "a", "name": "x"}], 0),
    "anthropic request": ({"model": "m", "max_tokens": 5, "messages": [_USER]}, 0),
    "response": ({"message": {"role": "assistant", "content": "a"}, "done": True}, 2),
    "response without done": ({"message": {"role": "assistant", "content": "a"}}, 0),
    "a string": ("<|im_start|>user\nhi<|im_end|>", 0),
    "empty list": ([], 0),
}


@pytest.mark.parametrize(("payload", "score"), DETECT_CASES.values(), ids=DETECT_CASES.keys())
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score


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
_SEEDS = [orjson.loads(path.read_bytes()) for path in OLLAMA_FIXTURES] + list(
    EDGE_PAYLOADS.values()
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
    rendered = FORMAT.render(stored(conversation))
    assert canonical(rendered.payload) == canonical(payload)
