"""A provider field whose name starts with ``$`` is refused where it would be kept in
``extra``: there ``$`` names are a format's own layout hints, which renderers leave out, so
the field once vanished on render (found by the mistral mutation test). JSON carried whole
(tool parameters' ``$ref`` and ``$defs``, arguments, schemas, metadata) is not checked."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers import formats
from providers.formats.base import FormatError
from tests.providers.formats.chat_completions._helpers import canonical, stored

RESERVED = "field names starting with '$' are reserved"
_USER = {"role": "user", "content": "hi"}
_BLOCKS = [{"type": "text", "text": "hi"}]
_PARTS = [{"type": "text", "content": "hi"}]
_CHATGPT_MESSAGE = {
    "id": "a",
    "author": {"role": "user"},
    "content": {"content_type": "text", "parts": ["hi"]},
}

# (format, payload, the path of the refused field): a field beside a message's own, then
# one beside the payload's (request, exchange envelope or conversation), for each format
# that keeps unknown fields in ``extra``; then a few deeper places.
REFUSED: dict[str, tuple[str, Any, str]] = {
    "openai-chat message": ("openai-chat", [{**_USER, "$x": 1}], "[0].$x"),
    "openai-chat request": ("openai-chat", {"messages": [_USER], "$x": 1}, "$x"),
    "mistral message": ("mistral", [{**_USER, "$x": 1}], "[0].$x"),
    "mistral request": ("mistral", {"messages": [_USER], "$x": 1}, "$x"),
    "cohere message": ("cohere", [{**_USER, "$x": 1}], "[0].$x"),
    "cohere request": ("cohere", {"model": "m", "messages": [_USER], "$x": 1}, "$x"),
    "appam message": ("appam", [{"role": "user", "content": _BLOCKS, "$x": 1}], "[0].$x"),
    "appam exchange": (
        "appam",
        {
            "request": [{"role": "user", "content": _BLOCKS}],
            "response": {"role": "assistant", "content": _BLOCKS},
            "$x": 1,
        },
        "$x",
    ),
    "art message": ("art", [{**_USER, "$x": 1}], "[0].$x"),
    "art exchange": (
        "art",
        {"request": [_USER], "response": {"role": "assistant", "content": "a"}, "$x": 1},
        "$x",
    ),
    "forge message": ("forge", [{**_USER, "$x": 1}], "[0].$x"),
    "forge exchange": (
        "forge",
        {"request": [_USER], "response": {"role": "assistant", "content": "a"}, "$x": 1},
        "$x",
    ),
    "matey-ir message": (
        "matey-ir",
        {"messages": [{**_USER, "$x": 1}], "metadata": {}},
        "messages[0].$x",
    ),
    "matey-ir request": ("matey-ir", {"messages": [_USER], "metadata": {}, "$x": 1}, "$x"),
    "otel-genai message": (
        "otel-genai",
        [{"role": "user", "parts": _PARTS, "$x": 1}],
        "payload[0].$x",
    ),
    "otel-genai attributes": (
        "otel-genai",
        {"gen_ai.input.messages": [{"role": "user", "parts": _PARTS}], "$x": 1},
        "$x",
    ),
    "sharegpt turn": (
        "sharegpt",
        {"conversations": [{"from": "human", "value": "hi", "$x": 1}]},
        "conversations[0].$x",
    ),
    "sharegpt entry": (
        "sharegpt",
        {"conversations": [{"from": "human", "value": "hi"}], "$x": 1},
        "$x",
    ),
    "claude-export message": (
        "claude-export",
        {
            "uuid": "c",
            "chat_messages": [
                {"uuid": "m", "sender": "human", "text": "hi", "content": _BLOCKS, "$x": 1}
            ],
        },
        "chat_messages[0].$x",
    ),
    "claude-export conversation": (
        "claude-export",
        {"uuid": "c", "chat_messages": [], "$x": 1},
        "$x",
    ),
    "chatgpt-export message": (
        "chatgpt-export",
        {
            "mapping": {"a": {"id": "a", "message": {**_CHATGPT_MESSAGE, "$x": 1}, "children": []}},
            "current_node": "a",
        },
        "mapping.a.message.$x",
    ),
    "chatgpt-export conversation": ("chatgpt-export", {"mapping": {}, "$x": 1}, "$x"),
    "openai-finetune message": (
        "openai-finetune",
        '{"messages":[{"role":"user","content":"hi","$x":1}]}\n',
        "line 1.messages[0].$x",
    ),
    "openai-finetune line": (
        "openai-finetune",
        '{"messages":[{"role":"user","content":"hi"}],"$x":1}\n',
        "line 1.$x",
    ),
    "umf message": ("umf", [{**_USER, "$content": None}], "payload[0].$content"),
    "umf tool": (
        "umf",
        {"messages": [], "tools": [{"type": "function", "function": {"name": "f"}, "$shape": 1}]},
        "payload.tools[0].$shape",
    ),
    "openai-chat response message": (
        "openai-chat",
        {"choices": [{"message": {"role": "assistant", "content": "a", "$x": 1}}]},
        "choices[0].message.$x",
    ),
    "openai-chat content part": (
        "openai-chat",
        [{"role": "user", "content": [{"type": "text", "text": "a", "$x": 1}]}],
        "[0].content[0].$x",
    ),
    "openai-chat tool": (
        "openai-chat",
        {"messages": [_USER], "tools": [{"type": "function", "function": {"name": "f", "$x": 1}}]},
        "tools[0].function.$x",
    ),
    "cohere content part": (
        "cohere",
        {"message": {"role": "assistant", "content": [{"type": "text", "text": "a", "$x": 1}]}},
        "message.content[0].$x",
    ),
    "mistral tool call": (
        "mistral",
        [
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}, "$x": 1}],
            }
        ],
        "[0].tool_calls[0].$x",
    ),
    # What the mistral mutation test drew: a response message replaced by {"$": null}.
    "mistral response message": (
        "mistral",
        {"choices": [{"message": {"$": None}}]},
        "choices[0].message.$",
    ),
}


@pytest.mark.parametrize(("format_id", "payload", "field"), REFUSED.values(), ids=REFUSED.keys())
def test_a_field_named_like_a_hint_is_refused_naming_it(
    format_id: str, payload: Any, field: str
) -> None:
    with pytest.raises(FormatError) as raised:
        formats.get(format_id).parse(payload)
    assert (raised.value.message, raised.value.field) == (RESERVED, field)


# --------------------------------------------------------------------------- carried whole

_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"place": {"$ref": "#/$defs/place"}},
    "$defs": {"place": {"type": "object", "properties": {"$city": {"type": "string"}}}},
}
_TOOL = {
    "type": "function",
    "function": {"name": "weather", "description": "Weather", "parameters": _SCHEMA},
}
_CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "weather", "arguments": '{"place":{"$city":"Oslo"}}'},
}
_CALL_AND_RESULT = [
    _USER,
    {"role": "assistant", "content": "", "tool_calls": [_CALL]},
    {"role": "tool", "tool_call_id": "call_1", "content": '{"$temperature":3}'},
]
CARRIED_WHOLE: dict[str, tuple[str, Any]] = {
    "openai-chat": (
        "openai-chat",
        {
            "model": "gpt-4.1",
            "messages": _CALL_AND_RESULT,
            "tools": [_TOOL],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": _SCHEMA},
            },
            "metadata": {"$trace": "t1"},
        },
    ),
    "mistral": (
        "mistral",
        {"model": "mistral-large-latest", "messages": _CALL_AND_RESULT, "tools": [_TOOL]},
    ),
    "cohere": (
        "cohere",
        {"model": "command-a-03-2025", "messages": _CALL_AND_RESULT, "tools": [_TOOL]},
    ),
}


@pytest.mark.parametrize(("format_id", "payload"), CARRIED_WHOLE.values(), ids=CARRIED_WHOLE.keys())
def test_dollar_keys_inside_schemas_arguments_and_results_round_trip(
    format_id: str, payload: Any
) -> None:
    fmt = formats.get(format_id)
    [item] = fmt.parse(payload)
    conversation = stored(item.conversation)
    assert conversation.tools[0].parameters == _SCHEMA
    rendered = fmt.render(conversation).payload
    assert canonical(rendered) == canonical(payload)


# --------------------------------------------------------------------------- inside text


def test_a_sharegpt_call_or_tool_with_a_dollar_field_stays_as_written() -> None:
    # The calls and tools are JSON inside strings: such a call is read as text (reading a
    # turn's text never fails) rather than as a call whose field would be lost.
    entry = {
        "conversations": [
            _sharegpt_turn("human", "hi"),
            _sharegpt_turn("function_call", '{"name": "f", "arguments": {}, "$id": 1}'),
        ],
        "tools": orjson.dumps([{"name": "f", "$id": 1, "parameters": _SCHEMA}]).decode(),
    }
    fmt = formats.get("sharegpt")
    [item] = fmt.parse(entry)
    conversation = stored(item.conversation)
    assert conversation.tools == []
    assert [block.type for message in conversation.messages for block in message.content] == [
        "text",
        "text",
    ]
    assert fmt.render(conversation).payload == entry


def _sharegpt_turn(name: str, value: str) -> dict[str, str]:
    return {"from": name, "value": value}


_CHATML_TOOLS = (
    "<|im_start|>system\nBe brief.\n\n# Tools\n\n"
    "You may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
    '{"type": "function", "function": {"name": "f", "$id": 1}}\n'
    "</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n'
)
_CHATML_CALL = (
    "<|im_start|>assistant\n<tool_call>\n"
    '{"name": "f", "arguments": {}, "$id": 1}\n'
    "</tool_call><|im_end|>\n"
)
_FORGE_CALL = [
    {
        "role": "assistant",
        "content": '<tool>\n{"tool_name": "f", "arguments": {}, "$id": 1}\n</tool>',
    }
]


@pytest.mark.parametrize(
    ("format_id", "payload"),
    [("chatml", _CHATML_TOOLS), ("chatml", _CHATML_CALL), ("forge", _FORGE_CALL)],
    ids=["chatml tool", "chatml call", "forge call"],
)
def test_a_tool_or_call_in_text_with_a_dollar_field_stays_text(
    format_id: str, payload: Any
) -> None:
    # Reading a text never fails: the JSON is read as the text it is, not as a tool or a
    # call whose field would pass for a hint (and be lost to any other format).
    fmt = formats.get(format_id)
    [item] = fmt.parse(payload)
    conversation = stored(item.conversation)
    assert conversation.tools == []
    assert {block.type for message in conversation.messages for block in message.content} == {
        "text"
    }
    assert fmt.render(conversation).payload == payload
