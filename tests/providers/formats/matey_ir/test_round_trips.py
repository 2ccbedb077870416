"""The ``matey-ir`` format: reading ai.matey IR requests, responses, streams and exchanges,
and writing them back exactly.

Fixture round trips, validation and detection are in ``test_seed_formats.py``;
conversions from other formats in ``test_matey_ir_convert.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from providers import formats
from providers.umf import (
    Conversation,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Provenance,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats.seed_formats._helpers import (
    FIXTURES,
    assert_renders,
    fixtures,
    load,
    parse_one,
    stored,
)
from tests.providers.sdk.matey_ir import validate_stream

IR = formats.get("matey-ir")


def read(payload: Any) -> Conversation:
    return parse_one("matey-ir", payload)


def fixture(name: str) -> Any:
    return load(FIXTURES / "matey-ir" / name)


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("seed_complete_request.json", "request"),
        ("response_with_drift_history.json", "response"),
        ("seed_function_calling_exchange.json", "exchange"),
        ("stream_accumulated_tool_use.json", "exchange"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert read(fixture(name)).extra["matey-ir"]["$shape"] == shape


def test_a_request_maps_onto_umf() -> None:
    conversation = read(fixture("multimodal_long_request.json"))
    parameters = conversation.parameters
    assert (parameters.model, parameters.max_tokens, parameters.top_k, parameters.seed) == (
        "gpt-4o",
        800,
        40,
        42,
    )
    assert parameters.stop == ["\n\nCustomer:", "END"]
    assert parameters.custom == {"reasoning_effort": "low"}
    assert parameters.stream is False
    assert conversation.extra["matey-ir"]["streamMode"] == "delta"
    assert conversation.extra["matey-ir"]["$parameters"] == {"topP": 1}  # an integer, kept
    assert conversation.tool_choice is not None and conversation.tool_choice.type == "required"
    assert conversation.tools[1].extra == {"matey-ir": {"metadata": {"timeoutMs": 2000}}}
    user = conversation.messages[1]
    assert (user.name, user.metadata) == ("maria", {"channel": "web-chat", "locale": "en-GB"})
    assert user.content[2] == ImageBlock(
        source=MediaSource(type="base64", media_type="image/png", data=user.content[2].source.data)  # type: ignore[union-attr]
    )
    results = conversation.messages[3].content
    assert isinstance(results[0], ToolResultBlock) and results[0].is_error is False
    assert results[0].content == [TextBlock(text=results[0].content[0].text)]  # type: ignore[union-attr]
    assert isinstance(results[1], ToolResultBlock) and results[1].is_error is True


def test_metadata_provenance_and_history_warnings_go_into_umf_metadata() -> None:
    [item] = IR.parse(fixture("response_with_drift_history.json"))
    metadata = item.conversation.metadata
    assert (metadata.request_id, metadata.provider_response_id) == ("req_9d41e7", "resp_Gm4kT2")
    assert metadata.timestamp == datetime(2024, 12, 2, 0, 0, 0, 123000, tzinfo=UTC)
    assert metadata.provenance == Provenance(
        frontend="openai",
        backend="gemini",
        middleware=["logging", "caching", "retry"],
        router="load-balancer",
    )
    assert metadata.warnings[0] == DriftWarning(
        category="parameter-normalized",
        severity="info",
        message="Temperature normalized from 0-2 range to 0-1 range",
        field="temperature",
        original_value=1.5,
        transformed_value=0.75,
        source="gemini-backend",
    )
    assert [w.category for w in metadata.warnings] == [
        "parameter-normalized",
        "stop-sequences-truncated",
        "system-message-transformed",
    ]
    assert item.warnings == []  # history, not something reading changed
    assert metadata.custom == {"userId": "user_123", "sessionId": "session_456"}
    answer = item.conversation.messages[0]
    assert (answer.id, answer.finish_reason) == ("resp_Gm4kT2", "stop")
    assert answer.usage is not None and answer.usage.total_tokens == 65


def test_an_exchange_merges_the_response_metadata_into_the_request_s() -> None:
    conversation = read(fixture("seed_function_calling_exchange.json"))
    metadata = conversation.metadata
    assert (metadata.request_id, metadata.provider_response_id) == ("req_004", "chatcmpl-XYZ")
    assert metadata.provenance == Provenance(frontend="openai", backend="anthropic")
    assert metadata.timestamp == datetime(2024, 11, 29, 17, 6, 40, tzinfo=UTC)
    answer = conversation.messages[-1]
    assert answer.id == "chatcmpl-XYZ"
    assert answer.timestamp == datetime(2024, 11, 29, 17, 6, 41, 250000, tzinfo=UTC)
    assert [block.id for block in answer.content] == ["toolu_01ABC", "toolu_02DEF"]  # type: ignore[union-attr]
    assert answer.usage == Usage(
        prompt_tokens=125,
        completion_tokens=45,
        total_tokens=170,
        raw={"promptTokens": 125, "completionTokens": 45, "totalTokens": 170},
    )


def test_a_stream_accumulates_into_the_final_message() -> None:
    conversation = read(fixture("stream_accumulated_tool_use.json"))
    answer = conversation.messages[-1]
    text, call = answer.content
    assert text == TextBlock(text="Let me check the current conditions.")
    assert isinstance(call, ToolUseBlock)
    assert (call.id, call.name) == ("call_abc", "get_weather")
    assert call.input == {"location": "San Francisco", "units": "fahrenheit"}
    assert call.raw_arguments == '{"location":"San Francisco","units":"fahrenheit"}'
    assert answer.finish_reason == "tool_calls"
    assert answer.usage is not None and answer.usage.completion_tokens == 31
    assert conversation.metadata.provider_response_id == "chatcmpl-B7xQ2"
    assert conversation.metadata.provenance is not None
    assert conversation.metadata.provenance.middleware == ["logging"]
    assert (
        answer.extra["matey-ir"]["$chunks"]
        == fixture("stream_accumulated_tool_use.json")["response"]
    )


def test_a_stream_error_finishes_the_answer_with_error() -> None:
    answer = read(fixture("stream_error_exchange.json")).messages[-1]
    assert answer.content == [TextBlock(text="- Budget approved for Q1\n- Hiring freeze lifted")]
    assert answer.finish_reason == "error"
    assert answer.metadata["error"]["code"] == "STREAM_INTERRUPTED"


def test_an_edited_answer_gets_a_stream_written_from_it() -> None:
    conversation = read(fixture("stream_accumulated_tool_use.json"))
    conversation.messages[-1].content.append(TextBlock(text=" One moment."))
    payload = assert_renders("matey-ir", conversation).payload
    chunks = payload["response"]
    validate_stream(chunks)
    assert [chunk["type"] for chunk in chunks] == [
        "start",
        "content",
        "tool_use",
        "content",
        "done",
    ]
    assert chunks[1]["accumulated"] == "Let me check the current conditions."  # accumulated mode
    assert chunks[2]["inputDelta"] == '{"location":"San Francisco","units":"fahrenheit"}'
    assert chunks[-1]["message"]["content"][-1] == {"type": "text", "text": " One moment."}
    assert read(payload).messages[-1].content == conversation.messages[-1].content


def test_edited_metadata_is_written_from_umf() -> None:
    conversation = read(fixture("response_with_drift_history.json"))
    conversation.metadata.warnings = conversation.metadata.warnings[:1]
    conversation.metadata.provenance = Provenance(frontend="openai", model="gemini-1.5-pro")
    rendered = assert_renders("matey-ir", conversation)
    assert rendered.payload["metadata"] == {
        "requestId": "req_9d41e7",
        "timestamp": 1733097600123,
        "providerResponseId": "resp_Gm4kT2",
        "provenance": {"frontend": "openai"},
        "warnings": [
            {
                "category": "parameter-normalized",
                "severity": "info",
                "message": "Temperature normalized from 0-2 range to 0-1 range",
                "field": "temperature",
                "originalValue": 1.5,
                "transformedValue": 0.75,
                "source": "gemini-backend",
            }
        ],
        "custom": {"userId": "user_123", "sessionId": "session_456"},
    }
    assert [(w.category, w.field) for w in rendered.warnings] == [
        ("content-dropped", "metadata.provenance.model")
    ]


def test_storage_keeps_what_exactness_needs() -> None:
    for path in fixtures("matey-ir"):
        conversation = stored(read(load(path)))
        assert IR.render(conversation).payload == load(path), path.name


_MESSAGE = {"role": "user", "content": "hi"}
_META = {"requestId": "r1", "timestamp": 1700000000000}

EDGE_PAYLOADS: dict[str, Any] = {
    "a bare message array": [
        _MESSAGE,
        {"role": "assistant", "content": [{"type": "text", "text": "a"}]},
    ],
    "empty metadata and a null name": [
        {"role": "user", "content": "", "metadata": {}, "name": None}
    ],
    "array content of one block": {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "a"}]}],
        "metadata": _META,
    },
    "empty tools, parameters and custom": {
        "messages": [_MESSAGE],
        "tools": [],
        "parameters": {"custom": {}, "temperature": None, "seed": 0},
        "metadata": _META,
    },
    "unknown fields everywhere": {
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "u", "detail": "low"},
                        "alt": "x",
                    },
                    {"type": "text", "text": "t", "cache": True},
                ],
                "id": "m1",
            }
        ],
        "tools": [{"name": "f", "description": "", "parameters": {}, "strict": True}],
        "toolChoice": {"name": "f", "disableParallel": True},
        "parameters": {"temperature": 1, "reasoningEffort": "low"},
        "metadata": {**_META, "traceId": "t"},
        "responseFormat": {"type": "json_schema", "schema": {"type": "object"}},
    },
    "odd metadata values": {
        "messages": [_MESSAGE],
        "metadata": {
            "requestId": "r",
            "timestamp": 1.7e12,
            "providerResponseId": None,
            "provenance": {"middleware": []},
            "warnings": [
                {"category": "routing-config-changed", "severity": "info", "message": "m"}
            ],
        },
    },
    "a response with raw, an unknown key and no usage": {
        "message": {"role": "assistant", "content": []},
        "finishReason": "cancelled",
        "metadata": _META,
        "raw": {"id": "x"},
        "latencyMs": 1200,
        "usage": None,
    },
    "a stream without a start, with done's message": [
        {"type": "content", "sequence": 0, "delta": "partial"},
        {"type": "metadata", "sequence": 1, "usage": {"completionTokens": 2}},
        {
            "type": "done",
            "sequence": 2,
            "finishReason": "length",
            "message": {"role": "assistant", "content": "the whole text"},
        },
    ],
    "a stream of calls only": [
        {"type": "start", "sequence": 0, "metadata": _META},
        {"type": "tool_use", "sequence": 1, "id": "a", "name": "f"},
        {
            "type": "tool_use",
            "sequence": 2,
            "id": "b",
            "name": "g",
            "inputDelta": "[1]",
            "index": 1,
        },
        {"type": "tool_use", "sequence": 3, "id": "c", "name": "h", "inputDelta": "{bad"},
    ],
    "an exchange with an envelope": {
        "request": {"messages": [_MESSAGE], "metadata": _META},
        "response": {
            "message": {"role": "assistant", "content": "x"},
            "finishReason": "stop",
            "metadata": _META,
        },
        "loggedBy": "bridge",
    },
}


def _request(**fields: Any) -> dict[str, Any]:
    return {"messages": [_MESSAGE], "metadata": _META, **fields}


def _response(**fields: Any) -> dict[str, Any]:
    body = {
        "message": {"role": "assistant", "content": "x"},
        "finishReason": "stop",
        "metadata": _META,
    }
    return {**body, **fields}


MALFORMED: dict[str, tuple[Any, str | None]] = {
    "a number": (1, "payload"),
    "an unrelated object": ({"contents": []}, "messages"),
    "no metadata": ({"messages": [_MESSAGE]}, "metadata"),
    "requestId a number": (
        _request(metadata={"requestId": 1, "timestamp": 0}),
        "metadata.requestId",
    ),
    "timestamp a string": (
        _request(metadata={"requestId": "r", "timestamp": "2024-01-01"}),
        "metadata.timestamp",
    ),
    "unknown role": (
        _request(messages=[{"role": "developer", "content": "a"}]),
        "messages[0].role",
    ),
    "content a number": (
        _request(messages=[{"role": "user", "content": 1}]),
        "messages[0].content",
    ),
    "an audio block": (
        _request(messages=[{"role": "user", "content": [{"type": "audio"}]}]),
        "messages[0].content[0].type",
    ),
    "snake_case media type": (
        _request(
            messages=[
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "a", "data": "b"},
                        }
                    ],
                }
            ]
        ),
        "messages[0].content[0].source.mediaType",
    ),
    "tool input a list": (
        _request(
            messages=[
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "a", "name": "f", "input": []}],
                }
            ]
        ),
        "messages[0].content[0].input",
    ),
    "snake_case tool result": (
        _request(
            messages=[
                {
                    "role": "tool",
                    "content": [{"type": "tool_result", "tool_use_id": "a", "content": ""}],
                }
            ]
        ),
        "messages[0].content[0].toolUseId",
    ),
    "tool result holding an image": (
        _request(
            messages=[
                {
                    "role": "tool",
                    "content": [
                        {"type": "tool_result", "toolUseId": "a", "content": [{"type": "image"}]}
                    ],
                }
            ]
        ),
        "messages[0].content[0].content[0].type",
    ),
    "toolChoice any": (_request(toolChoice="any"), "toolChoice"),
    "maxTokens a float": (_request(parameters={"maxTokens": 10.5}), "parameters.maxTokens"),
    "temperature a string": (_request(parameters={"temperature": "0.2"}), "parameters.temperature"),
    "stopSequences of numbers": (
        _request(parameters={"stopSequences": ["a", 1]}),
        "parameters.stopSequences[1]",
    ),
    "a tool without description": (
        _request(tools=[{"name": "f", "parameters": {}}]),
        "tools[0].description",
    ),
    "streamMode unknown": (_request(streamMode="chunked"), "streamMode"),
    "stream a string": (_request(stream="yes"), "stream"),
    "severity unknown": (
        _request(
            metadata={**_META, "warnings": [{"category": "x", "severity": "fatal", "message": "m"}]}
        ),
        "metadata.warnings[0].severity",
    ),
    "middleware a string": (
        _request(metadata={**_META, "provenance": {"middleware": "logging"}}),
        "metadata.provenance.middleware",
    ),
    "finishReason unknown": (_response(finishReason="end_turn"), "finishReason"),
    "response from the user": (_response(message=_MESSAGE), "message.role"),
    "usage counts as text": (
        _response(usage={"promptTokens": "1", "completionTokens": 1, "totalTokens": 2}),
        "usage.promptTokens",
    ),
    "chunk type unknown": ([{"type": "ping", "sequence": 0}], "[0].type"),
    "chunk without sequence": ([{"type": "content", "delta": "a"}], "[0].sequence"),
    "content chunk without delta": ([{"type": "content", "sequence": 0}], "[0].delta"),
    "done without finish reason": ([{"type": "done", "sequence": 0}], "[0].finishReason"),
    "error chunk without code": (
        [{"type": "error", "sequence": 0, "error": {"message": "m"}}],
        "[0].error.code",
    ),
    "exchange without response": ({"request": _request()}, "response"),
    "exchange request without metadata": (
        {"request": {"messages": [_MESSAGE]}, "response": _response()},
        "request.metadata",
    ),
}
