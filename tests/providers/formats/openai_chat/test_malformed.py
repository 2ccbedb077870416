"""Malformed ``openai-chat`` input is a format error naming the offending field."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.base import FormatError
from tests.providers.formats.openai_chat._helpers import (
    _CALL,
    _USER,
    OPENAI_CHAT,
)

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
