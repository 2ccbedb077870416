"""The ``anthropic`` format: reading every accepted shape, and exact same-format round trips.

Conversions from other formats are in ``test_anthropic_convert.py``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError, convert, get
from providers.formats.anthropic import FORMAT, detect, parse, render
from providers.umf import Conversation, TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock
from tests.providers.sdk_validation import validate_anthropic_request

FIXTURES = Path(__file__).parents[2] / "fixtures" / "anthropic"
FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.json"))


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / f"{name}.json").read_bytes())


def read(payload: Any) -> Conversation:
    results = parse(payload)
    assert len(results) == 1
    assert results[0].warnings == []
    return results[0].conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def request_of(payload: Any) -> dict[str, Any]:
    """The request inside any accepted shape (a bare list gets the required fields)."""
    if isinstance(payload, list):
        return {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": payload}
    request: dict[str, Any] = payload.get("request", payload)
    return request


# --------------------------------------------------------------------------- round trips


def test_at_least_six_realistic_fixtures() -> None:
    assert len(FIXTURE_NAMES) >= 6


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_exactly(name: str) -> None:
    payload = load(name)
    rendered = render(read(copy.deepcopy(payload)))
    assert rendered.payload == payload
    assert rendered.warnings == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_through_storage(name: str) -> None:
    payload = load(name)
    rendered = render(stored(read(payload)))
    assert orjson.dumps(rendered.payload, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        payload, option=orjson.OPT_SORT_KEYS
    )
    assert rendered.warnings == []


@pytest.mark.parametrize("name", [n for n in FIXTURE_NAMES if "response" not in n])
def test_fixture_requests_validate_against_the_sdk(name: str) -> None:
    payload = load(name)
    if isinstance(payload, dict) and "type" in payload:
        pytest.skip("a bare response holds no request")
    validate_anthropic_request(request_of(render(read(payload)).payload))


def test_thinking_signature_round_trips() -> None:
    payload = load("thinking_tool_loop")
    conversation = stored(read(payload))
    thinking = [b for b in conversation.messages[1].content if isinstance(b, ThinkingBlock)]
    assert [(b.redacted, b.provider) for b in thinking] == [
        (False, "anthropic"),
        (True, "anthropic"),
    ]
    original = payload["messages"][1]["content"]
    assert thinking[0].text == original[0]["thinking"]
    assert thinking[0].signature == original[0]["signature"]
    assert thinking[1].data == original[1]["data"]
    rendered = render(conversation).payload["messages"][1]["content"]
    assert orjson.dumps(rendered[:2]) == orjson.dumps(original[:2])
    assert [block["type"] for block in rendered] == ["thinking", "redacted_thinking", "tool_use"]


def test_every_fixture_records_its_shape() -> None:
    shapes = {name: read(load(name)).extra["anthropic"]["$shape"] for name in FIXTURE_NAMES}
    assert shapes["bare_messages"] == "messages"
    assert shapes["bare_response"] == "response"
    assert shapes["exchange_cache_usage"] == "exchange"
    assert shapes["tool_loop_parallel"] == "request"


# --------------------------------------------------------------------------- what parse reads


def test_exchange_response_becomes_last_assistant_message() -> None:
    conversation = read(load("exchange_cache_usage"))
    last = conversation.messages[-1]
    assert last.role == "assistant"
    assert (last.id, last.model) == ("msg_01XFDUDYJgAACzvnptvVoYEL", "claude-sonnet-4-5-20250929")
    assert (last.finish_reason, last.provider_finish_reason) == ("stop", "end_turn")
    extra = last.extra["anthropic"]
    assert extra["type"] == "message"
    assert extra["stop_sequence"] is None and extra["stop_details"] is None
    first = last.content[0]
    assert isinstance(first, TextBlock)
    assert last.content == [TextBlock(text=first.text, extra=first.extra)]
    assert last.content[0].extra == {"anthropic": {"citations": None}}


def test_usage_counts_cache_reads_and_writes_as_prompt_tokens() -> None:
    usage = read(load("exchange_cache_usage")).messages[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (1845, 19, 1864)
    assert (usage.cached_tokens, usage.cache_write_tokens) == (1824, 0)
    assert usage.raw == load("exchange_cache_usage")["response"]["usage"]


def test_usage_reads_thinking_tokens_as_reasoning_tokens() -> None:
    message = read(load("bare_response")).messages[0]
    assert message.usage is not None
    assert message.usage.prompt_tokens == 512 + 2048
    assert message.usage.cache_write_tokens == 2048
    assert message.usage.reasoning_tokens == 61
    assert message.finish_reason == "tool_calls"


@pytest.mark.parametrize(
    ("stop_reason", "finish_reason"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("tool_use", "tool_calls"),
        ("max_tokens", "length"),
        ("model_context_window_exceeded", "length"),
        ("refusal", "content_filter"),
        ("pause_turn", None),
        ("a_future_reason", None),
        ("", None),
    ],
)
def test_stop_reason_is_normalised_and_kept_raw(
    stop_reason: str, finish_reason: str | None
) -> None:
    payload = {**load("bare_response"), "stop_reason": stop_reason}
    message = read(payload).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (finish_reason, stop_reason)
    assert render(message_conversation := read(payload)).payload == payload
    assert message_conversation.messages[0].extra["anthropic"]["$response"] is True


def test_top_level_system_becomes_leading_system_message() -> None:
    conversation = read(load("system_blocks_cache"))
    system = conversation.messages[0]
    assert system.role == "system"
    assert [block.extra["anthropic"]["cache_control"]["type"] for block in system.content] == [
        "ephemeral",
        "ephemeral",
    ]
    assert conversation.parameters.user == "cust_8842"
    assert conversation.parameters.stop == ["\n\nHuman:", "</answer>"]
    assert conversation.extra["anthropic"]["inference_geo"] == "eu"


def test_mid_conversation_system_message_stays_in_place() -> None:
    payload = load("search_results_system_message")
    conversation = read(payload)
    roles = [message.role for message in conversation.messages]
    assert roles == ["system", "user", "assistant", "user", "system", "assistant", "user"]
    assert conversation.messages[4].extra["anthropic"]["$system"] == "message"
    assert render(conversation).payload["messages"][3] == payload["messages"][3]


def test_tool_results_stay_in_user_messages_and_learn_the_tool_name() -> None:
    conversation = read(load("tool_loop_parallel"))
    results = conversation.messages[3]
    assert results.role == "user"
    blocks = [b for b in results.content if isinstance(b, ToolResultBlock)]
    assert [(b.name, b.is_error) for b in blocks] == [
        ("get_weather", None),
        ("get_weather", True),
        ("get_local_time", False),
    ]
    assert isinstance(blocks[1].content, list)
    calls = [b for b in conversation.messages[2].content if isinstance(b, ToolUseBlock)]
    assert [call.input["city"] for call in calls] == ["Paris", "Tokyo", "Paris"]


def test_tools_and_tool_choice() -> None:
    conversation = read(load("tool_loop_parallel"))
    assert [tool.name for tool in conversation.tools] == ["get_weather", "get_local_time"]
    assert conversation.tools[0].parameters is not None
    assert conversation.tools[1].extra == {
        "anthropic": {"strict": True, "cache_control": {"type": "ephemeral"}}
    }
    assert conversation.tool_choice is not None
    assert conversation.tool_choice.type == "auto"
    assert conversation.tool_choice.extra == {"anthropic": {"disable_parallel_tool_use": False}}
    any_choice = {**load("tool_loop_parallel"), "tool_choice": {"type": "any"}}
    assert read(any_choice).tool_choice.type == "required"  # type: ignore[union-attr]
    server = read(load("server_tools_pause_turn")).tools[0]
    assert server.parameters is None
    assert server.extra["anthropic"]["type"] == "web_search_20250305"


def test_unknown_block_types_are_kept_in_place_and_never_become_umf_blocks() -> None:
    payload = load("server_tools_pause_turn")
    message = read(payload).messages[-1]
    assert [block.type for block in message.content] == ["text", "text"]
    unmapped = message.extra["anthropic"]["unmapped_blocks"]
    assert [(entry["at"], entry["block"]["type"]) for entry in unmapped] == [
        (1, "server_tool_use"),
        (2, "web_search_tool_result"),
        (4, "server_tool_use"),
    ]
    assert message.finish_reason is None
    assert message.provider_finish_reason == "pause_turn"


def test_search_results_inside_tool_results_are_kept_in_place() -> None:
    payload = load("search_results_system_message")
    result = read(payload).messages[3].content[0]
    assert isinstance(result, ToolResultBlock)
    assert [block.type for block in result.content] == ["text"]  # type: ignore[union-attr]
    assert result.extra["anthropic"]["unmapped_blocks"][0]["at"] == 1


def test_unmapped_blocks_are_reported_by_other_formats() -> None:
    converted = convert("anthropic", "openai-chat", load("server_tools_pause_turn"))
    notes = [w for w in converted.warnings if w.field == "messages[1].extra.anthropic"]
    assert notes and "unmapped_blocks" in notes[0].original_value


def test_document_sources() -> None:
    documents = [
        b for b in read(load("multimodal_documents")).messages[0].content if b.type == "document"
    ]
    assert [d.source.type for d in documents] == ["base64", "url", "text", "text"]
    assert documents[0].title == "Field guide, chapter 3"
    assert documents[0].extra["anthropic"]["context"] == "Scanned from the 2019 edition."
    assert documents[3].source.data == (
        "Observation 1: colony found under bark.\n\nObservation 2: nocturnal foraging."
    )
    assert documents[3].extra["anthropic"]["$content_source"][0]["type"] == "text"


UNKNOWN_EVERYWHERE = {
    "request": {
        "model": "claude-x",
        "max_tokens": 10,
        "temperature": None,
        "future_flag": {"a": 1},
        "metadata": {"user_id": None, "tenant": "t1"},
        "tools": [],
        "tool_choice": {"type": "none", "future": 1},
        "messages": [
            {
                "role": "user",
                "future_message_field": 1,
                "content": [
                    {"type": "text", "text": "", "future_block_field": [1]},
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "https://x/y.png", "future": 2},
                    },
                    {"type": "document", "source": {"type": "text", "data": "d"}, "title": None},
                    {"type": "future_block", "payload": {"x": 1}},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "t", "input": {}, "caller": None},
                    {"type": "thinking", "thinking": "t", "signature": None},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1"},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": None},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": ""},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": []},
                ],
            },
        ],
    },
    "response": {"role": "assistant", "content": [], "stop_reason": None, "usage": {}},
    "trace": [1, 2],
}


def test_unknown_fields_and_nulls_survive_at_every_level() -> None:
    payload = copy.deepcopy(UNKNOWN_EVERYWHERE)
    conversation = read(payload)
    assert render(conversation).payload == UNKNOWN_EVERYWHERE
    assert render(stored(conversation)).payload == UNKNOWN_EVERYWHERE


def test_json_schema_dollar_keys_are_data_not_hints() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"city": {"type": "string"}},
        "properties": {"city": {"$ref": "#/$defs/city"}},
    }
    payload = _request(USER, tools=[{"name": "t", "input_schema": schema}])
    conversation = read(copy.deepcopy(payload))
    assert conversation.tools[0].parameters == schema
    assert render(stored(conversation)).payload == payload


# --------------------------------------------------------------------------- bad input


def _request(*messages: Any, **fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 5, "messages": list(messages), **fields}


USER = {"role": "user", "content": "hi"}
MALFORMED: list[tuple[Any, str]] = [
    ("just a string", "payload"),
    (42, "payload"),
    ({"model": "m"}, "payload"),
    ({"messages": "hi"}, "messages"),
    (_request({"content": "hi"}), "messages[0].role"),
    (_request({"role": "tool", "content": "x"}), "messages[0].role"),
    (_request({"role": "developer", "content": "x"}), "messages[0].role"),
    (_request({"role": "user"}), "messages[0].content"),
    (_request({"role": "user", "content": None}), "messages[0].content"),
    (_request({"role": "user", "content": 5}), "messages[0].content"),
    (_request({"role": "user", "content": {"type": "text"}}), "messages[0].content"),
    (_request(USER, {"role": "user", "content": ["hi"]}), "messages[1].content[0]"),
    (_request({"role": "user", "content": [{"text": "x"}]}), "messages[0].content[0].type"),
    (_request({"role": "user", "content": [{"type": "text"}]}), "messages[0].content[0].text"),
    (
        _request({"role": "user", "content": [{"type": "text", "text": 3}]}),
        "messages[0].content[0].text",
    ),
    (
        _request({"role": "user", "content": [{"type": "text", "text": "a", "citations": {}}]}),
        "messages[0].content[0].citations",
    ),
    (_request({"role": "user", "content": [{"type": "image"}]}), "messages[0].content[0].source"),
    (
        _request({"role": "user", "content": [{"type": "image", "source": {"type": "text"}}]}),
        "messages[0].content[0].source.type",
    ),
    (
        _request(
            USER, USER, {"role": "user", "content": [{"type": "image", "source": {"type": "url"}}]}
        ),
        "messages[2].content[0].source.url",
    ),
    (
        _request({"role": "user", "content": [{"type": "document", "source": {"type": "base64"}}]}),
        "messages[0].content[0].source.media_type",
    ),
    (
        _request(
            {"role": "user", "content": [{"type": "document", "source": {"type": "content"}}]}
        ),
        "messages[0].content[0].source.content",
    ),
    (
        _request(
            {"role": "assistant", "content": [{"type": "tool_use", "name": "t", "input": {}}]}
        ),
        "messages[0].content[0].id",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "tool_use", "id": "x", "input": {}}]}),
        "messages[0].content[0].name",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "t"}]}),
        "messages[0].content[0].input",
    ),
    (
        _request(
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "x", "name": "t", "input": "{}"}],
            }
        ),
        "messages[0].content[0].input",
    ),
    (
        _request({"role": "user", "content": [{"type": "tool_result"}]}),
        "messages[0].content[0].tool_use_id",
    ),
    (
        _request(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": 1}]}
        ),
        "messages[0].content[0].content",
    ),
    (
        _request(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "x", "is_error": "yes"}],
            }
        ),
        "messages[0].content[0].is_error",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "thinking"}]}),
        "messages[0].content[0].thinking",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "redacted_thinking"}]}),
        "messages[0].content[0].data",
    ),
    (_request(USER, system=5), "system"),
    (_request(USER, system=[{"type": "image", "source": {}}]), "system[0]"),
    (_request(USER, max_tokens="10"), "max_tokens"),
    (_request(USER, max_tokens=True), "max_tokens"),
    (_request(USER, model=["m"]), "model"),
    (_request(USER, temperature="hot"), "temperature"),
    (_request(USER, top_k=1.5), "top_k"),
    (_request(USER, stop_sequences="END"), "stop_sequences"),
    (_request(USER, stop_sequences=[1]), "stop_sequences[0]"),
    (_request(USER, stream="yes"), "stream"),
    (_request(USER, metadata="x"), "metadata"),
    (_request(USER, tools={}), "tools"),
    (_request(USER, tools=[{"description": "d"}]), "tools[0].name"),
    (_request(USER, tools=[{"name": "t", "input_schema": "{}"}]), "tools[0].input_schema"),
    (_request(USER, tool_choice={"type": "sometimes"}), "tool_choice.type"),
    (_request(USER, tool_choice={"type": "tool"}), "tool_choice.name"),
    (_request(USER, tool_choice={}), "tool_choice.type"),
    (_request(USER, tool_choice="auto"), "tool_choice"),
    (_request({"role": "user", "content": "x", "$hint": 1}), "messages[0].$hint"),
    (
        _request({"role": "user", "content": "x", "unmapped_blocks": []}),
        "messages[0].unmapped_blocks",
    ),
    ([USER, "hi"], "[1]"),
    ([{"role": "user", "content": [{"type": "image"}]}], "[0].content[0].source"),
    ({"request": _request(USER), "response": None}, "response"),
    ({"request": _request(USER), "response": {"role": "user", "content": []}}, "response.role"),
    (
        {"request": _request(USER), "response": {"role": "assistant", "content": "x"}},
        "response.content",
    ),
    (
        {"request": _request(USER), "response": {"role": "assistant", "content": [], "usage": []}},
        "response.usage",
    ),
    (
        {
            "request": _request(USER),
            "response": {"role": "assistant", "content": [], "usage": {"input_tokens": "3"}},
        },
        "response.usage.input_tokens",
    ),
    ({"request": {"messages": [{}]}, "response": {}}, "request.messages[0].role"),
    ({"type": "message", "role": "assistant"}, "content"),
    ({"type": "message", "role": "assistant", "content": [], "id": 7}, "id"),
    ({"type": "message", "role": "assistant", "content": [], "stop_reason": 1}, "stop_reason"),
]


@pytest.mark.parametrize(("payload", "field"), MALFORMED)
def test_malformed_payload_raises_format_error_with_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        parse(payload)
    assert error.value.field == field


def _mutations(payload: Any) -> st.SearchStrategy[Any]:
    """``payload`` with one value somewhere replaced by random JSON, or one key removed."""
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        children = (
            value.items()
            if isinstance(value, dict)
            else enumerate(value)
            if isinstance(value, list)
            else []
        )
        for key, child in children:
            walk(child, (*path, key))

    walk(payload, ())
    json_values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )

    def mutate(path: tuple[Any, ...], value: Any, delete: bool) -> Any:
        result = copy.deepcopy(payload)
        if not path:
            return value
        parent = result
        for key in path[:-1]:
            parent = parent[key]
        if delete and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
        return result

    return st.builds(mutate, st.sampled_from(paths), json_values, st.booleans())


@pytest.mark.parametrize("name", FIXTURE_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_payload_is_refused_cleanly_or_round_trips(name: str, data: st.DataObject) -> None:
    payload = data.draw(_mutations(load(name)))
    try:
        conversation = parse(copy.deepcopy(payload))[0].conversation
    except FormatError:
        return
    assert render(conversation).payload == payload
    assert render(stored(conversation)).payload == payload


# --------------------------------------------------------------------------- registry


def test_registered_under_its_contract_id() -> None:
    assert get("anthropic") is FORMAT
    assert FORMAT.provider == "anthropic"
    assert FORMAT.capabilities.reasoning_signatures
    assert "developer" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        ({"model": "m", "max_tokens": 5, "system": "s", "messages": [USER]}, 2),
        ({"model": "m", "messages": [USER]}, 1),
        ({"model": "m", "messages": [{"role": "tool", "content": "x", "tool_call_id": "c"}]}, 0),
        ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, 0),
        ({"messages": [USER], "parameters": {}}, 0),
        ([USER, {"role": "assistant", "content": "hello"}], 1),
        ({"from": "human", "value": "x"}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_detect_knows_every_fixture(name: str) -> None:
    assert detect(load(name)) >= 1
