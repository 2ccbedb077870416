"""Malformed ``openai-responses`` input is a FormatError naming the field at fault."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.base import FormatError
from tests.providers.formats.openai_responses._helpers import (
    RESPONSES,
)

# --------------------------------------------------------------------------- bad input

_USER = {"role": "user", "content": "hi"}

MALFORMED: dict[str, tuple[Any, str | None]] = {
    "not an object": ("hello", "payload"),
    "no input": ({"model": "m"}, "input"),
    "input a number": ({"input": 3}, "input"),
    "item not an object": ([_USER, "hi"], "[1]"),
    "item without type or role": ([{"content": "hi"}], "[0].type"),
    "item type a number": ([{"type": 3}], "[0].type"),
    "reserved key": ([{"role": "user", "content": "x", "$content": "string"}], "[0].$content"),
    # This format's own fields (items and tools it keeps verbatim), which a render puts
    # back as items or tools: a provider field of that name would vanish (found by the
    # mutation test).
    "message field named unmapped_items": (
        [{"role": "user", "content": [], "unmapped_items": None}],
        "[0].unmapped_items",
    ),
    "request field named unmapped_tools": (
        {"input": "x", "unmapped_tools": [{"type": "web_search"}]},
        "unmapped_tools",
    ),
    "output field named unmapped_items": (
        [{"type": "function_call_output", "call_id": "c", "output": "x", "unmapped_items": 1}],
        "[0].unmapped_items",
    ),
    "unknown role": ({"input": [{"role": "tool", "content": "hi"}]}, "input[0].role"),
    "message without content": ([{"role": "user"}], "[0].content"),
    "content a number": ({"input": [_USER, {"role": "user", "content": 3}]}, "input[1].content"),
    "part without type": ([{"role": "user", "content": [{"text": "a"}]}], "[0].content[0].type"),
    "chat part type": (
        [{"role": "user", "content": [{"type": "text", "text": "a"}]}],
        "[0].content[0].type",
    ),
    "text not a string": (
        [{"role": "user", "content": [{"type": "input_text", "text": 1}]}],
        "[0].content[0].text",
    ),
    "image with no source": (
        [{"role": "user", "content": [{"type": "input_image", "detail": "auto"}]}],
        "[0].content[0]",
    ),
    "image url a number": (
        [{"role": "user", "content": [{"type": "input_image", "image_url": 5}]}],
        "[0].content[0].image_url",
    ),
    "file with no source": (
        [{"role": "user", "content": [{"type": "input_file", "filename": "a.pdf"}]}],
        "[0].content[0]",
    ),
    "refusal not a string": (
        [{"role": "assistant", "content": [{"type": "refusal", "refusal": None}]}],
        "[0].content[0].refusal",
    ),
    "call without call_id": (
        [{"type": "function_call", "name": "f", "arguments": "{}"}],
        "[0].call_id",
    ),
    "arguments an object": (
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}],
        "[0].arguments",
    ),
    "custom call without input": (
        [{"type": "custom_tool_call", "call_id": "c", "name": "f"}],
        "[0].input",
    ),
    "output without call_id": ([{"type": "function_call_output", "output": "x"}], "[0].call_id"),
    "output without output": ([{"type": "function_call_output", "call_id": "c"}], "[0].output"),
    "output an object": (
        [{"type": "function_call_output", "call_id": "c", "output": {"a": 1}}],
        "[0].output",
    ),
    "reasoning without summary": ([{"type": "reasoning", "id": "rs_1"}], "[0].summary"),
    "summary part without text": (
        [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text"}]}],
        "[0].summary[0].text",
    ),
    "encrypted content a number": (
        [{"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": 1}],
        "[0].encrypted_content",
    ),
    "instructions a list": ({"input": "x", "instructions": ["a"]}, "instructions"),
    "temperature a string": ({"input": "x", "temperature": "0.7"}, "temperature"),
    "max_output_tokens a float": ({"input": "x", "max_output_tokens": 1.5}, "max_output_tokens"),
    "tools not a list": ({"input": "x", "tools": {}}, "tools"),
    "tool without type": ({"input": "x", "tools": [{"name": "f"}]}, "tools[0].type"),
    "function tool without name": (
        {"input": "x", "tools": [{"type": "function"}]},
        "tools[0].name",
    ),
    "tool parameters a list": (
        {"input": "x", "tools": [{"type": "function", "name": "f", "parameters": []}]},
        "tools[0].parameters",
    ),
    "tool_choice unknown": ({"input": "x", "tool_choice": "any"}, "tool_choice"),
    "tool_choice without name": (
        {"input": "x", "tool_choice": {"type": "function"}},
        "tool_choice.name",
    ),
    "allowed tools bad mode": (
        {"input": "x", "tool_choice": {"type": "allowed_tools", "mode": "none", "tools": []}},
        "tool_choice.mode",
    ),
    "exchange without response": ({"request": {"input": "x"}}, "response"),
    "exchange request without input": (
        {"request": {}, "response": {"output": []}},
        "request.input",
    ),
    "exchange with a bad item": (
        {"request": {"input": [_USER, {"role": "user", "content": 1}]}, "response": {"output": []}},
        "request.input[1].content",
    ),
    "response output not a list": ({"object": "response", "output": {}}, "output"),
    "response output from the user": ({"output": [_USER]}, "output[0].role"),
    "response status a number": ({"output": [], "status": 1}, "status"),
    "response incomplete details a string": (
        {"output": [], "status": "incomplete", "incomplete_details": "max"},
        "incomplete_details",
    ),
    "response id a number": ({"output": [], "id": 7}, "id"),
    "usage a list": ({"output": [], "usage": []}, "usage"),
    "an unrelated object": ({"contents": [{"parts": [{"text": "hi"}]}]}, "input"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_input_is_a_format_error_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        RESPONSES.parse(payload)
    assert raised.value.field == field
