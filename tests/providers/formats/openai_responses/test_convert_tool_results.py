"""Converting into ``openai-responses``: tool results move up to their calls, orphans are
handled, error flags are said in the text, and what a result cannot hold is warned.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

from providers.formats._chat_completions.pairing import MISSING_RESULT_TEXT as ORPHAN_CALL_OUTPUT
from providers.umf import (
    AudioBlock,
    MediaSource,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    PNG,
    assert_renders,
    assistant,
    call,
    chat,
    png,
    result,
    summary,
    user,
)

# --------------------------------------------------------------------------- tool results


def test_results_move_up_to_their_calls_and_orphans_are_handled() -> None:
    conversation = chat(
        user(TextBlock(text="Weather and time?")),
        assistant(call("toolu_A"), call("toolu_B", name="get_time")),
        user(
            TextBlock(text="Also: windy?"),
            ToolResultBlock(tool_use_id="toolu_A", content="18 °C"),
        ),
        user(ToolResultBlock(tool_use_id="toolu_gone", content="42")),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"][1:] == [
        {
            "type": "function_call",
            "call_id": "toolu_A",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
        },
        {
            "type": "function_call",
            "call_id": "toolu_B",
            "name": "get_time",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "toolu_A", "output": "18 °C"},
        {"type": "function_call_output", "call_id": "toolu_B", "output": ORPHAN_CALL_OUTPUT},
        {"role": "user", "content": "Also: windy?"},
        {"role": "user", "content": "42"},
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[2].content[1]", 2, 3),
        ("id-synthesized", "messages[1].content[1]", None, ORPHAN_CALL_OUTPUT),
        ("content-type-unsupported", "messages[3].content[0]", "tool", "user"),
    ]


def test_tool_result_error_flag_is_said_in_the_text() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call("call_1"), call("call_2")),
        result("call_1", "upstream timeout", is_error=True),
        result("call_2", [TextBlock(text="partial"), png()], is_error=True),
    )
    payload, warnings = assert_renders(conversation)
    image = {"type": "input_image", "detail": "auto", "image_url": f"data:image/png;base64,{PNG}"}
    marked = [
        {"type": "input_text", "text": "Error:"},
        {"type": "input_text", "text": "partial"},
        image,
    ]
    assert [item["output"] for item in payload["input"][3:]] == ["Error: upstream timeout", marked]
    assert summary(warnings) == [
        (
            "capability-unsupported",
            "messages[2].content[0].is_error",
            True,
            "Error: upstream timeout",
        ),
        ("capability-unsupported", "messages[3].content[0].is_error", True, marked),
    ]


def test_what_a_tool_result_cannot_hold() -> None:
    conversation = chat(
        assistant(call("call_1")),
        result(
            "call_1",
            [
                ThinkingBlock(text="hmm"),
                ToolUseBlock(id="call_2", name="g", input={}),
                RefusalBlock(text="no"),
                AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklG")),
                TextBlock(text="done"),
            ],
        ),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["input"][1]["output"] == [
        {"type": "input_text", "text": "no"},
        {"type": "input_text", "text": "done"},
    ]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0].content[0]", "hmm", None),
        ("content-dropped", "messages[1].content[0].content[1]", "tool_use", None),
        ("content-type-unsupported", "messages[1].content[0].content[2]", "refusal", "input_text"),
        (
            "content-dropped",
            "messages[1].content[0].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 3},
            None,
        ),
    ]
