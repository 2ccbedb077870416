"""The ``gemini`` format: reading every accepted shape, and exact same-format round trips.

Conversions from other formats are in ``test_gemini_convert.py``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats import FormatError, get
from providers.formats.gemini import FORMAT, detect, parse, render
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
from tests.providers.sdk.gemini import validate_gemini_request, validate_gemini_response

ALL_FIXTURES = Path(__file__).parents[2] / "fixtures"
FIXTURES = ALL_FIXTURES / "gemini"
FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.json"))


def load(name: str) -> Any:
    return orjson.loads((FIXTURES / f"{name}.json").read_bytes())


def read(payload: Any) -> Conversation:
    results = parse(payload)
    assert len(results) == 1
    assert all(w.category == "id-synthesized" for w in results[0].warnings)
    return results[0].conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def request_of(payload: Any) -> dict[str, Any] | None:
    """The request inside any accepted shape (None for a bare response)."""
    if isinstance(payload, list):
        return {"contents": payload}
    if "request" in payload:
        return dict(payload["request"])
    return payload if "contents" in payload else None


def response_of(payload: Any) -> dict[str, Any] | None:
    if isinstance(payload, list) or "contents" in payload:
        return None
    return dict(payload.get("response", payload))


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
    assert canonical(rendered.payload) == canonical(payload)
    assert rendered.warnings == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trip_validates_against_the_sdk(name: str) -> None:
    rendered = render(read(load(name))).payload
    request, response = request_of(rendered), response_of(rendered)
    assert request is not None or response is not None
    if request is not None:
        validate_gemini_request(request)
    if response is not None:
        validate_gemini_response(response)


WRONG_REQUESTS = {
    "snake_case key": {"contents": [{"role": "user", "parts": [{"function_call": {"name": "f"}}]}]},
    "unknown part key": {"contents": [{"role": "user", "parts": [{"text": "x", "foo": 1}]}]},
    "model in the body": {"contents": [], "model": "gemini-2.5-flash"},
    "unknown enum": {"contents": [], "toolConfig": {"functionCallingConfig": {"mode": "AUTOO"}}},
    "Vertex-only field": {
        "contents": [],
        "safetySettings": [
            {
                "category": "HARM_CATEGORY_HARASSMENT",
                "threshold": "BLOCK_NONE",
                "method": "SEVERITY",
            }
        ],
    },
    "not base64": {
        "contents": [{"parts": [{"inlineData": {"mimeType": "image/png", "data": "not base64!"}}]}]
    },
    "JSON Schema in parameters": {
        "contents": [],
        "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"$defs": {}}}]}],
    },
}


@pytest.mark.parametrize("payload", WRONG_REQUESTS.values(), ids=list(WRONG_REQUESTS))
def test_sdk_validation_is_strict(payload: Any) -> None:
    with pytest.raises((AssertionError, ValueError, UserWarning)):
        validate_gemini_request(payload)


def test_every_fixture_records_its_shape() -> None:
    shapes = {name: read(load(name)).extra["gemini"]["$shape"] for name in FIXTURE_NAMES}
    assert shapes["bare_contents"] == "messages"
    assert shapes["bare_response_function_call"] == "response"
    assert shapes["thinking_exchange"] == "exchange"
    assert shapes["tool_loop_parallel"] == "request"


# --------------------------------------------------------------------------- ids and pairing


def test_missing_ids_are_synthesized_and_results_paired_by_name_and_order() -> None:
    results = parse(load("tool_loop_parallel"))
    summary = [(w.category, w.severity, w.field, w.transformed_value) for w in results[0].warnings]
    call, response = "functionCall", "functionResponse"
    assert summary == [
        ("id-synthesized", "info", f"contents[1].parts[0].{call}", "gemini_call_1_0"),
        ("id-synthesized", "info", f"contents[1].parts[1].{call}", "gemini_call_1_1"),
        ("id-synthesized", "info", f"contents[1].parts[2].{call}", "gemini_call_1_2"),
        ("id-synthesized", "info", f"contents[2].parts[0].{response}", "gemini_call_1_0"),
        ("id-synthesized", "info", f"contents[2].parts[1].{response}", "gemini_call_1_1"),
        ("id-synthesized", "info", f"contents[2].parts[2].{response}", "gemini_call_1_2"),
        ("id-synthesized", "info", f"contents[3].parts[0].{call}", "gemini_call_3_0"),
        ("id-synthesized", "info", f"contents[4].parts[0].{response}", "gemini_call_3_0"),
    ]
    messages = results[0].conversation.messages
    answers = [(b.tool_use_id, b.name, b.is_error) for b in messages[3].content]  # type: ignore[union-attr]
    assert answers == [
        ("gemini_call_1_0", "get_weather", None),
        ("gemini_call_1_1", "get_weather", True),
        ("gemini_call_1_2", "get_local_time", None),
    ]


def test_responses_pair_with_the_oldest_open_call_of_their_name() -> None:
    call = {"functionCall": {"name": "f", "args": {}}}
    other = {"functionCall": {"name": "g", "args": {}}}
    answer = {"functionResponse": {"name": "f", "response": {"output": "x"}}}
    payload = [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [call, other, call]},
        {"role": "user", "parts": [answer, answer, answer]},
    ]
    conversation = parse(payload)[0].conversation
    ids = [b.tool_use_id for b in conversation.messages[2].content]  # type: ignore[union-attr]
    assert ids == ["gemini_call_1_0", "gemini_call_1_2", "gemini_result_2_2"]
    assert render(conversation).payload == payload


def test_given_ids_are_kept_and_sent_back() -> None:
    conversation = read(load("forced_tool_json_schema"))
    call = conversation.messages[2].content[0]
    result = conversation.messages[3].content[0]
    assert isinstance(call, ToolUseBlock) and isinstance(result, ToolResultBlock)
    assert (call.id, result.tool_use_id) == ("fc-3b1e9d0a", "fc-3b1e9d0a")
    assert parse(load("forced_tool_json_schema"))[0].warnings == []


# --------------------------------------------------------------------------- reasoning


def test_thought_signatures_stay_with_the_part_they_sit_on() -> None:
    payload = load("tool_loop_parallel")
    conversation = stored(read(payload))
    first_call = conversation.messages[2].content[0]
    second_call = conversation.messages[2].content[1]
    assert isinstance(first_call, ToolUseBlock) and isinstance(second_call, ToolUseBlock)
    signature = payload["contents"][1]["parts"][0]["thoughtSignature"]
    assert first_call.extra["gemini"]["thoughtSignature"] == signature
    assert "thoughtSignature" not in second_call.extra.get("gemini", {})
    trailing = conversation.messages[6].content[1]
    assert isinstance(trailing, ThinkingBlock)
    assert (trailing.text, trailing.provider) == ("", "gemini")
    assert trailing.signature == payload["contents"][5]["parts"][1]["thoughtSignature"]
    rendered = render(conversation).payload["contents"]
    assert rendered[1]["parts"][0] == payload["contents"][1]["parts"][0]
    assert rendered[5]["parts"][1] == {"text": "", "thoughtSignature": trailing.signature}


def test_thought_parts_become_thinking_blocks() -> None:
    conversation = read(load("thinking_exchange"))
    answer = conversation.messages[-1]
    thought, text = answer.content
    assert isinstance(thought, ThinkingBlock) and isinstance(text, TextBlock)
    assert thought.provider == "gemini" and thought.signature is None
    assert thought.text.startswith("**Setting up the equation**")
    assert text.extra["gemini"]["thoughtSignature"]
    assert (answer.id, answer.model) == ("mC5KaLbFLd7o7M8Pq8G9uQk", "gemini-2.5-flash")
    assert conversation.metadata.provider_response_id == "mC5KaLbFLd7o7M8Pq8G9uQk"


# --------------------------------------------------------------------------- usage and finish


def test_usage_counts_thoughts_as_completion_tokens() -> None:
    usage = read(load("thinking_exchange")).messages[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (32, 380, 412)
    assert (usage.reasoning_tokens, usage.cached_tokens) == (319, None)
    assert usage.raw == load("thinking_exchange")["response"]["usageMetadata"]


def test_usage_counts_cached_content_and_tool_use_prompt_as_prompt_tokens() -> None:
    usage = read(load("code_execution_grounding_exchange")).messages[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (4463, 187, 4650)
    assert usage.cached_tokens == 4096


def test_function_call_turn_ending_with_stop_reads_as_tool_calls() -> None:
    message = read(load("bare_response_function_call")).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == ("tool_calls", "STOP")
    assert [block.type for block in message.content] == ["tool_use", "tool_use"]


@pytest.mark.parametrize(
    ("reason", "finish_reason"),
    [
        ("STOP", "stop"),
        ("MAX_TOKENS", "length"),
        ("SAFETY", "content_filter"),
        ("RECITATION", "content_filter"),
        ("BLOCKLIST", "content_filter"),
        ("PROHIBITED_CONTENT", "content_filter"),
        ("SPII", "content_filter"),
        ("IMAGE_SAFETY", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", "error"),
        ("UNEXPECTED_TOOL_CALL", "error"),
        ("OTHER", None),
        ("LANGUAGE", None),
        ("TOO_MANY_TOOL_CALLS", None),
        ("A_FUTURE_REASON", None),
    ],
)
def test_finish_reason_is_normalised_and_kept_raw(reason: str, finish_reason: str | None) -> None:
    payload = load("max_tokens_response")
    payload["candidates"][0]["finishReason"] = reason
    message = read(payload).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (finish_reason, reason)
    assert render(stored(read(payload))).payload == payload


def test_blocked_prompt_has_an_empty_answer_filtered_by_content() -> None:
    payload = load("blocked_prompt_exchange")
    answer = read(payload).messages[-1]
    assert answer.role == "assistant" and answer.content == []
    assert (answer.finish_reason, answer.provider_finish_reason) == ("content_filter", "SAFETY")
    assert answer.extra["gemini"]["$candidates"] == "absent"
    empty = {**payload["response"], "candidates": []}
    assert render(read(empty)).payload == empty


def test_response_fields_are_kept_on_the_answer() -> None:
    answer = read(load("max_tokens_response")).messages[0]
    hints = answer.extra["gemini"]
    assert hints["$response"] == {"createTime": "2025-06-15T10:02:11.482736Z"}
    assert set(hints["$candidate"]) == {"index", "safetyRatings", "citationMetadata", "avgLogprobs"}
    assert answer.finish_reason == "length"


# --------------------------------------------------------------------------- content


def test_media_parts_by_mime_type_and_uri_kind() -> None:
    conversation = read(load("multimodal_request"))
    message = conversation.messages[0]
    assert message.role == "user" and message.extra["gemini"]["$role"] == "absent"
    summary = [
        (type(block).__name__, getattr(getattr(block, "source", None), "type", None))
        for block in message.content
    ]
    assert summary == [
        ("TextBlock", None),
        ("ImageBlock", "base64"),
        ("DocumentBlock", "file"),
        ("AudioBlock", "base64"),
        ("DocumentBlock", "url"),
        ("DocumentBlock", "base64"),
        ("ImageBlock", "url"),
    ]
    video = message.content[4]
    assert isinstance(video, DocumentBlock) and video.source.media_type is None
    assert video.extra["gemini"]["videoMetadata"] == {"startOffset": "40s", "endOffset": "80s"}
    pdf = message.content[2]
    assert isinstance(pdf, DocumentBlock) and pdf.source.file_id is not None
    assert pdf.source.file_id.startswith("https://generativelanguage.googleapis.com/")
    assert isinstance(message.content[1], ImageBlock)
    assert isinstance(message.content[3], AudioBlock)


def test_code_execution_parts_are_kept_verbatim_and_read_as_text() -> None:
    payload = load("code_execution_grounding_exchange")
    answer = read(payload).messages[-1]
    code, result = answer.content[1], answer.content[2]
    assert isinstance(code, TextBlock) and isinstance(result, TextBlock)
    assert code.text.startswith("```python\nprimes = []")
    assert result.text == "Code execution result (OUTCOME_OK):\n```\n5117\n\n```"
    parts = payload["response"]["candidates"][0]["content"]["parts"]
    assert code.extra["gemini"]["$part"] == parts[1]
    assert result.extra["gemini"]["$part"] == parts[2]


def test_function_response_objects_and_media_parts() -> None:
    results = read(load("tool_loop_parallel")).messages[3].content
    texts = [(b.content, b.extra.get("gemini", {}).get("$response")) for b in results]  # type: ignore[union-attr]
    assert texts[0] == (
        '{"temp_c":18,"conditions":"light rain"}',
        {"output": {"temp_c": 18, "conditions": "light rain"}},
    )
    assert texts[1] == ("weather service timed out for Tokyo", None)
    assert texts[2] == ('{"time":"2025-06-12T01:14:00+09:00","timezone":"Asia/Tokyo"}', None)
    with_media = read(load("forced_tool_json_schema")).messages[3].content[0]
    assert isinstance(with_media, ToolResultBlock) and isinstance(with_media.content, list)
    assert [block.type for block in with_media.content] == ["text", "image"]


# --------------------------------------------------------------------------- request fields


def test_tools_schemas_and_layout() -> None:
    conversation = read(load("tool_loop_parallel"))
    weather = conversation.tools[0]
    assert weather.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name, e.g. Paris"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["city"],
    }
    assert weather.extra["gemini"]["$parameters"]["type"] == "OBJECT"
    assert conversation.tools[1].extra == {}
    json_schema = read(load("forced_tool_json_schema")).tools[1]
    assert json_schema.extra["gemini"] == {"behavior": "BLOCKING", "$schema": "json"}
    layout = read(load("code_execution_grounding_exchange")).extra["gemini"]["$tools"]
    assert layout == [{"codeExecution": {}}, {"googleSearch": {}}]


def test_generation_config_and_top_level_fields() -> None:
    conversation = read(load("long_conversation"))
    params = conversation.parameters
    assert (params.temperature, params.top_k, params.top_p, params.max_tokens) == (
        0.4,
        40,
        0.9,
        400,
    )
    assert (params.stop, params.seed) == (["\n\nUser:"], 1234)
    assert (params.presence_penalty, params.frequency_penalty) == (0.3, 0.1)
    assert conversation.extra["gemini"]["generationConfig"] == {"responseMimeType": "text/plain"}
    assert conversation.extra["gemini"]["labels"] == {"team": "garden-bot", "env": "staging"}
    system = conversation.messages[0]
    assert system.role == "system" and len(system.content) == 2


TOOL = {"functionDeclarations": [{"name": "f"}, {"name": "g"}]}


@pytest.mark.parametrize(
    ("calling", "kind", "name"),
    [
        ({"mode": "AUTO"}, "auto", None),
        ({"mode": "NONE"}, "none", None),
        ({"mode": "ANY"}, "required", None),
        ({"mode": "ANY", "allowedFunctionNames": ["f"]}, "tool", "f"),
        ({"mode": "ANY", "allowedFunctionNames": ["f", "g"]}, "required", None),
        ({"mode": "VALIDATED"}, "auto", None),
        ({"mode": "MODE_UNSPECIFIED"}, None, None),
        ({"allowedFunctionNames": ["f"]}, None, None),
    ],
)
def test_function_calling_config_as_tool_choice(
    calling: dict[str, Any], kind: str | None, name: str | None
) -> None:
    payload = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [TOOL],
        "toolConfig": {"functionCallingConfig": calling, "retrievalConfig": {"languageCode": "fr"}},
    }
    conversation = read(copy.deepcopy(payload))
    choice = conversation.tool_choice
    assert (choice.type if choice else None, choice.name if choice else None) == (kind, name)
    assert render(stored(conversation)).payload == payload
    validate_gemini_request(payload)


UNKNOWN_EVERYWHERE = {
    "request": {
        "contents": [
            {
                "role": "user",
                "futureContentField": 1,
                "parts": [
                    {"text": "hi", "futurePartField": [1]},
                    {
                        "inlineData": {
                            "mimeType": "image/png",
                            "data": "iVBORw==",
                            "displayName": "a",
                        }
                    },
                    {"fileData": {"fileUri": "gs://bucket/doc.pdf", "mimeType": None}},
                    {"text": "t", "thought": True, "thoughtSignature": None},
                    {"thoughtSignature": "c2ln"},
                    {"text": "", "thoughtSignature": "c2ln", "thought": False},
                    {"futureData": {"x": 1}},
                    {},
                ],
            },
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "f", "args": None, "willContinue": False}},
                    {"functionCall": {"name": "f"}, "thoughtSignature": "c2ln"},
                ],
            },
            {
                "parts": [
                    {"functionResponse": {"name": "f", "response": {}, "scheduling": "SILENT"}},
                    {"functionResponse": {"name": "f", "response": {"output": "{}"}, "parts": []}},
                ]
            },
            {"role": "model"},
        ],
        "systemInstruction": {"role": "user", "parts": [{"text": "s"}], "future": True},
        "tools": [{"functionDeclarations": [], "googleMaps": {}}, {"functionDeclarations": None}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": []}},
        "generationConfig": {"temperature": None, "futureKnob": 3},
        "model": "models/gemini-2.5-flash",
    },
    "response": {
        "candidates": [{"content": None, "finishReason": None}, {"index": 1}],
        "usageMetadata": {},
        "futureResponseField": "x",
    },
    "trace": [1, 2],
}


def test_unknown_fields_and_nulls_survive_at_every_level() -> None:
    payload = copy.deepcopy(UNKNOWN_EVERYWHERE)
    conversation = read(payload)
    assert render(conversation).payload == UNKNOWN_EVERYWHERE
    assert render(stored(conversation)).payload == UNKNOWN_EVERYWHERE
    assert conversation.parameters.model == "models/gemini-2.5-flash"


# --------------------------------------------------------------------------- bad input


def _request(*contents: Any, **fields: Any) -> dict[str, Any]:
    return {"contents": list(contents), **fields}


def _part(part: Any) -> dict[str, Any]:
    return _request({"role": "user", "parts": [part]})


USER = {"role": "user", "parts": [{"text": "hi"}]}
P0 = "contents[0].parts[0]"
MALFORMED: list[tuple[Any, str]] = [
    ("just a string", "payload"),
    (42, "payload"),
    ({"model": "m"}, "payload"),
    ({"contents": "hi"}, "contents"),
    (_request("hi"), "contents[0]"),
    (_request({"role": "system", "parts": []}), "contents[0].role"),
    (_request({"role": 1, "parts": []}), "contents[0].role"),
    (_request({"role": "user", "parts": "hi"}), "contents[0].parts"),
    (_request(USER, {"parts": ["hi"]}), "contents[1].parts[0]"),
    (_part({"text": 3}), f"{P0}.text"),
    (_part({"text": "t", "thought": True, "thoughtSignature": 5}), f"{P0}.thoughtSignature"),
    (_part({"inlineData": "x"}), f"{P0}.inlineData"),
    (_part({"inlineData": {"data": "AAAA"}}), f"{P0}.inlineData.mimeType"),
    (_part({"inlineData": {"mimeType": "image/png"}}), f"{P0}.inlineData.data"),
    (_part({"fileData": {"mimeType": "image/png"}}), f"{P0}.fileData.fileUri"),
    (_part({"functionCall": {"args": {}}}), f"{P0}.functionCall.name"),
    (_part({"functionCall": {"name": "f", "args": "{}"}}), f"{P0}.functionCall.args"),
    (_part({"functionCall": {"name": "f", "id": 7}}), f"{P0}.functionCall.id"),
    (_part({"functionResponse": {"name": "f"}}), f"{P0}.functionResponse.response"),
    (
        _part({"functionResponse": {"name": "f", "response": "ok"}}),
        f"{P0}.functionResponse.response",
    ),
    (_part({"functionResponse": {"response": {}}}), f"{P0}.functionResponse.name"),
    (
        _part({"functionResponse": {"name": "f", "response": {}, "parts": [{"text": "x"}]}}),
        f"{P0}.functionResponse.parts",
    ),
    (_part({"text": "x", "$hint": 1}), f"{P0}.$hint"),
    (_request(USER, systemInstruction="Be brief."), "systemInstruction"),
    (_request(USER, tools={}), "tools"),
    (_request(USER, tools=["googleSearch"]), "tools[0]"),
    (
        _request(USER, tools=[{"functionDeclarations": [{}]}]),
        "tools[0].functionDeclarations[0].name",
    ),
    (
        _request(USER, tools=[{"functionDeclarations": [{"name": "f", "parameters": "{}"}]}]),
        "tools[0].functionDeclarations[0].parameters",
    ),
    (_request(USER, toolConfig="AUTO"), "toolConfig"),
    (_request(USER, generationConfig=[]), "generationConfig"),
    (_request(USER, generationConfig={"temperature": "hot"}), "generationConfig.temperature"),
    (_request(USER, generationConfig={"topK": 1.5}), "generationConfig.topK"),
    (
        _request(USER, generationConfig={"maxOutputTokens": True}),
        "generationConfig.maxOutputTokens",
    ),
    (_request(USER, generationConfig={"stopSequences": "END"}), "generationConfig.stopSequences"),
    (_request(USER, generationConfig={"stopSequences": [1]}), "generationConfig.stopSequences[0]"),
    (_request(USER, model=5), "model"),
    (["hi"], "[0]"),
    ([{"role": "user", "parts": [{"inlineData": {}}]}], "[0].parts[0].inlineData.mimeType"),
    ({"request": _request(USER), "response": None}, "response"),
    ({"request": {}, "response": {}}, "request.contents"),
    ({"request": _request(USER), "response": {"candidates": {}}}, "response.candidates"),
    (
        {"request": _request(USER), "response": {"candidates": [{"content": USER}]}},
        "response.candidates[0].content.role",
    ),
    (
        {"request": _request(USER), "response": {"candidates": [], "usageMetadata": []}},
        "response.usageMetadata",
    ),
    (
        {
            "request": _request(USER),
            "response": {"candidates": [], "usageMetadata": {"promptTokenCount": "3"}},
        },
        "response.usageMetadata.promptTokenCount",
    ),
    ({"candidates": ["x"]}, "candidates[0]"),
    ({"candidates": [{"finishReason": 1}]}, "candidates[0].finishReason"),
    ({"candidates": [{"content": {"parts": {}}}]}, "candidates[0].content.parts"),
    ({"candidates": [], "responseId": 7}, "responseId"),
    ({"candidates": [], "modelVersion": ["m"]}, "modelVersion"),
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
    assert get("gemini") is FORMAT
    assert FORMAT.provider == "gemini"
    assert FORMAT.capabilities.reasoning_signatures
    assert "tool" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        (_request(USER), 2),
        ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, 0),
        ({"contents": [{"role": "user", "content": "x"}]}, 0),
        ([USER, {"role": "model", "parts": [{"functionCall": {"name": "f"}}]}], 2),
        ([{"role": "user", "content": "x"}], 0),
        ([{"role": "user", "parts": [{"type": "text", "content": "x"}]}], 0),
        ({"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}}]}, 2),
        ({"candidates": [{"finishReason": "SAFETY", "content": {"role": "model"}}]}, 2),
        ({"promptFeedback": {"blockReason": "SAFETY"}}, 2),
        ({"request": _request(USER), "response": {"candidates": []}}, 2),
        ({"request": {"messages": []}, "response": {"candidates": []}}, 0),
        ({"messages": [{"role": "user", "content": "x"}]}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_registry_detects_every_fixture_as_gemini(name: str) -> None:
    payload = load(name)
    assert detect(payload) == 2
    assert formats.detect(payload) is FORMAT


OTHER_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in ALL_FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "gemini"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize(("format_id", "name"), OTHER_FIXTURES)
def test_other_formats_fixtures_are_not_surely_gemini(format_id: str, name: str) -> None:
    assert detect(orjson.loads((ALL_FIXTURES / format_id / name).read_bytes())) < 2


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_no_other_format_is_sure_of_our_fixtures(name: str) -> None:
    payload = load(name)
    sure = [
        fmt.id for fmt in formats.all_formats() if fmt is not FORMAT and fmt.detect(payload) >= 2
    ]
    assert sure == []
