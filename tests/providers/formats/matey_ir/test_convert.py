"""The ``matey-ir`` format rendering conversations read from other formats: exact requests
and exact warnings for every lossy step (every block in every role, other formats'
fixtures and random conversations are in ``test_seed_formats.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from providers import formats
from providers.formats.matey_ir._render_metadata import fallback_identity
from providers.umf import (
    Conversation,
    DriftWarning,
    Message,
    Metadata,
    Parameters,
    TextBlock,
    Tool,
    ToolChoice,
)
from tests.providers.formats.seed_formats._conversion_sources import (
    DROPPED_AUDIO,
    DROPPED_PDF,
    DROPPED_RADAR,
    anthropic_import,
    openai_import,
)
from tests.providers.formats.seed_formats._helpers import (
    PNG,
    assert_renders,
    stored,
    summary,
)
from tests.providers.sdk.matey_ir import check_tool_pairing, validate_request


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def test_an_anthropic_import_becomes_this_request() -> None:
    conversation = anthropic_import()
    rendered = assert_renders("matey-ir", conversation)
    validate_request(rendered.payload)
    check_tool_pairing(rendered.payload)
    request_id, _ = fallback_identity(conversation)
    assert rendered.payload == {
        "messages": [
            {"role": "system", "content": "You are terse."},
            {
                "role": "user",
                "content": [
                    _text("Weather in Paris and Rome?"),
                    {
                        "type": "image",
                        "source": {"type": "base64", "mediaType": "image/png", "data": PNG},
                    },
                ],
            },
            {
                "role": "assistant",
                "content": [
                    _text("Checking both."),
                    _use("toolu_01Paris", "get_weather", {"city": "Paris"}),
                    _use("toolu_01Rome", "get_weather", {"city": "Rome"}),
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "toolUseId": "toolu_01Paris",
                        "content": [_text("18 °C, sunny")],
                    },
                    {
                        "type": "tool_result",
                        "toolUseId": "toolu_01Rome",
                        "content": "upstream timeout",
                        "isError": True,
                    },
                    _text("Also, is it windy?"),
                ],
            },
            {"role": "assistant", "content": [_use("toolu_01Wind", "get_wind", {"city": "Paris"})]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "toolUseId": "toolu_01Wind", "content": "12 km/h"}
                ],
            },
        ],
        "tools": [
            {
                "name": "get_weather",
                "description": "Weather by city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
            {"name": "get_wind", "description": "", "parameters": {"type": "object"}},
        ],
        "toolChoice": "auto",
        "parameters": {
            "model": "claude-sonnet-4-5",
            "temperature": 0.7,
            "maxTokens": 1024,
            "topK": 40,
            "stopSequences": ["\n\nHuman:"],
            "user": "u-1",
        },
        "metadata": {"requestId": request_id, "timestamp": 0},
    }


def test_an_anthropic_import_warns_for_each_lossy_step() -> None:
    conversation = anthropic_import()
    rendered = assert_renders("matey-ir", conversation)
    request_id, _ = fallback_identity(conversation)
    assert summary(rendered.warnings) == [
        ("reasoning-dropped", "messages[2].content[0]", "Need both cities.", None),
        ("content-dropped", "messages[3].content[0].content[1]", DROPPED_RADAR, None),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
        ("content-dropped", "messages[5].content[1]", DROPPED_PDF, None),
        (
            "field-unknown",
            "tools[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        ("parameter-defaulted", "tools[1].description", None, ""),
        ("field-unknown", "tool_choice.extra.anthropic", {"disable_parallel_tool_use": True}, None),
        ("parameter-defaulted", "metadata.request_id", None, request_id),
        ("parameter-defaulted", "metadata.timestamp", None, 0),
    ]
    assert [w.severity for w in rendered.warnings] == ["warning"] * 4 + ["info"] * 5


def test_an_openai_import_becomes_this_request() -> None:
    conversation = openai_import()
    rendered = assert_renders("matey-ir", conversation)
    validate_request(rendered.payload)
    check_tool_pairing(rendered.payload)
    request_id, _ = fallback_identity(conversation)
    assert rendered.payload == {
        "messages": [
            {"role": "system", "content": "Answer briefly.", "name": "acme"},
            {
                "role": "user",
                "content": [
                    _text("What is in this photo and recording?"),
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "https://example.com/photo.jpg"},
                    },
                ],
            },
            {
                "role": "assistant",
                "content": [
                    _use("call_1", "describe", {"target": "photo"}),
                    _use("call_2", "transcribe", {}),
                ],
            },
            {
                "role": "tool",
                "content": [
                    {
                        "type": "tool_result",
                        "toolUseId": "call_1",
                        "content": "A red bicycle leaning on a wall.",
                    }
                ],
            },
            {
                "role": "tool",
                "content": [
                    {"type": "tool_result", "toolUseId": "call_2", "content": "unsupported codec"}
                ],
            },
            {
                "role": "assistant",
                "content": [_text("A red bicycle."), _text("I can't transcribe that audio.")],
            },
            {"role": "user", "content": "Thanks!", "name": "maria"},
        ],
        "tools": [
            {
                "name": "describe",
                "description": "Describe a picture",
                "parameters": {"type": "object", "properties": {"target": {"type": "string"}}},
            },
            {"name": "transcribe", "description": "", "parameters": {"type": "object"}},
        ],
        "toolChoice": {"name": "describe"},
        "parameters": {
            "model": "gpt-4o",
            "temperature": 1.2,
            "maxTokens": 500,
            "stopSequences": ["END"],
            "seed": 7,
        },
        "metadata": {"requestId": request_id, "timestamp": 0},
    }


def test_an_openai_import_warns_for_each_lossy_step() -> None:
    conversation = openai_import()
    rendered = assert_renders("matey-ir", conversation)
    request_id, _ = fallback_identity(conversation)
    assert summary(rendered.warnings) == [
        ("system-message-transformed", "messages[0].role", "developer", "system"),
        ("content-dropped", "messages[1].content[1].detail", "high", None),
        ("content-dropped", "messages[1].content[2]", DROPPED_AUDIO, None),
        ("content-dropped", "messages[2].content[1].raw_arguments", '{"target": "aud', {}),
        ("content-type-unsupported", "messages[5].content[1]", "refusal", "text"),
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None),
        ("parameter-defaulted", "tools[1].description", None, ""),
        ("parameter-unsupported", "parameters.parallel_tool_calls", True, None),
        ("parameter-defaulted", "metadata.request_id", None, request_id),
        ("parameter-defaulted", "metadata.timestamp", None, 0),
    ]


def test_the_made_up_request_id_is_stable_and_the_first_message_dates_it() -> None:
    first = Conversation(
        messages=[
            Message(
                role="user",
                content=[TextBlock(text="hi")],
                timestamp=datetime(2025, 1, 2, 3, 4, 5, 678000, tzinfo=UTC),
            )
        ]
    )
    other = Conversation(messages=[Message(role="user", content=[TextBlock(text="bye")])])
    metadata = assert_renders("matey-ir", first).payload["metadata"]
    assert metadata == assert_renders("matey-ir", first).payload["metadata"]
    assert metadata["timestamp"] == 1735787045678
    assert (
        metadata["requestId"] != assert_renders("matey-ir", other).payload["metadata"]["requestId"]
    )


def test_parameters_out_of_the_seed_s_ranges_are_clamped() -> None:
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        parameters=Parameters(
            temperature=2.5, top_p=1.5, frequency_penalty=-3.0, presence_penalty=0.5
        ),
        tools=[Tool(name="f", description="d")],
        tool_choice=ToolChoice(type="tool"),
        metadata=Metadata(request_id="r1", timestamp=datetime(2025, 1, 1, tzinfo=UTC)),
    )
    rendered = assert_renders("matey-ir", conversation)
    validate_request(rendered.payload)
    assert rendered.payload["parameters"] == {
        "temperature": 2.0,
        "topP": 1.0,
        "frequencyPenalty": -2.0,
        "presencePenalty": 0.5,
    }
    assert rendered.payload["toolChoice"] == "required"
    assert rendered.payload["tools"] == [
        {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}
    ]
    assert summary(rendered.warnings) == [
        ("parameter-defaulted", "tools[0].parameters", None, {"type": "object", "properties": {}}),
        ("parameter-normalized", "tool_choice", "tool", "required"),
        ("parameter-clamped", "parameters.temperature", 2.5, 2.0),
        ("parameter-clamped", "parameters.top_p", 1.5, 1.0),
        ("parameter-clamped", "parameters.frequency_penalty", -3.0, -2.0),
    ]


def test_a_top_k_or_max_tokens_below_one_is_left_out_with_a_warning() -> None:
    # Found by converting mutated fixtures: Cohere's ``k: 0`` (top-k sampling off) became
    # ``topK: 0``, which the IR refuses (it takes topK and maxTokens from 1).
    payload = {
        "model": "command-r",
        "k": 0,
        "max_tokens": 0,
        "messages": [{"role": "user", "content": "hi"}],
    }
    [item] = formats.get("cohere").parse(payload)
    rendered = assert_renders("matey-ir", stored(item.conversation))
    assert rendered.payload["parameters"] == {"model": "command-r"}
    assert summary(rendered.warnings)[:2] == [
        ("parameter-normalized", "parameters.max_tokens", 0, None),
        ("parameter-normalized", "parameters.top_k", 0, None),
    ]


def test_history_warnings_of_categories_the_ir_lacks_keep_their_category_in_details() -> None:
    history = [
        DriftWarning(category="parameter-clamped", message="clamped", field="temperature"),
        DriftWarning(category="role-merged", message="merged", details={"into": "messages[1]"}),
    ]
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        metadata=Metadata(
            request_id="r1", timestamp=datetime(2025, 1, 1, tzinfo=UTC), warnings=history
        ),
    )
    rendered = assert_renders("matey-ir", conversation)
    validate_request(rendered.payload)
    assert rendered.payload["metadata"]["warnings"] == [
        {
            "category": "parameter-clamped",
            "severity": "warning",
            "message": "clamped",
            "field": "temperature",
        },
        {
            "category": "capability-unsupported",
            "severity": "warning",
            "message": "merged",
            "details": {"into": "messages[1]", "category": "role-merged"},
        },
    ]
    assert summary(rendered.warnings) == [
        ("parameter-normalized", "metadata.warnings", ["role-merged"], "capability-unsupported")
    ]


def test_a_tool_message_in_umf_s_own_shape_becomes_a_tool_result() -> None:
    conversation = Conversation(
        messages=[
            Message(role="tool", tool_call_id="call_9", content=[TextBlock(text="42")]),
        ],
        metadata=Metadata(request_id="r1", timestamp=datetime(2025, 1, 1, tzinfo=UTC)),
    )
    rendered = assert_renders("matey-ir", conversation)
    assert rendered.payload["messages"] == [
        {
            "role": "tool",
            "content": [{"type": "tool_result", "toolUseId": "call_9", "content": [_text("42")]}],
        }
    ]
    assert rendered.warnings == []
