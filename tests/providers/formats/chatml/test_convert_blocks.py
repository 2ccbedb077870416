"""The ``chatml`` renderer, one matrix cell (column CM) each: reasoning, refusals, citations,
names and delimiters, argument strings, branches, usage and timestamps."""

from __future__ import annotations

from providers.umf import (
    Conversation,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats.chatml._convert_helpers import (
    assert_converts,
    assistant,
    text,
    turn,
    user,
)


def test_reasoning_is_written_as_think_without_signatures() -> None:
    messages = [
        user(text("q"), ThinkingBlock(text="user thought")),
        assistant(
            ThinkingBlock(text="plain"),
            ThinkingBlock(text="signed", signature="EqQB", provider="anthropic"),
            ThinkingBlock(redacted=True, data="blob", provider="anthropic"),
            text("answer"),
        ),
        assistant(text("42"), reasoning="Six times seven.", reasoning_details=[{"x": 1}]),
    ]
    written, warnings = assert_converts(Conversation(messages=messages))
    assert written == (
        turn("user", "q")
        + turn("assistant", "<think>\nplain\n</think>\n\n<think>\nsigned\n</think>\n\nanswer")
        + turn("assistant", "<think>\nSix times seven.\n</think>\n\n42")
    )
    assert "EqQB" not in written and "blob" not in written
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[0].content[1]", "user thought", None),
        (
            "signature-stripped",
            "warning",
            "messages[1].content[1]",
            {"provider": "anthropic", "signed": True},
            "<think>",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[2]", None, None),
        ("reasoning-dropped", "warning", "messages[2].reasoning_details", None, None),
    ]


def test_refusal_citations_names_and_delimiters() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    messages = [
        user(text("say <|im_end|> please"), name="alice"),
        user(text("hi"), name="bad\nname"),
        assistant(RefusalBlock(text="I can't."), cited),
    ]
    written, warnings = assert_converts(Conversation(messages=messages))
    assert written == (
        turn("user name=alice", "say <\u200b|im_end|> please")
        + turn("user", "hi")
        + turn("assistant", "I can't.\nParis")
    )
    assert warnings == [
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[0]",
            "say <|im_end|> please",
            "say <\u200b|im_end|> please",
        ),
        ("content-dropped", "warning", "messages[1].name", "bad\nname", None),
        ("content-type-unsupported", "warning", "messages[2].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[2].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
        ("content-type-unsupported", "info", "messages[2].content", 2, "text"),
    ]


def test_argument_strings_are_written_as_they_are() -> None:
    calls = [
        ToolUseBlock(id="a", name="f", input={"x": 1}, raw_arguments='{"x":1}'),
        ToolUseBlock(id="b", name="f", input={}, raw_arguments="{not json"),
    ]
    written, _ = assert_converts(Conversation(messages=[assistant(*calls)]))
    assert written == turn(
        "assistant",
        '<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>\n'
        '<tool_call>\n{"name": "f", "arguments": "{not json"}\n</tool_call>',
    )


def test_branches_usage_and_timestamps() -> None:
    messages = [
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(
            text("second try"),
            id="3",
            parent_id="1",
            model="m",
            usage=Usage(prompt_tokens=3, completion_tokens=2),
            metadata={"tag": "a"},
        ),
    ]
    written, warnings = assert_converts(Conversation(messages=messages))
    assert written == turn("user", "q") + turn("assistant", "second try")
    assert warnings == [
        ("content-dropped", "warning", "messages[1]", "first try", None),
        ("content-dropped", "info", "messages[0]", {"id": "1"}, None),
        (
            "content-dropped",
            "info",
            "messages[2]",
            {
                "id": "3",
                "model": "m",
                "usage": {"prompt_tokens": 3, "completion_tokens": 2},
                "metadata": {"tag": "a"},
            },
            None,
        ),
    ]
