"""The ``appam`` format: reading UnifiedMessage JSON and writing it back exactly.

Fixture round trips, validation and detection are in ``test_seed_formats.py``;
conversions from other formats in ``test_appam_convert.py``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from providers import formats
from providers.umf import (
    DocumentBlock,
    ImageBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    Usage,
)
from tests.providers.formats.seed_formats._helpers import (
    FIXTURES,
    assert_renders,
    load,
    parse_one,
)

APPAM = formats.get("appam")


def read(payload: Any) -> Any:
    return parse_one("appam", payload)


def fixture(name: str) -> Any:
    return load(FIXTURES / "appam" / name)


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("seed_weather_session.json", "messages"),
        ("single_assistant_message.json", "message"),
        ("exchange_anthropic_thinking.json", "exchange"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert read(fixture(name)).extra["appam"]["$shape"] == shape


def test_the_seed_example_maps_one_to_one() -> None:
    assistant = read(fixture("seed_weather_session.json")).messages[2]
    thinking, text, call = assistant.content
    assert thinking == ThinkingBlock(
        text="The user wants weather data. I should call the weather tool.", provider="appam"
    )
    assert text == TextBlock(text="Let me check the weather for you.")
    assert call.model_dump(exclude={"extra"}) == {
        "type": "tool_use",
        "id": "call_abc123",
        "name": "get_weather",
        "input": {"location": "San Francisco, CA"},
        "raw_arguments": None,
    }
    assert assistant.timestamp == datetime(2025, 2, 3, 9, 14, 3, 901234, tzinfo=UTC)


def test_an_exchange_answer_carries_usage_stop_reason_model_and_id() -> None:
    conversation = read(fixture("exchange_anthropic_thinking.json"))
    answer = conversation.messages[-1]
    assert (answer.id, answer.model) == ("msg_01XFDUDYJgAACzvnptvVoYEL", "claude-sonnet-4-5")
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "end_turn")
    assert answer.usage == Usage(
        prompt_tokens=1840,
        completion_tokens=212,
        total_tokens=2052,
        cached_tokens=1536,
        cache_write_tokens=0,
        reasoning_tokens=164,
        raw=fixture("exchange_anthropic_thinking.json")["usage"],
    )
    assert conversation.metadata.provider_response_id == answer.id
    signed, redacted, _ = answer.content
    assert isinstance(signed, ThinkingBlock) and signed.signature is not None
    assert isinstance(redacted, ThinkingBlock) and redacted.redacted and redacted.text == ""


def test_signatures_go_back_only_into_appam() -> None:
    conversation = read(fixture("exchange_anthropic_thinking.json"))
    assert {b.provider for b in conversation.messages[-1].content if b.type == "thinking"} == {
        "appam"
    }
    anthropic = formats.get("anthropic").render(conversation)
    assert "EqQBCkgIARABGAIiQL8xgF9TqCb2" not in orjson.dumps(anthropic.payload).decode()


def test_media_sources_map_to_umf_sources() -> None:
    blocks = read(fixture("multimodal_documents.json")).messages[0].content
    assert isinstance(blocks[2], ImageBlock) and blocks[2].detail == "high"
    pdf, url_pdf, plain = blocks[3:]
    assert isinstance(pdf, DocumentBlock) and pdf.title == "Q3 report"
    assert pdf.source.type == "base64" and pdf.source.media_type == "application/pdf"
    assert isinstance(url_pdf, DocumentBlock)
    assert url_pdf.source == MediaSource(
        type="url", url="https://example.com/contracts/msa-2024.pdf"
    )
    assert isinstance(plain, DocumentBlock) and plain.source.type == "text"


def test_reasoning_fields_and_structured_results() -> None:
    messages = read(fixture("openrouter_reasoning_details.json")).messages
    assert messages[1].reasoning == "Need candidate restaurants and the user's free evening slots."
    assert [d["type"] for d in messages[1].reasoning_details or []] == [
        "reasoning.summary",
        "reasoning.encrypted",
    ]
    structured, failed = messages[2].content
    assert isinstance(structured, ToolResultBlock) and isinstance(structured.content, str)
    assert structured.content.startswith('{"results":[{"name":"Tasca do Chico"')
    assert structured.extra["appam"]["$content"] == "json"
    assert isinstance(failed, ToolResultBlock) and failed.is_error is True


def test_an_edited_json_result_is_written_as_text() -> None:
    payload = [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c", "content": [1]}]}
    ]
    conversation = read(payload)
    result = conversation.messages[0].content[0]
    assert isinstance(result, ToolResultBlock) and result.content == "[1]"
    result.content = "no longer JSON"
    assert APPAM.render(conversation).payload[0]["content"][0]["content"] == "no longer JSON"


def test_an_edited_timestamp_is_written_in_utc() -> None:
    conversation = read(fixture("single_assistant_message.json"))
    conversation.messages[0].timestamp = datetime(2025, 2, 6, 13, 30, tzinfo=UTC)
    assert assert_renders("appam", conversation).payload["timestamp"] == "2025-02-06T13:30:00Z"


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


EDGE_PAYLOADS: dict[str, Any] = {
    "empty content": [{"role": "user", "content": []}],
    "explicit nulls": [
        {
            "role": "assistant",
            "content": [
                {"type": "image", "source": {"type": "url", "url": "u"}, "detail": None},
                {"type": "thinking", "thinking": "t", "signature": None, "redacted": True},
                {"type": "tool_result", "tool_use_id": "c", "content": "x", "is_error": None},
            ],
            "id": None,
            "timestamp": None,
            "reasoning": None,
            "reasoning_details": None,
        }
    ],
    "thinking without the redacted flag": [
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}]}
    ],
    "timestamps with offsets and nanoseconds": [
        {"role": "user", "content": [_text("a")], "timestamp": "2025-01-01T10:00:00+02:00"},
        {"role": "user", "content": [_text("b")], "timestamp": "2025-01-01T08:00:00.123456789Z"},
    ],
    "unknown fields everywhere": [
        {
            "role": "user",
            "content": [
                {**_text("a"), "cache": True},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "iVBO", "x": 1},
                },
                {"type": "thinking", "thinking": "", "encrypted_content": "gAAA", "redacted": True},
            ],
            "session": "s1",
        }
    ],
    "tool results of every JSON kind": [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "a", "content": None},
                {"type": "tool_result", "tool_use_id": "b", "content": 3.5},
                {"type": "tool_result", "tool_use_id": "c", "content": []},
                {"type": "tool_result", "tool_use_id": "d", "content": [{"x": 1}]},
                {"type": "tool_result", "tool_use_id": "e", "content": [_text("t")]},
                {"type": "tool_result", "tool_use_id": "f", "content": {"n": 2**70}},
            ],
        }
    ],
    "tool input of any JSON kind": [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "c", "name": "f", "input": "s"}],
        }
    ],
    "exchange without usage": {
        "request": [{"role": "user", "content": [_text("hi")]}],
        "response": {"role": "assistant", "content": [_text("hello")]},
        "logged_at": "2025-01-01",
    },
    "exchange with another stop reason": {
        "request": [],
        "response": {"role": "assistant", "content": []},
        "stop_reason": "pause_turn",
        "usage": {"input_tokens": 1, "output_tokens": 0, "extra_count": 3},
    },
}


MALFORMED: dict[str, tuple[Any, str | None]] = {
    "a number": (3, "payload"),
    "an unrelated object": ({"messages": []}, "role"),
    "unknown role": ([{"role": "tool", "content": []}], "[0].role"),
    "role in Rust case": ([{"role": "User", "content": []}], "[0].role"),
    "no content": ([{"role": "user"}], "[0].content"),
    "content a string": ([{"role": "user", "content": "hi"}], "[0].content"),
    "unknown block": ([{"role": "user", "content": [{"type": "audio"}]}], "[0].content[0].type"),
    "text not a string": (
        [{"role": "user", "content": [{"type": "text", "text": 1}]}],
        "[0].content[0].text",
    ),
    "image source type": (
        [{"role": "user", "content": [{"type": "image", "source": {"type": "file"}}]}],
        "[0].content[0].source.type",
    ),
    "pdf without data": (
        [
            {
                "role": "user",
                "content": [
                    {"type": "document", "source": {"type": "base64_pdf", "media_type": "a"}}
                ],
            }
        ],
        "[0].content[0].source.data",
    ),
    "tool use without input": (
        [{"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f"}]}],
        "[0].content[0].input",
    ),
    "tool result without content": (
        [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c"}]}],
        "[0].content[0].content",
    ),
    "is_error a string": (
        [
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "c", "content": "", "is_error": "no"}
                ],
            }
        ],
        "[0].content[0].is_error",
    ),
    "redacted null": (
        [
            {
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": "", "redacted": None}],
            }
        ],
        "[0].content[0].redacted",
    ),
    "timestamp without offset": (
        [{"role": "user", "content": [], "timestamp": "2025-01-01T00:00:00"}],
        "[0].timestamp",
    ),
    "timestamp a number": (
        [{"role": "user", "content": [], "timestamp": 1700000000}],
        "[0].timestamp",
    ),
    "reasoning details not objects": (
        [{"role": "assistant", "content": [], "reasoning_details": ["x"]}],
        "[0].reasoning_details[0]",
    ),
    "exchange without response": ({"request": []}, "response"),
    "response from the user": (
        {"request": [], "response": {"role": "user", "content": []}},
        "response.role",
    ),
    "usage without output": (
        {
            "request": [],
            "response": {"role": "assistant", "content": []},
            "usage": {"input_tokens": 1},
        },
        "usage.output_tokens",
    ),
    "negative usage": (
        {
            "request": [],
            "response": {"role": "assistant", "content": []},
            "usage": {"input_tokens": -1, "output_tokens": 0},
        },
        "usage.input_tokens",
    ),
}
