"""The ``chatml`` renderer fed conversations from other formats: the text it writes (the
Qwen2.5/Qwen3 template conventions) and the exact drift warning for every lossy cell of the
reference's conversion matrix (column CM).

ChatML has no SDK: every text written must read back with this format's own parser, turn
for turn, with only the template tags where they belong (:func:`check_chatml`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats._common import parse_data_uri
from providers.formats.chatml import FORMAT, render
from providers.umf import (
    BLOCK_TYPES,
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)

FIXTURES = Path(__file__).parents[2] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "k+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
_TURN = re.compile(r"<\|im_start\|>(\w+)[^\n]*\n", re.S)


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def check_chatml(text: Any) -> Conversation:
    """The text is ChatML this format reads back: every turn closed by ``<|im_end|>\\n``,
    a known role, and each ``<tool_call>`` a JSON call."""
    assert isinstance(text, str) and (text.startswith("<|im_start|>") or not text)
    [item] = FORMAT.parse(text)
    conversation = item.conversation
    assert FORMAT.render(conversation).payload == text
    assert text.count("<|im_start|>") == text.count("<|im_end|>\n") == len(conversation.messages)
    for message in conversation.messages:
        assert message.role in ("system", "user", "assistant")
        for block in message.content:
            if isinstance(block, TextBlock):
                assert "<tool_call>" not in block.text or message.role != "assistant"
    return conversation


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the text unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        inline = parse_data_uri(source.url) if source.url else None
        url = inline[1] if inline else source.url
        return [value for value in (source.data, url, source.file_id) if value]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content]
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation, text: str, warnings: list[DriftWarning]
) -> None:
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in _markers(block):
            assert marker in text, f"{path} lost {marker!r} silently"
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            for index, inner in enumerate(block.content):
                check(inner, f"{path}.content[{index}]")

    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            check(block, f"messages[{index}].content[{position}]")


def convert(conversation: Conversation) -> tuple[str, list[tuple[Any, ...]]]:
    """Render a conversation from another format: ChatML, nothing lost silently."""
    rendered = render(conversation)
    check_chatml(rendered.payload)
    assert all(w.source == "chatml" for w in rendered.warnings)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def imported(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.parse(format_id, payload).items
    return Conversation.model_validate_json(item.conversation.model_dump_json())


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def text(value: str) -> TextBlock:
    return TextBlock(text=value)


def turn(role: str, content: str) -> str:
    return f"<|im_start|>{role}\n{content}<|im_end|>\n"


def call(name: str, arguments: dict[str, Any]) -> str:
    body = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"


def response(content: str) -> str:
    return f"<tool_response>\n{content}\n</tool_response>"


# --------------------------------------------------------------------------- whole imports


def test_anthropic_thinking_tool_loop_is_written_as_qwen_would() -> None:
    source = orjson.loads((FIXTURES / "anthropic" / "thinking_tool_loop.json").read_bytes())
    written, warnings = convert(imported("anthropic", "thinking_tool_loop.json"))
    tool = {
        "type": "function",
        "function": {
            "name": "run_sql",
            "description": source["tools"][0]["description"],
            "parameters": source["tools"][0]["input_schema"],
        },
    }
    thinking = source["messages"][1]["content"][0]["thinking"]
    query = source["messages"][1]["content"][2]["input"]
    assert written == (
        turn(
            "system",
            "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n"
            f"<tools>\n{json.dumps(tool)}\n</tools>\n\nFor each function call, return a json "
            "object with function name and arguments within <tool_call></tool_call> XML tags:"
            '\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n'
            "</tool_call>",
        )
        + turn("user", source["messages"][0]["content"])
        + turn("assistant", f"<think>\n{thinking}\n</think>\n\n" + call("run_sql", query))
        + turn("user", response('[{"late": 42, "total": 1380}]'))
        + turn("assistant", "42 of last month's 1,380 orders shipped late, about 3.0%.")
        + turn("user", "Which carrier was responsible for most of them?")
    )
    call_id = "toolu_01NXq3wPqLsGkVbZ6rT8uYc2"
    assert warnings == [
        (
            "signature-stripped",
            "warning",
            "messages[1].content[0]",
            {"provider": "anthropic", "signed": True},
            "<think>",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[1]", None, None),
        ("id-rewritten", "info", "messages[1].content[2].id", call_id, None),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", call_id, None),
        ("content-type-unsupported", "info", "tools", ["run_sql"], "system text"),
        ("parameter-unsupported", "warning", "parameters.model", "claude-opus-4-1-20250805", None),
        ("parameter-unsupported", "warning", "parameters.max_tokens", 16000, None),
        ("tool-unsupported", "warning", "tool_choice", "auto", None),
        (
            "field-unknown",
            "info",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
    ]


def test_openai_message_list_is_written_exactly() -> None:
    written, warnings = convert(imported("openai-chat", "bare_messages.json"))
    arguments = {"value": 72, "from": "F", "to": "C"}
    assert written == (
        turn("system", "You are a helpful assistant.")
        + turn("user", "Convert 72 °F to Celsius.")
        + turn("assistant", call("convert_temperature", arguments))
        + turn("user", response("22.2"))
        + turn("assistant", "72 °F is about 22.2 °C.")
        + turn("user", "")
    )
    call_id = "call_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8"
    assert warnings == [
        ("id-rewritten", "info", "messages[2].content[0].id", call_id, None),
        ("id-rewritten", "info", "messages[3].content[0].tool_use_id", call_id, None),
    ]


def test_openai_refusal_exchange_drops_response_metadata() -> None:
    written, warnings = convert(imported("openai-chat", "refusal_exchange.json"))
    assert written.endswith(turn("assistant", "I'm sorry, I can't help with that."))
    dropped = [w for w in warnings if w[2] == "messages[3]"]
    assert len(dropped) == 1
    category, severity, _, original, _ = dropped[0]
    assert (category, severity) == ("content-dropped", "info")
    assert set(original) == {
        "id",
        "timestamp",
        "model",
        "finish_reason",
        "provider_finish_reason",
        "usage",
    }


# --------------------------------------------------------------------------- matrix cells


def test_system_messages_anywhere_and_developer() -> None:
    written, warnings = convert(
        Conversation(
            messages=[
                Message(role="developer", content=[text("Rules.")]),
                user(text("hi")),
                Message(role="system", content=[text("Now in French.")]),
            ]
        )
    )
    assert written == turn("system", "Rules.") + turn("user", "hi") + turn(
        "system", "Now in French."
    )
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_media_cannot_be_written() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.png")),
        DocumentBlock(source=MediaSource(type="base64", media_type="application/pdf", data="JVBE")),
        DocumentBlock(source=MediaSource(type="text", data="Clause 4: net 30.")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("What do you see?"),
    ]
    written, warnings = convert(
        Conversation(messages=[user(*blocks), assistant(text("A cat."), blocks[0])])
    )
    assert written == turn("user", "Clause 4: net 30.\nWhat do you see?") + turn(
        "assistant", "A cat."
    )
    assert warnings == [
        (
            "content-dropped",
            "warning",
            "messages[0].content[0]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[1]",
            {"type": "image", "source": "url", "url": "https://x/cat.png"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "document", "source": "base64", "media_type": "application/pdf"},
            None,
        ),
        ("content-type-unsupported", "warning", "messages[0].content[3]", "document", "text"),
        (
            "content-dropped",
            "warning",
            "messages[0].content[4]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav"},
            None,
        ),
        ("content-type-unsupported", "info", "messages[0].content", 2, "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
    ]


def test_tool_choice_and_parameters_have_no_place_in_text() -> None:
    conversation = Conversation(
        messages=[user(text("q"))],
        tool_choice=ToolChoice(type="tool", name="f"),
        parameters=Parameters(model="m", temperature=0.5, stop=["###"]),
    )
    written, warnings = convert(conversation)
    assert written == turn("user", "q")
    assert warnings == [
        ("parameter-unsupported", "warning", "parameters.model", "m", None),
        ("parameter-unsupported", "warning", "parameters.temperature", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.stop", ["###"], None),
        ("tool-unsupported", "warning", "tool_choice", "f", None),
    ]


def test_tools_join_an_existing_system_turn() -> None:
    tool = Tool(name="f", description="Does f.", parameters={"type": "object"})
    written, warnings = convert(
        Conversation(messages=[Message(role="system", content=[text("Be brief.")])], tools=[tool])
    )
    assert written.startswith("<|im_start|>system\nBe brief.\n\n# Tools\n\n")
    assert '\n{"type": "function", "function": {"name": "f", "description": "Does f.", ' in written
    assert warnings == [("content-type-unsupported", "info", "tools", ["f"], "system text")]


def test_consecutive_tool_results_share_one_user_turn() -> None:
    calls = [ToolUseBlock(id="a", name="f", input={}), ToolUseBlock(id="b", name="g", input={})]
    written, warnings = convert(
        Conversation(
            messages=[
                user(text("go")),
                assistant(*calls),
                Message(
                    role="tool",
                    tool_call_id="a",
                    name="f",
                    content=[ToolResultBlock(tool_use_id="a", content="A", name="f")],
                ),
                Message(role="tool", tool_call_id="b", content=[text("B")]),
                user(text("thanks")),
            ]
        )
    )
    assert written == (
        turn("user", "go")
        + turn("assistant", call("f", {}) + "\n" + call("g", {}))
        + turn("user", response("A") + "\n" + response("B"))
        + turn("user", "thanks")
    )
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "a", None),
        ("id-rewritten", "info", "messages[1].content[1].id", "b", None),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", "a", None),
        ("id-rewritten", "info", "messages[3].tool_call_id", "b", None),
        ("role-merged", "info", "messages[3]", "tool", "user"),
    ]


def test_errors_and_media_inside_tool_results() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    results = user(
        ToolResultBlock(tool_use_id="c1", content="timeout", is_error=True),
        ToolResultBlock(tool_use_id="c2", content=[text("chart"), image]),
    )
    written, warnings = convert(Conversation(messages=[results]))
    assert written == turn("user", response("Error: timeout") + "\n" + response("chart"))
    assert warnings == [
        ("id-rewritten", "info", "messages[0].content[0].tool_use_id", "c1", None),
        (
            "capability-unsupported",
            "warning",
            "messages[0].content[0].is_error",
            True,
            "Error: timeout",
        ),
        ("id-rewritten", "info", "messages[0].content[1].tool_use_id", "c2", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
    ]


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
    written, warnings = convert(Conversation(messages=messages))
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
    written, warnings = convert(Conversation(messages=messages))
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
    written, _ = convert(Conversation(messages=[assistant(*calls)]))
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
        ),
    ]
    written, warnings = convert(Conversation(messages=messages))
    assert written == turn("user", "q") + turn("assistant", "second try")
    assert warnings == [
        ("content-dropped", "warning", "messages[1]", "first try", None),
        ("content-dropped", "info", "messages[0]", {"id": "1"}, None),
        (
            "content-dropped",
            "info",
            "messages[2]",
            {"id": "3", "model": "m", "usage": {"prompt_tokens": 3, "completion_tokens": 2}},
            None,
        ),
    ]


# --------------------------------------------------------------------------- nothing silently lost

SAMPLES: dict[str, Block] = {
    "text": TextBlock(text="MARK-text"),
    "refusal": RefusalBlock(text="MARK-refusal"),
    "image": ImageBlock(source=MediaSource(type="url", url="https://x/MARK-image.png")),
    "document": DocumentBlock(source=MediaSource(type="text", data="MARK-document")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="MARK")),
    "tool_use": ToolUseBlock(id="MARK-call", name="MARK_f", input={}),
    "tool_result": ToolResultBlock(tool_use_id="MARK-result", content="MARK-result"),
    "thinking": ThinkingBlock(text="MARK-thinking", signature="s", provider="gemini"),
}
EXTRA_SAMPLES: dict[str, Block] = {
    "image base64": ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
    "tool error": ToolResultBlock(tool_use_id="c", content="MARK-error", is_error=True),
    "tool result blocks": ToolResultBlock(
        tool_use_id="c", content=[TextBlock(text="MARK-rows"), SAMPLES["image"], SAMPLES["audio"]]
    ),
    "thinking unsigned": ThinkingBlock(text="MARK-plain"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}


def test_every_block_type_has_a_sample() -> None:
    assert set(SAMPLES) == set(BLOCK_TYPES)


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant", "tool"])
@pytest.mark.parametrize(
    "block", [*SAMPLES.values(), *EXTRA_SAMPLES.values()], ids=[*SAMPLES, *EXTRA_SAMPLES]
)
def test_no_block_is_dropped_silently(block: Block, role: str) -> None:
    message = Message(role=role, content=[block])  # type: ignore[arg-type]
    convert(Conversation(messages=[user(text("q")), message]))


# --------------------------------------------------------------------------- other formats

OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "chatml"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_are_written_as_chatml(path: Path) -> None:
    try:
        parsed = formats.parse(path.parent.name, orjson.loads(path.read_bytes()))
    except formats.FormatError:
        pytest.skip(f"no registered format reads {path.parent.name}")
    for item in parsed.items:
        convert(Conversation.model_validate_json(item.conversation.model_dump_json()))


# --------------------------------------------------------------------------- any conversation

_IDS = st.sampled_from(["call_a", "toolu_01B", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([*SAMPLES.values(), *EXTRA_SAMPLES.values()])
    pieces = ["a", " ", "\n", "<", "|", ">", "im_end", "<|im_start|>", "<think>", "</think>"]
    words = st.lists(st.sampled_from(pieces), max_size=6).map("".join)
    texts = words.map(lambda value: TextBlock(text=value))
    uses = st.builds(ToolUseBlock, id=_IDS, name=st.just("f"), input=st.just({"x": "<|im_end|>"}))
    results = st.builds(
        ToolResultBlock,
        tool_use_id=_IDS,
        content=st.one_of(words, st.lists(simple, max_size=3)),
        is_error=st.sampled_from([None, True]),
    )
    return st.one_of(simple, texts, uses, results)


_MESSAGES = st.builds(
    Message,
    role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    content=st.lists(_blocks(), max_size=4),
    tool_call_id=st.one_of(st.none(), _IDS),
    name=st.sampled_from([None, "ann", "two words", "x\ny"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_MESSAGES, max_size=6), tools=st.booleans())
def test_any_conversation_is_written_as_chatml(items: list[Message], tools: bool) -> None:
    conversation = Conversation(
        messages=items, tools=[Tool(name="f", parameters={"type": "object"})] if tools else []
    )
    convert(conversation)
