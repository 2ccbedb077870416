"""The ``forge`` format: reading Forge messages (tool calls and thinking in the text) and
writing them back byte for byte.

Fixture round trips, validation and detection are in ``test_seed_formats.py``;
conversions from other formats in ``test_forge_convert.py``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from providers import formats
from providers.umf import Conversation, TextBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock
from tests.providers.formats.seed_formats._helpers import (
    FIXTURES,
    assert_renders,
    assert_round_trips,
    load,
    parse_one,
    summary,
)

FORGE = formats.get("forge")


def read(payload: Any) -> Conversation:
    return parse_one("forge", payload)


def fixture(name: str) -> Any:
    return load(FIXTURES / "forge" / name)


def assistant(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


def test_shapes_are_recorded() -> None:
    assert read(fixture("seed_calculator_flow.json")).extra["forge"]["$shape"] == "messages"
    assert read(fixture("exchange_refactor_session.json")).extra["forge"] == {
        "$shape": "exchange",
        "$exchange": {"model": "gpt-4o", "logged_at": "2025-01-14T16:03:22Z"},
    }
    assert read(fixture("go_encoded_memory.json")).messages[0].extra == {"forge": {"$keys": "go"}}


def test_the_seed_flow_reads_into_blocks_with_made_up_ids() -> None:
    [item] = FORGE.parse(fixture("seed_calculator_flow.json"))
    call_turn, result = item.conversation.messages[2:4]
    thinking, call = call_turn.content
    assert thinking == ThinkingBlock(text="I'll calculate this using the calculator tool")
    assert isinstance(call, ToolUseBlock)
    assert (call.id, call.name, call.input) == (
        "forge_call_0",
        "calculator",
        {"operation": "add", "a": 15, "b": 27},
    )
    assert call.extra == {"forge": {"server_name": "local", "$form": "json"}}
    assert (result.role, result.tool_call_id, result.name) == ("tool", "forge_call_0", "calculator")
    assert result.content == [
        ToolResultBlock(tool_use_id="forge_call_0", content="Result: 42", name="calculator")
    ]
    assert summary(item.warnings) == [
        ("id-synthesized", "[2].content", None, "forge_call_0"),
    ]
    assert item.warnings[0].severity == "info"


def test_xml_calls_read_cdata_nesting_and_order() -> None:
    messages = read(fixture("seed_xml_tools_cdata.json")).messages
    write = messages[2].content[1]
    assert isinstance(write, ToolUseBlock)
    assert write.input == {
        "path": "example.go",
        "content": 'package main\n\nfunc main() {\n\tfmt.Println("Hello, World!")\n}',
    }
    assert [block.type for block in messages[6].content] == [
        "thinking",
        "tool_use",
        "thinking",
        "tool_use",
    ]
    mcp = messages[6].content[1]
    assert isinstance(mcp, ToolUseBlock)
    assert mcp.extra == {"forge": {"server_name": "mcp-server"}}
    assert mcp.input == {
        "files": {
            "file": [
                {"path": "file1.txt", "content": "content 1"},
                {"path": "file2.txt", "content": "content 2"},
            ]
        }
    }
    # Two results, answered in order by tool name.
    assert [m.tool_call_id for m in messages[7:9]] == ["forge_call_2", "forge_call_3"]


def test_text_is_kept_only_for_calls_and_text_that_would_not_write_back_the_same() -> None:
    messages = read(fixture("seed_complex_reasoning.json")).messages
    kept = [index for index, m in enumerate(messages) if "$text" in m.extra.get("forge", {})]
    # The call's message (its argument order is not kept by storage); the thinking and
    # text of the last one write back the same.
    assert kept == [2]
    assert set(messages[2].extra["forge"]) == {"$text", "$digest"}
    odd = read(assistant("[plan]\n\n\nthree newlines before this"))
    assert odd.messages[0].extra["forge"]["$text"] == "[plan]\n\n\nthree newlines before this"


def test_errors_are_results_with_the_flag() -> None:
    result = read(fixture("seed_error_handling.json")).messages[3].content[0]
    assert result == ToolResultBlock(
        tool_use_id="forge_call_0", content="division by zero", is_error=True, name="calculator"
    )


def test_thinking_lines_are_one_block_a_line_each() -> None:
    thinking, call = read(fixture("seed_complex_reasoning.json")).messages[2].content
    assert thinking == ThinkingBlock(
        text="Let me break this down step by step\n"
        "1. First, I'll read the code to understand it\n"
        "2. Then identify potential issues\n"
        "3. Finally suggest specific improvements"
    )
    assert isinstance(call, ToolUseBlock) and call.input == {
        "code": "def func():\n  x=1\n  return x"
    }


def test_a_result_answering_no_call_gets_an_id_of_its_own() -> None:
    [item] = FORGE.parse([{"role": "tool", "content": "Tool: search\nnothing"}])
    assert item.conversation.messages[0].tool_call_id == "forge_result_0"
    assert summary(item.warnings) == [("id-synthesized", "[0].content", None, "forge_result_0")]


def test_edited_blocks_are_written_from_the_blocks() -> None:
    conversation = read(fixture("seed_calculator_flow.json"))
    call = conversation.messages[2].content[1]
    assert isinstance(call, ToolUseBlock)
    call.input = {"operation": "subtract", "a": 15, "b": 27}
    text = assert_renders("forge", conversation).payload[2]["content"]
    # The call keeps the form it was written in (here the deprecated JSON one).
    assert text == (
        "[I'll calculate this using the calculator tool]\n\n<tool>\n{\n"
        '  "server_name": "local",\n  "tool_name": "calculator",\n  "arguments": {\n'
        '    "operation": "subtract",\n    "a": 15,\n    "b": 27\n  }\n}\n</tool>'
    )


def test_arguments_xml_cannot_carry_go_in_the_json_form() -> None:
    conversation = read(
        assistant("<tool>\n<tool_name>f</tool_name>\n<arguments>\n</arguments>\n</tool>")
    )
    call = conversation.messages[0].content[0]
    assert isinstance(call, ToolUseBlock) and call.input == {}
    call.input = {"n": 3, "flags": [True], "text": "a]]>b"}
    text = FORGE.render(conversation).payload[0]["content"]
    assert text == (
        '<tool>\n{\n  "tool_name": "f",\n  "arguments": {\n    "n": 3,\n    "flags": [\n'
        '      true\n    ],\n    "text": "a]]>b"\n  }\n}\n</tool>'
    )
    assert read(assistant(text)).messages[0].content[0].input == call.input  # type: ignore[union-attr]


def test_cdata_is_split_around_its_end_marker() -> None:
    conversation = read(
        assistant("<tool>\n<tool_name>f</tool_name>\n<arguments>\n</arguments>\n</tool>")
    )
    call = conversation.messages[0].content[0]
    assert isinstance(call, ToolUseBlock)
    call.input = {"xml": "<a>]]></a>"}
    text = FORGE.render(conversation).payload[0]["content"]
    assert "<xml><![CDATA[<a>]]]]><![CDATA[></a>]]></xml>" in text
    assert read(assistant(text)).messages[0].content[0].input == {"xml": "<a>]]></a>"}  # type: ignore[union-attr]


EDGE_PAYLOADS: dict[str, Any] = {
    "empty contents": [{"role": "user", "content": ""}, {"role": "assistant", "content": ""}],
    "tool message without its Tool line": [{"role": "tool", "content": "just text"}],
    "Tool line without a result": [{"role": "tool", "content": "Tool: ping"}],
    "blank thinking and brackets in text": assistant(
        "[]\n\nSee [the docs](https://example.com) and [1] Smith.\n[a [nested] thought]"
    ),
    "spacing and a trailing newline": assistant("\n\n[plan]\n\n\n  indented text  \n\n"),
    "unknown keys": [{"role": "user", "content": "a", "id": "m1"}],
    "Go and JSON keys mixed": [
        {"Role": "user", "Content": "a"},
        {"role": "assistant", "content": "b"},
    ],
    "a tool block that is not Forge XML": assistant(
        '<tool>\n<tool_name a="1">f</tool_name>\n</tool> and <tool>{"x": </tool>'
    ),
    "a tool block without a name": assistant("<tool>\n<arguments></arguments>\n</tool>"),
    "an unclosed tool block": assistant("<tool>\n<tool_name>f</tool_name>"),
    "entities and an empty element": assistant(
        "<tool>\n<tool_name>f</tool_name>\n<arguments>\n  <q>a &amp; b &lt;c&gt;</q>\n"
        "  <empty/>\n</arguments>\n</tool>"
    ),
    "cdata holding a closing tool tag": assistant(
        "<tool>\n<tool_name>write</tool_name>\n<arguments>\n"
        "  <body><![CDATA[</tool>]]></body>\n</arguments>\n</tool>"
    ),
    "json form with odd arguments": assistant(
        '<tool>{"tool_name": "f", "arguments": [1, 2], "server_name": null, "v": 2}</tool>'
    ),
    "json form without arguments": assistant('<tool>\n{"tool_name": "f"}\n</tool>'),
    "text around calls": assistant(
        "Before.\n<tool>\n<tool_name>f</tool_name>\n<arguments>\n  <a>1</a>\n</arguments>\n"
        "</tool>\nAfter."
    ),
    "one message": {"role": "assistant", "content": "[thinking]\n\nanswer"},
    "exchange": {
        "request": [{"role": "user", "content": "hi"}],
        "response": {"Role": "assistant", "Content": "hello"},
    },
}


def test_what_is_not_a_call_stays_text() -> None:
    for name in ("a tool block that is not Forge XML", "a tool block without a name"):
        blocks = read(EDGE_PAYLOADS[name]).messages[0].content
        assert all(isinstance(block, TextBlock) for block in blocks), name


MALFORMED: dict[str, tuple[Any, str | None]] = {
    "a string": ("hello", "payload"),
    "an unrelated object": ({"messages": []}, "role"),
    "message not an object": ([["user", "hi"]], "[0]"),
    "unknown role": ([{"role": "developer", "content": "a"}], "[0].role"),
    "Go role unknown": ([{"Role": "bot", "Content": "a"}], "[0].Role"),
    "content missing": ([{"role": "user"}], "[0].content"),
    "content not a string": ([{"role": "user", "content": ["a"]}], "[0].content"),
    "exchange without response": ({"request": []}, "response"),
    "exchange request not a list": ({"request": "hi", "response": {}}, "request"),
    "response from a tool": (
        {"request": [], "response": {"role": "tool", "content": "Tool: a\nb"}},
        "response.role",
    ),
}


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list('[]<>/!\n tool_name{}"CDATA&;')), max_size=60))
def test_any_assistant_text_is_read_and_written_back(text: str) -> None:
    assert_round_trips("forge", assistant(text))


def test_a_dropped_part_of_a_tool_result_is_warned_at_its_own_path() -> None:
    # Found by the seed-formats property test: the warning named messages[0].content[1],
    # a block the message does not have, so the loss looked silent.
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "AA=="},
    }
    result = ToolResultBlock.model_validate(
        {"tool_use_id": "t1", "content": [{"type": "text", "text": "a"}, image]}
    )
    conversation = Conversation.model_validate(
        {"messages": [{"role": "tool", "content": [result]}]}
    )
    rendered = formats.get("forge").render(conversation)
    fields = {w.field for w in rendered.warnings if w.category == "content-dropped"}
    assert fields == {"messages[0].content[0].content[1]"}
