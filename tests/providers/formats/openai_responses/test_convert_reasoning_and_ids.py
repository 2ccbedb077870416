"""Converting into ``openai-responses``: foreign reasoning is dropped, our own goes back with
the item after it, and ids the API refuses are never sent or are rewritten.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

import hashlib

import orjson

from providers.umf import (
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    FC_ID,
    FORMAT_ID,
    RS_ID,
    assert_renders,
    assistant,
    call,
    chat,
    own_reasoning,
    result,
    rewritten,
    summary,
    user,
)

# --------------------------------------------------------------------------- reasoning and ids


def test_foreign_reasoning_is_dropped_and_signatures_never_travel() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(
            ThinkingBlock(text="Signed.", signature="EqQBCkgIARAB", provider="anthropic"),
            ThinkingBlock(redacted=True, data="EmwKAhgBEgy3va", provider="anthropic"),
            ThinkingBlock(text="Gemini's", signature="CiQBVKhc", provider="gemini"),
            ThinkingBlock(text="no origin"),
            call("toolu_01A"),
        ),
        result("toolu_01A"),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"][1] == {
        "type": "function_call",
        "call_id": "toolu_01A",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Signed.", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        ("reasoning-dropped", "messages[1].content[2]", "Gemini's", None),
        ("reasoning-dropped", "messages[1].content[3]", "no origin", None),
    ]
    text = orjson.dumps(payload).decode()
    assert "EqQBCkgIARAB" not in text and "EmwKAhgBEgy3va" not in text and "CiQBVKhc" not in text


def test_own_reasoning_goes_back_with_the_item_that_followed_it() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(own_reasoning(id=RS_ID), call("call_1", id=FC_ID, status="completed")),
        result("call_1"),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"][1:3] == [
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "Need the weather."}],
            "encrypted_content": "gAAAAABo",
            "id": RS_ID,
        },
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
            "id": FC_ID,
            "status": "completed",
        },
    ]
    assert warnings == []


def test_reasoning_that_cannot_go_back_takes_the_next_items_id_with_it() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(own_reasoning(), call("call_1", id=FC_ID)),
        result("call_1"),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"][1] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Need the weather.", None),
        ("id-rewritten", "messages[1].content[1].id", FC_ID, None),
    ]


def test_item_ids_of_the_wrong_type_are_never_sent() -> None:
    # A Chat Completions call id kept as the item id would be refused ("Expected an ID
    # that begins with 'fc'"): only call_id carries it.
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call("call_9xQ", id="call_9xQ"), call("call_9xR", id="fc bad id")),
        result("call_9xQ"),
        result("call_9xR"),
    )
    payload, warnings = assert_renders(conversation)
    assert [item.get("id") for item in payload["input"][1:3]] == [None, None]
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", "call_9xQ", None),
        ("id-rewritten", "messages[1].content[1].id", "fc bad id", None),
    ]


def test_reasoning_with_nothing_after_it_is_not_sent() -> None:
    conversation = chat(user(TextBlock(text="Hi")), assistant(own_reasoning(id=RS_ID)))
    payload, warnings = assert_renders(conversation)
    assert payload["input"] == [{"role": "user", "content": "Hi"}]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Need the weather.", None)
    ]


def test_reasoning_followed_only_by_a_tool_answer_is_not_sent() -> None:
    # The answer moves to right after its call, which left the reasoning last (found by
    # the random conversations of test_convert_every_block).
    answer = ToolResultBlock(tool_use_id="call_a", content="ok")
    conversation = chat(assistant(call("call_a")), assistant(own_reasoning(id=RS_ID), answer))
    payload, warnings = assert_renders(conversation)
    assert [item["type"] for item in payload["input"]] == [
        "function_call",
        "function_call_output",
    ]
    assert ("reasoning-dropped", "messages[1].content[0]", "Need the weather.", None) in (
        summary(warnings)
    )


def test_call_ids_the_api_refuses_are_rewritten_on_both_sides() -> None:
    long_id = "toolu_" + "x" * 70
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call(long_id), call("call_1")),
        result(long_id),
        result("call_1"),
        assistant(call("call_1")),
        result("call_1"),
    )
    payload, warnings = assert_renders(conversation)
    calls = [item["call_id"] for item in payload["input"] if item.get("type") == "function_call"]
    outputs = [i["call_id"] for i in payload["input"] if i.get("type") == "function_call_output"]
    fresh = "call_" + hashlib.sha256(b"call_1#1").hexdigest()[:24]
    assert calls == outputs == [rewritten(long_id), "call_1", fresh]
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", long_id, rewritten(long_id)),
        ("id-rewritten", "messages[4].content[0].id", "call_1", fresh),
    ]


def test_a_user_messages_id_of_the_wrong_type_is_never_sent() -> None:
    # Found by the mutation test: only the assistant's item ids were checked, so an input
    # message's id went to the API whatever it held.
    conversation = chat(
        user(TextBlock(text="Hi"), extra={FORMAT_ID: {"id": "item-1"}}),
        user(TextBlock(text="Hi"), extra={FORMAT_ID: {"id": ["msg_1"]}}),
        user(TextBlock(text="Again"), extra={FORMAT_ID: {"id": "msg_2"}}),
    )
    payload, warnings = assert_renders(conversation)
    assert [item.get("id") for item in payload["input"]] == [None, None, "msg_2"]
    assert summary(warnings) == [
        ("id-rewritten", "messages[0].id", "item-1", None),
        ("id-rewritten", "messages[1].id", ["msg_1"], None),
    ]
