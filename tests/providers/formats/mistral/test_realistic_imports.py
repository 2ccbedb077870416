"""The ``mistral`` format rendering realistic imports from other formats: the exact requests of
tool loops, a warning for each lossy step, and thinking and its signatures.

Every rendered request must be one mistralai's request types accept (plus the ordering
and id rules the API enforces), and everything it could not carry must be a warning.
"""

from __future__ import annotations

import orjson

from providers.umf import (
    Conversation,
    Message,
    Parameters,
    TextBlock,
    ThinkingBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    FIXTURES,
    load,
    summary,
)
from tests.providers.formats.mistral._helpers import (
    BRIDGE,
    assert_renders,
    call,
    imported,
    mistral_id,
)

# --------------------------------------------------------------------------- realistic imports


def test_openai_tool_loop_renders_the_exact_request() -> None:
    payload, warnings = assert_renders(imported("openai-chat", "tool_loop_parallel"))
    source = load(FIXTURES / "openai-chat" / "tool_loop_parallel.json")
    messages = source["messages"]
    ids = [call["id"] for call in messages[2]["tool_calls"]] + [messages[8]["tool_calls"][0]["id"]]
    new = [mistral_id(original) for original in ids]
    assert payload == {
        "model": "gpt-4.1-2025-04-14",
        "temperature": 0.2,
        "parallel_tool_calls": True,
        "messages": [
            messages[0],
            messages[1],
            {
                "role": "assistant",
                "tool_calls": [
                    call(new[0], "get_weather", '{"city":"Paris","unit":"celsius"}'),
                    call(new[1], "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                    call(new[2], "get_time", '{"timezone": "Asia/Tokyo"}'),
                ],
            },
            {
                "role": "tool",
                "tool_call_id": new[0],
                "name": "get_weather",
                "content": messages[3]["content"],
            },
            {
                "role": "tool",
                "tool_call_id": new[1],
                "name": "get_weather",
                "content": messages[4]["content"],
            },
            {
                "role": "tool",
                "tool_call_id": new[2],
                "name": "get_time",
                "content": messages[5]["content"],
            },
            messages[6],
            messages[7],
            {
                "role": "assistant",
                "content": "Searching now.",
                "tool_calls": [
                    call(
                        new[3],
                        "search_restaurants",
                        messages[8]["tool_calls"][0]["function"]["arguments"],
                    )
                ],
            },
            {
                "role": "tool",
                "tool_call_id": new[3],
                "name": "search_restaurants",
                "content": messages[9]["content"],
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {k: v for k, v in tool["function"].items() if k != "strict"},
            }
            for tool in source["tools"]
        ],
        "tool_choice": "auto",
    }
    paths = ["messages[2].content[0]", "messages[2].content[1]", "messages[2].content[2]"]
    assert summary(warnings) == [
        *[
            ("id-rewritten", f"{path}.id", old, fresh)
            for path, old, fresh in zip(paths, ids, new, strict=False)
        ],
        ("id-rewritten", "messages[8].content[1].id", ids[3], new[3]),
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None),
    ]


def test_anthropic_tool_loop_renders_the_exact_request() -> None:
    payload, _ = assert_renders(imported("anthropic", "tool_loop_parallel"))
    source = load(FIXTURES / "anthropic" / "tool_loop_parallel.json")
    paris, tokyo, time, retry = (
        mistral_id(block["id"])
        for block in source["messages"][1]["content"][1:] + source["messages"][3]["content"][1:]
    )
    radar = source["messages"][2]["content"][2]["content"][1]["source"]["data"]
    assert payload["messages"] == [
        {"role": "system", "content": source["system"]},
        {"role": "user", "content": source["messages"][0]["content"]},
        {
            "role": "assistant",
            "content": "I'll look up both cities at once.",
            "tool_calls": [
                call(paris, "get_weather", '{"city":"Paris","unit":"celsius"}'),
                call(tokyo, "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                call(time, "get_local_time", '{"city":"Paris"}'),
            ],
        },
        {
            "role": "tool",
            "tool_call_id": paris,
            "name": "get_weather",
            "content": '{"temp_c": 18, "conditions": "cloudy"}',
        },
        {
            "role": "tool",
            "tool_call_id": tokyo,
            "name": "get_weather",
            "content": [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": time,
            "name": "get_local_time",
            "content": [{"type": "text", "text": "14:05 CEST (UTC+2)"}],
        },
        BRIDGE,
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": f"data:image/png;base64,{radar}"}],
        },
        {
            "role": "assistant",
            "content": source["messages"][3]["content"][0]["text"],
            "tool_calls": [call(retry, "get_weather", '{"city":"Tokyo","unit":"celsius"}')],
        },
        {
            "role": "tool",
            "tool_call_id": retry,
            "name": "get_weather",
            "content": '{"temp_c": 24, "conditions": "sunny"}',
        },
        BRIDGE,
        {"role": "user", "content": "Thanks. And in Fahrenheit?"},
        {"role": "assistant", "content": source["messages"][5]["content"], "prefix": True},
    ]


def test_anthropic_tool_loop_warns_for_each_lossy_step() -> None:
    _, warnings = assert_renders(imported("anthropic", "tool_loop_parallel"))
    lossy = [w for w in summary(warnings) if w[0] not in ("field-unknown", "id-rewritten")]
    assert lossy == [
        (
            "capability-unsupported",
            "messages[3].content[1].is_error",
            True,
            [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        ),
        ("message-reordered", "messages[3].content[2].content[1]", "tool", "user"),
        ("message-reordered", "messages[3].content[2]", None, BRIDGE),
        ("message-reordered", "messages[5]", None, BRIDGE),
        ("parameter-defaulted", "messages[6]", None, {"prefix": True}),
    ]
    assert [w[1] for w in summary(warnings) if w[0] == "id-rewritten"] == [
        "messages[2].content[1].id",
        "messages[2].content[2].id",
        "messages[2].content[3].id",
        "messages[4].content[1].id",
    ]


def test_anthropic_thinking_keeps_its_text_but_not_its_signature() -> None:
    payload, warnings = assert_renders(imported("anthropic", "thinking_tool_loop"))
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    thinking = source["messages"][1]["content"][0]
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": thinking["thinking"]}]}
    ]
    assert summary(warnings)[2:] == [
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    text = orjson.dumps(payload).decode()
    assert thinking["signature"] not in text
    assert source["messages"][1]["content"][1]["data"] not in text


def test_mistral_signatures_go_back_to_mistral() -> None:
    signed = ThinkingBlock(text="Check units.", signature="bWlzdHJhbA==", provider="mistral")
    conversation = Conversation(
        parameters=Parameters(model="magistral-medium-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="5 km in miles?")]),
            Message(role="assistant", content=[signed, TextBlock(text="3.1 miles.")]),
            Message(role="user", content=[TextBlock(text="And 10 km?")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
    assert payload["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": [{"type": "text", "text": "Check units."}],
        "signature": "bWlzdHJhbA==",
    }
    assert warnings == []
