"""The ``art`` format: reading ART prompts and writing them back exactly.

Fixture round trips, validation and detection are in ``test_seed_formats.py``;
conversions from other formats in ``test_art_convert.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats
from providers.umf import TextBlock, ToolResultBlock, ToolUseBlock
from tests.providers.formats.seed_formats._helpers import (
    FIXTURES,
    assert_round_trips,
    load,
    parse_one,
    stored,
)

ART = formats.get("art")


def read(payload: Any) -> Any:
    return parse_one("art", payload)


@pytest.mark.parametrize(
    ("name", "shape"),
    [("seed_tool_call_cycle.json", "messages"), ("exchange_prompt_and_answer.json", "exchange")],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert read(load(FIXTURES / "art" / name)).extra["art"]["$shape"] == shape


def test_tool_calls_and_results_become_blocks() -> None:
    conversation = read(load(FIXTURES / "art" / "seed_tool_call_cycle.json"))
    call = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock)
    assert (call.id, call.name, call.input) == (
        "call_a1b2c3",
        "calculator",
        {"expression": "1234 * 5678"},
    )
    assert call.raw_arguments == '{"expression": "1234 * 5678"}'
    result = conversation.messages[3]
    assert (result.role, result.tool_call_id, result.name) == ("tool", "call_a1b2c3", "calculator")
    assert result.content == [
        ToolResultBlock(tool_use_id="call_a1b2c3", content='{"result": 7006652}', name="calculator")
    ]
    assert result.extra == {}  # tool_result is the default result role


def test_tool_request_messages_are_assistant_turns() -> None:
    conversation = read(load(FIXTURES / "art" / "tool_request_messages.json"))
    request, as_object = conversation.messages[2], conversation.messages[4]
    assert request.role == "assistant" and request.extra["art"]["$role"] == "tool_request"
    assert [block.type for block in request.content] == ["tool_use"]
    assert as_object.role == "assistant"
    assert as_object.content == [
        TextBlock(
            text='{"tool":"github_search","input":{"repo":"inferq/art","state":"open",'
            '"label":"bug"},"reason":"break down by label"}'
        )
    ]
    assert as_object.extra["art"] == {"$role": "tool_request", "$content": "object"}


def test_object_content_edited_into_plain_text_is_written_as_text() -> None:
    conversation = read([{"role": "tool_request", "content": {"a": 1}}])
    conversation.messages[0].content = [TextBlock(text="not JSON any more")]
    assert ART.render(conversation).payload == [
        {"role": "tool_request", "content": "not JSON any more"}
    ]


def test_a_tool_message_is_kept_as_tool() -> None:
    payload = [{"role": "tool", "tool_call_id": "c1", "content": "42"}]
    conversation = read(payload)
    assert conversation.messages[0].extra["art"]["$role"] == "tool"
    assert_round_trips("art", payload)


_CALL: dict[str, Any] = {
    "id": "c1",
    "type": "function",
    "function": {"name": "f", "arguments": "{}"},
}

EDGE_PAYLOADS: dict[str, Any] = {
    "user content null": [{"role": "user", "content": None}],
    "assistant empty string beside calls": [
        {"role": "assistant", "content": "", "tool_calls": [_CALL]}
    ],
    "empty tool_calls": [{"role": "assistant", "content": "a", "tool_calls": []}],
    "null name and tool_calls": [
        {"role": "assistant", "content": "a", "name": None, "tool_calls": None}
    ],
    "object content for a user": [{"role": "user", "content": {"k": [1, 2.5, None]}}],
    "object tool result": [{"role": "tool_result", "tool_call_id": "c1", "content": {"ok": True}}],
    "null tool result": [
        {"role": "tool_result", "tool_call_id": "c1", "content": None, "name": "f"}
    ],
    "invalid JSON arguments": [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{**_CALL, "function": {"name": "f", "arguments": '{"a": '}}],
        }
    ],
    "unknown fields everywhere": [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{**_CALL, "index": 0, "function": {**_CALL["function"], "x": 1}}],
            "id": "msg_1",
        },
        {"role": "tool_result", "tool_call_id": "c1", "content": "r", "metadata": {"ms": 12}},
    ],
    "one message": {"role": "assistant", "content": "hello", "name": "bot"},
    "exchange with an envelope": {
        "request": [{"role": "user", "content": "hi"}],
        "response": {"role": "assistant", "content": None, "tool_calls": [_CALL]},
        "traceId": "t1",
    },
    "huge integer in object content": [{"role": "user", "content": {"n": 2**70}}],
}


MALFORMED: dict[str, tuple[Any, str | None]] = {
    "a string": ("hello", "payload"),
    "an unrelated object": ({"contents": []}, "role"),
    "message not an object": ([{"role": "user", "content": "a"}, 3], "[1]"),
    "unknown role": ([{"role": "model", "content": "a"}], "[0].role"),
    "no content": ([{"role": "user"}], "[0].content"),
    "content a number": ([{"role": "user", "content": 3}], "[0].content"),
    "content a list": ([{"role": "user", "content": [{"type": "text"}]}], "[0].content"),
    "tool_calls an object": (
        [{"role": "assistant", "content": None, "tool_calls": {}}],
        "[0].tool_calls",
    ),
    "call of another type": (
        [{"role": "assistant", "content": None, "tool_calls": [{**_CALL, "type": "custom"}]}],
        "[0].tool_calls[0].type",
    ),
    "call without id": (
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"type": "function", "function": {}}],
            }
        ],
        "[0].tool_calls[0].function.arguments",
    ),
    "arguments an object": (
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{**_CALL, "function": {"name": "f", "arguments": {}}}],
            }
        ],
        "[0].tool_calls[0].function.arguments",
    ),
    "result without tool_call_id": ([{"role": "tool_result", "content": "r"}], "[0].tool_call_id"),
    "tool_call_id a number": (
        [{"role": "tool_result", "tool_call_id": 1, "content": "r"}],
        "[0].tool_call_id",
    ),
    "result content a list": (
        [{"role": "tool_result", "tool_call_id": "c", "content": []}],
        "[0].content",
    ),
    "name a number": ([{"role": "user", "content": "a", "name": 1}], "[0].name"),
    "exchange without response": ({"request": []}, "response"),
    "exchange request not a list": ({"request": {}, "response": {}}, "request"),
    "response from the user": (
        {"request": [], "response": {"role": "user", "content": "a"}},
        "response.role",
    ),
}


def test_storage_keeps_what_round_trips_need() -> None:
    payload = EDGE_PAYLOADS["object tool result"]
    conversation = stored(read(payload))
    assert ART.render(conversation).payload == payload
