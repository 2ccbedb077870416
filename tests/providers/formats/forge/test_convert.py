"""The ``forge`` format rendering conversations read from other formats: exact payloads
and exact warnings for every lossy step (every block in every role, other formats'
fixtures and random conversations are in ``test_seed_formats.py``)."""

from __future__ import annotations

import pytest

from providers.umf import (
    Conversation,
    DocumentBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
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
    parse_one,
    summary,
)


def _xml_call(name: str, *arguments: str) -> str:
    body = "".join(f"  {argument}\n" for argument in arguments)
    return f"<tool>\n<tool_name>{name}</tool_name>\n<arguments>\n{body}</arguments>\n</tool>"


def test_an_anthropic_import_becomes_these_messages() -> None:
    rendered = assert_renders("forge", anthropic_import())
    assert rendered.payload == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": "[Need both cities.]\n\nChecking both.\n\n"
            + _xml_call("get_weather", "<city>Paris</city>")
            + "\n\n"
            + _xml_call("get_weather", "<city>Rome</city>"),
        },
        {"role": "tool", "content": "Tool: get_weather\n18 °C, sunny"},
        {"role": "tool", "content": "Tool: get_weather\nError: upstream timeout"},
        {"role": "user", "content": "Also, is it windy?"},
        {"role": "assistant", "content": _xml_call("get_wind", "<city>Paris</city>")},
        {"role": "tool", "content": "Tool: get_wind\n12 km/h"},
    ]


def test_an_anthropic_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("forge", anthropic_import())
    assert message_summary(rendered.warnings) == [
        ("content-dropped", "messages[1].content[1]", DROPPED_IMAGE, None),
        ("signature-stripped", "messages[2].content[0]", "anthropic", None),
        ("id-rewritten", "messages[2].content[2].id", "toolu_01Paris", None),
        ("id-rewritten", "messages[2].content[3].id", "toolu_01Rome", None),
        ("content-dropped", "messages[3].content[0].content[1]", DROPPED_RADAR, None),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
        ("id-rewritten", "messages[4].content[1].id", "toolu_01Wind", None),
        ("content-dropped", "messages[5].content[1]", DROPPED_PDF, None),
    ]
    assert {w.severity for w in rendered.warnings if w.category == "id-rewritten"} == {"info"}


def test_an_openai_import_becomes_these_messages() -> None:
    rendered = assert_renders("forge", openai_import())
    assert rendered.payload == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "What is in this photo and recording?"},
        {
            "role": "assistant",
            "content": _xml_call("describe", "<target>photo</target>")
            + "\n\n"
            + _xml_call("transcribe"),
        },
        {"role": "tool", "content": "Tool: describe\nA red bicycle leaning on a wall."},
        {"role": "tool", "content": "Tool: transcribe\nunsupported codec"},
        {"role": "assistant", "content": "A red bicycle.\n\nI can't transcribe that audio."},
        {"role": "user", "content": "Thanks!"},
    ]


def test_an_openai_import_warns_for_each_lossy_step() -> None:
    rendered = assert_renders("forge", openai_import())
    assert message_summary(rendered.warnings) == [
        ("content-dropped", "messages[0].name", "acme", None),
        ("system-message-transformed", "messages[0].role", "developer", "system"),
        ("content-dropped", "messages[1].content[1]", DROPPED_PHOTO, None),
        ("content-dropped", "messages[1].content[2]", DROPPED_AUDIO, None),
        ("id-rewritten", "messages[2].content[0].id", "call_1", None),
        ("content-dropped", "messages[2].content[1].raw_arguments", '{"target": "aud', {}),
        ("id-rewritten", "messages[2].content[1].id", "call_2", None),
        ("content-type-unsupported", "messages[5].content[1]", "refusal", "text"),
        ("content-dropped", "messages[6].name", "maria", None),
    ]


def test_converted_calls_read_back_as_the_same_calls() -> None:
    conversation = anthropic_import()
    payload = assert_renders("forge", conversation).payload
    back = parse_one("forge", payload)
    calls = [b for m in back.messages for b in m.content if isinstance(b, ToolUseBlock)]
    originals = [b for m in conversation.messages for b in m.content if isinstance(b, ToolUseBlock)]
    assert [(c.name, c.input) for c in calls] == [(c.name, c.input) for c in originals]
    results = [b for m in back.messages for b in m.content if isinstance(b, ToolResultBlock)]
    assert [r.tool_use_id for r in results] == [c.id for c in calls]
    assert [r.is_error for r in results] == [None, True, None]


def test_results_follow_the_assistant_and_precede_the_user_text() -> None:
    conversation = Conversation(
        messages=[
            Message(
                role="assistant",
                content=[
                    ToolUseBlock(id="srv_1", name="web_search", input={"q": "x"}),
                    ToolResultBlock(tool_use_id="srv_1", content="found"),
                    TextBlock(text="Here is what I found."),
                ],
            ),
            Message(
                role="user",
                content=[
                    TextBlock(text="thanks"),
                    ToolResultBlock(tool_use_id="x", content="late"),
                ],
            ),
        ]
    )
    rendered = assert_renders("forge", conversation)
    assert rendered.payload == [
        {
            "role": "assistant",
            "content": _xml_call("web_search", "<q>x</q>") + "\n\nHere is what I found.",
        },
        {"role": "tool", "content": "Tool: web_search\nfound"},
        {"role": "tool", "content": "Tool: tool\nlate"},
        {"role": "user", "content": "thanks"},
    ]
    assert summary(rendered.warnings) == [
        ("id-rewritten", "messages[0].content[0].id", "srv_1", None),
        ("message-reordered", "messages[0].content[1]", "within the message", "after"),
        ("parameter-defaulted", "messages[1].content[1].name", None, "tool"),
        ("message-reordered", "messages[1].content[1]", "within the message", "before"),
    ]


@pytest.mark.parametrize("name", ["", " ", "get\nweather"])
def test_a_result_whose_tool_name_is_blank_or_spans_lines_names_the_default_tool(
    name: str,
) -> None:
    # Found by converting mutated fixtures: ``Tool: `` with a blank name reads back as no
    # tool message at all, and a name over two lines as another name and result.
    conversation = Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="q")]),
            Message(role="assistant", content=[ToolUseBlock(id="c1", name=name, input={})]),
            Message(role="tool", tool_call_id="c1", content=[TextBlock(text="18C")]),
        ]
    )
    rendered = assert_renders("forge", conversation)
    assert rendered.payload[2] == {"role": "tool", "content": "Tool: tool\n18C"}
    assert ("parameter-defaulted", "messages[2].name", name, "tool") in summary(rendered.warnings)


def test_thinking_without_text_and_text_documents() -> None:
    conversation = Conversation(
        messages=[
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(text="step one\nstep two"),
                    ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
                ],
            ),
            Message(
                role="user",
                content=[DocumentBlock(source=MediaSource(type="text", data="the memo"))],
            ),
        ]
    )
    rendered = assert_renders("forge", conversation)
    assert rendered.payload == [
        {"role": "assistant", "content": "[step one]\n[step two]"},
        {"role": "user", "content": "the memo"},
    ]
    assert summary(rendered.warnings) == [
        ("reasoning-dropped", "messages[0].content[1]", None, None),
        ("content-type-unsupported", "messages[1].content[0]", "document", "text"),
    ]
