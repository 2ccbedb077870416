"""Malformed ``ollama`` input is a format error naming the offending field."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.base import FormatError
from providers.formats.ollama import FORMAT
from tests.providers.formats.ollama._helpers import (
    _CALL,
    _USER,
    PNG,
)

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
