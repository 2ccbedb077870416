"""The ``art`` format rendering conversations read from other formats: exact payloads and
exact warnings for every lossy step (every block in every role, other formats' fixtures
and random conversations are in ``test_seed_formats.py``)."""

from __future__ import annotations

import hashlib

from providers.umf import (
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.seed_formats._conversion_sources import (
    DROPPED_AUDIO,
    DROPPED_IMAGE,
    DROPPED_PDF,
    DROPPED_PHOTO,
    DROPPED_RADAR,
    anthropic_import,
    openai_import,
)
from tests.providers.formats.seed_formats._helpers import (
    assert_renders,
    message_summary,
    summary,
)
from tests.providers.sdk.art import check_art_rules, validate_payload


def _call(call_id: str, name: str, arguments: str) -> dict[str, object]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_an_anthropic_import_becomes_this_prompt() -> None:
    rendered = assert_renders("art", anthropic_import())
    check_art_rules(validate_payload(rendered.payload))
    assert rendered.payload == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": "Checking both.",
            "tool_calls": [
                _call("toolu_01Paris", "get_weather", '{"city":"Paris"}'),
                _call("toolu_01Rome", "get_weather", '{"city":"Rome"}'),
            ],
        },
        {
            "role": "tool_result",
            "tool_call_id": "toolu_01Paris",
            "content": "18 °C, sunny",
            "name": "get_weather",
        },
        {
            "role": "tool_result",
            "tool_call_id": "toolu_01Rome",
            "content": "Error: upstream timeout",
            "name": "get_weather",
        },
        {"role": "user", "content": "Also, is it windy?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("toolu_01Wind", "get_wind", '{"city":"Paris"}')],
        },
        {
            "role": "tool_result",
            "tool_call_id": "toolu_01Wind",
            "content": "12 km/h",
            "name": "get_wind",
        },
    ]


def test_an_anthropic_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("art", anthropic_import())
    assert message_summary(rendered.warnings) == [
        ("content-dropped", "messages[1].content[1]", DROPPED_IMAGE, None),
        ("reasoning-dropped", "messages[2].content[0]", "Need both cities.", None),
        ("content-dropped", "messages[3].content[0].content[1]", DROPPED_RADAR, None),
        (
            "capability-unsupported",
            "messages[3].content[1].is_error",
            True,
            "Error: upstream timeout",
        ),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
        ("content-dropped", "messages[5].content[1]", DROPPED_PDF, None),
    ]
    [redacted] = [w for w in rendered.warnings if w.field == "messages[4].content[0]"]
    assert redacted.details == {"redacted": True, "signed": True}


def test_an_openai_import_becomes_this_prompt() -> None:
    rendered = assert_renders("art", openai_import())
    check_art_rules(validate_payload(rendered.payload))
    assert rendered.payload == [
        {"role": "system", "content": "Answer briefly.", "name": "acme"},
        {"role": "user", "content": "What is in this photo and recording?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                _call("call_1", "describe", '{"target":"photo"}'),
                _call("call_2", "transcribe", "{}"),
            ],
        },
        {
            "role": "tool_result",
            "tool_call_id": "call_1",
            "content": "A red bicycle leaning on a wall.",
            "name": "describe",
        },
        {
            "role": "tool_result",
            "tool_call_id": "call_2",
            "content": "unsupported codec",
            "name": "transcribe",
        },
        {"role": "assistant", "content": "A red bicycle.\nI can't transcribe that audio."},
        {"role": "user", "content": "Thanks!", "name": "maria"},
    ]


def test_an_openai_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("art", openai_import())
    assert message_summary(rendered.warnings) == [
        ("system-message-transformed", "messages[0].role", "developer", "system"),
        ("content-dropped", "messages[1].content[1]", DROPPED_PHOTO, None),
        ("content-dropped", "messages[1].content[2]", DROPPED_AUDIO, None),
        ("content-dropped", "messages[2].content[1].raw_arguments", '{"target": "aud', {}),
        ("content-type-unsupported", "messages[5].content[1]", "refusal", "text"),
    ]


def test_results_after_text_move_before_it() -> None:
    conversation = Conversation(
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="c1", name="f", input={})]),
            Message(
                role="user",
                content=[
                    TextBlock(text="here you go"),
                    ToolResultBlock(tool_use_id="c1", content="4"),
                ],
            ),
        ]
    )
    rendered = assert_renders("art", conversation)
    assert rendered.payload[1:] == [
        {"role": "tool_result", "tool_call_id": "c1", "content": "4", "name": "f"},
        {"role": "user", "content": "here you go"},
    ]
    assert summary(rendered.warnings) == [
        ("message-reordered", "messages[1].content[1]", "within the message", "before")
    ]


def test_an_assistant_s_own_results_follow_it() -> None:
    conversation = Conversation(
        messages=[
            Message(
                role="assistant",
                content=[
                    ToolUseBlock(id="srv_1", name="web_search", input={"q": "x"}),
                    ToolResultBlock(tool_use_id="srv_1", content="found"),
                    TextBlock(text="Here is what I found."),
                ],
            )
        ]
    )
    rendered = assert_renders("art", conversation)
    assert rendered.payload == [
        {
            "role": "assistant",
            "content": "Here is what I found.",
            "tool_calls": [_call("srv_1", "web_search", '{"q":"x"}')],
        },
        {"role": "tool_result", "tool_call_id": "srv_1", "content": "found", "name": "web_search"},
    ]
    assert summary(rendered.warnings) == [
        ("message-reordered", "messages[0].content[1]", "within the message", "after")
    ]


def test_empty_call_ids_are_replaced_on_both_sides() -> None:
    conversation = Conversation(
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="", name="f", input=[1, 2])]),
            Message(role="tool", content=[ToolResultBlock(tool_use_id="", content="ok")]),
        ]
    )
    rendered = assert_renders("art", conversation)
    new_id = "call_" + hashlib.sha256(b"").hexdigest()[:24]
    assert rendered.payload == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call(new_id, "f", '{"input":[1,2]}')],
        },
        {"role": "tool_result", "tool_call_id": new_id, "content": "ok", "name": "f"},
    ]
    assert summary(rendered.warnings) == [
        ("content-type-unsupported", "messages[0].content[0].input", [1, 2], {"input": [1, 2]}),
        ("id-rewritten", "messages[0].content[0].id", "", new_id),
    ]


def test_a_tool_message_answering_no_call_becomes_a_user_message() -> None:
    conversation = Conversation(messages=[Message(role="tool", content=[TextBlock(text="stray")])])
    rendered = assert_renders("art", conversation)
    assert rendered.payload == [{"role": "user", "content": "stray"}]
    assert summary(rendered.warnings) == [
        ("content-type-unsupported", "messages[0]", "tool", "user")
    ]
