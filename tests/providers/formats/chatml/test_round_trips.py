"""The ``chatml`` format: reading ChatML text and writing it back byte for byte.

Conversions from other formats are in ``chatml/test_convert_*.py``.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from providers.formats.chatml import FORMAT, detect
from providers.umf import (
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.seed_formats._helpers import (
    assert_round_trips as assert_seed_round_trips,
)
from tests.providers.formats.seed_formats._helpers import parse_one as parse_seed
from tests.providers.formats.seed_formats._helpers import stored

FIXTURES = Path(__file__).parents[3] / "fixtures"
CHATML_FIXTURES = sorted((FIXTURES / "chatml").glob("*.json"))


def load(name: str) -> str:
    text = orjson.loads((FIXTURES / "chatml" / name).read_bytes())
    assert isinstance(text, str)
    return text


parse_one = partial(parse_seed, "chatml")
assert_round_trips = partial(assert_seed_round_trips, "chatml")


def turn(role: str, content: str, end: str = "\n") -> str:
    return f"<|im_start|>{role}\n{content}<|im_end|>{end}"


# --------------------------------------------------------------------------- fixtures


def test_there_are_enough_fixtures() -> None:
    assert len(CHATML_FIXTURES) >= 6


@pytest.mark.parametrize("path", CHATML_FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_byte_for_byte(path: Path) -> None:
    assert_round_trips(orjson.loads(path.read_bytes()))


def test_registered_as_a_text_format() -> None:
    assert formats.get("chatml") is FORMAT
    assert (FORMAT.kind, FORMAT.provider) == ("text", None)


# --------------------------------------------------------------------------- what parse reads


def test_qwen_tools_section_becomes_the_conversation_tools() -> None:
    [item] = FORMAT.parse(load("qwen25_parallel_tools.json"))
    conversation = item.conversation
    assert [tool.name for tool in conversation.tools] == [
        "get_current_temperature",
        "get_temperature_date",
    ]
    assert conversation.tools[0].parameters is not None
    assert conversation.tools[0].parameters["required"] == ["location"]
    system = conversation.messages[0]
    assert system.content == [
        TextBlock(
            text="You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
            "\n\nCurrent Date: 2024-09-30"
        )
    ]
    assert system.extra == {"chatml": {"$tools": "\n\n"}}


def test_parallel_calls_and_results_pair_by_order() -> None:
    [item] = FORMAT.parse(load("qwen25_parallel_tools.json"))
    calls = item.conversation.messages[2].content
    assert [(c.id, c.name, c.input) for c in calls if isinstance(c, ToolUseBlock)] == [
        ("call_2_0", "get_current_temperature", {"location": "San Francisco, CA, USA"}),
        (
            "call_2_1",
            "get_temperature_date",
            {"location": "San Francisco, CA, USA", "date": "2024-10-01"},
        ),
    ]
    results = item.conversation.messages[3]
    assert results.role == "user"
    assert [(r.tool_use_id, r.name) for r in results.content if isinstance(r, ToolResultBlock)] == [
        ("call_2_0", "get_current_temperature"),
        ("call_2_1", "get_temperature_date"),
    ]
    assert [(w.category, w.field, w.transformed_value) for w in item.warnings] == [
        ("id-synthesized", "messages[2].content[0].id", "call_2_0"),
        ("id-synthesized", "messages[2].content[1].id", "call_2_1"),
        ("id-synthesized", "messages[3].content[0].tool_use_id", "call_2_0"),
        ("id-synthesized", "messages[3].content[1].tool_use_id", "call_2_1"),
    ]


def test_thinking_and_the_generation_prompt() -> None:
    conversation = parse_one(load("qwen3_thinking_generation_prompt.json"))
    answer = conversation.messages[2]
    assert answer.content == [
        ThinkingBlock(text="221 = 13 \u00d7 17, so it is composite."),
        TextBlock(text="No. **221 = 13 \u00d7 17**, so it is not prime."),
    ]
    assert [m.role for m in conversation.messages] == ["system", "user", "assistant", "user"]
    assert conversation.extra["chatml"]["$generation_prompt"] == "assistant\n"


def test_a_prefilled_answer_is_an_open_message() -> None:
    conversation = parse_one(load("qwen3_no_think_prefill.json"))
    prefill = conversation.messages[-1]
    assert prefill.content == [ThinkingBlock(text="")]
    assert prefill.extra == {"chatml": {"$open": True, "$after": "\n\n"}}


def test_names_and_newlines_before_the_end_token() -> None:
    conversation = parse_one(load("openai_named_few_shot.json"))
    assert [(m.role, m.name) for m in conversation.messages] == [
        ("system", None),
        ("system", "example_user"),
        ("system", "example_assistant"),
        ("user", None),
        ("assistant", None),
    ]
    assert conversation.messages[1].content == [TextBlock(text="How are you?")]
    assert conversation.messages[1].extra == {"chatml": {"$after": "\n"}}
    assert conversation.messages[-1].extra == {"chatml": {"$end": ""}}


def test_hermes_calls_keep_their_spelling_and_tool_turns_their_role() -> None:
    conversation = parse_one(load("hermes_tool_role.json"))
    call = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock)
    assert (call.name, call.input) == ("get_stock_fundamentals", {"symbol": "TSLA"})
    assert call.extra["chatml"]["$raw"].startswith('{"arguments"')
    result = conversation.messages[3]
    assert (result.role, result.tool_call_id) == ("tool", call.id)
    assert conversation.tools == []  # Hermes lists tools in prose: they stay system text
    assert "<tools>" in conversation.messages[0].content[0].text  # type: ignore[union-attr]


def test_unreadable_calls_stay_text_and_string_arguments_are_raw_arguments() -> None:
    conversation = parse_one(load("qwen3_tool_errors.json"))
    assert conversation.messages[0].content == []
    assert [tool.name for tool in conversation.tools] == ["search_flights"]
    retry = conversation.messages[4].content
    assert [type(block) for block in retry] == [TextBlock, TextBlock]
    assert retry[1].text.startswith("<tool_call>\n{")  # type: ignore[union-attr]
    orphan = conversation.messages[5].content[0]  # answers no call: kept as text
    assert orphan == TextBlock(
        text="<tool_response>\nError: could not parse tool call\n</tool_response>"
    )
    call = conversation.messages[6].content[0]
    assert isinstance(call, ToolUseBlock)
    assert call.input == {"origin": "LIS", "destination": "BER", "date": "2026-03-12"}
    assert call.raw_arguments == json.dumps(call.input)
    answered = conversation.messages[7].content[0]
    assert isinstance(answered, ToolResultBlock) and answered.tool_use_id == call.id


def test_a_bare_tool_turn_is_one_result() -> None:
    calls = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'
    conversation = parse_one(turn("assistant", calls) + turn("tool", "42\n"))
    result = conversation.messages[1]
    assert result.content == [
        ToolResultBlock(
            tool_use_id="call_0_0", content="42\n", name="f", extra={"chatml": {"$bare": True}}
        )
    ]
    assert result.tool_call_id == "call_0_0"


def test_edited_values_win_over_kept_spelling() -> None:
    conversation = parse_one(load("hermes_tool_role.json"))
    call = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock)
    call.input = {"symbol": "AAPL"}
    conversation.tools = [Tool(name="lookup", extra={"chatml": {"$raw": '{"name": "other"}'}})]
    text = FORMAT.render(conversation).payload
    assert '{"name": "get_stock_fundamentals", "arguments": {"symbol": "AAPL"}}' in text
    assert '\n{"type": "function", "function": {"name": "lookup"}}\n' in text
    assert '"other"' not in text


# --------------------------------------------------------------------------- exact text

EDGE_TEXTS: dict[str, str] = {
    "empty": "",
    "whitespace only": "\n",
    "no trailing newline": turn("user", "hi", end=""),
    "blank lines between turns": turn("user", "hi", "\n\n") + turn("assistant", "yo", "\n\n"),
    "leading whitespace": "\n  " + turn("user", "hi"),
    "empty turn": turn("system", "") + turn("user", "x"),
    "content of newlines only": turn("user", "\n\n\n"),
    "spaces stay in the text": turn("user", "  indented\n    code  "),
    "generation prompt without newline": turn("user", "hi") + "<|im_start|>assistant",
    "developer and tool roles": turn("developer", "rules") + turn("tool", "plain result"),
    "empty tool turn answering nothing": turn("tool", ""),
    "empty think": turn("assistant", "<think></think>answer"),
    "think with odd padding": turn("assistant", "<think>a\n\n\n</think>\nb\n\n\n"),
    "tags in the wrong role are text": turn("user", "<think>no</think><tool_call>x</tool_call>"),
    "tool call of odd json": turn(
        "assistant", '<tool_call>\n{"name":"f","arguments":{"a":1.50},"id":"x"}\n</tool_call>'
    ),
    "tool call without arguments": turn("assistant", '<tool_call>{"name": "f"}</tool_call>'),
    "tool call with NaN is text": turn(
        "assistant", '<tool_call>\n{"name": "f", "arguments": {"x": NaN}}\n</tool_call>'
    ),
    "tool call with list arguments": turn(
        "assistant", '<tool_call>\n{"name": "f", "arguments": [1, 2]}\n</tool_call>'
    ),
    "text between calls": turn(
        "assistant",
        'a\n\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call> b '
        '<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>\n',
    ),
    "results beside text": turn(
        "user",
        "first\n<tool_response>\nr1\n</tool_response>\nthen\n\n<tool_response>r2</tool_response>",
    ),
    "unclosed tag is text": turn("assistant", "<think>\nstill thinking"),
    "an open prefill": turn("user", "q") + "<|im_start|>assistant\nThe answer is",
    "a name with spaces": turn("user name=Ada Lovelace", "hi"),
    "empty tools section": turn(
        "system",
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
        "\n</tools>\n\nFor each function call, return a json object with function name and "
        "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
        '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    ),
    "tools listed bare and spaced": turn(
        "system",
        "Be brief.\n# Tools\n\nYou may call one or more functions to assist with the user query."
        "\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>"
        '\n{"name": "f", "parameters": {"type": "object"}}'
        '\n{"type":"function","function":{"name":"g"}}'
        "\n</tools>\n\nFor each function call, return a json object with function name and "
        "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
        '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
    ),
    "unicode": turn("user", "¿Qué tal? 你好 🙂 \u200b"),
}


@pytest.mark.parametrize("text", EDGE_TEXTS.values(), ids=EDGE_TEXTS.keys())
def test_edge_texts_round_trip_byte_for_byte(text: str) -> None:
    assert_round_trips(text)


# --------------------------------------------------------------------------- bad input

MALFORMED: dict[str, tuple[Any, str]] = {
    "not a string": ({"messages": []}, "payload"),
    "a list": (["<|im_start|>user\nhi<|im_end|>"], "payload"),
    "no turns": ("hello there", "payload"),
    "text before the first turn": ("Hi!\n" + turn("user", "x"), "payload"),
    "a turn left open before the next": ("<|im_start|>user\nhi" + turn("user", "x"), "messages[0]"),
    "text between turns": (turn("user", "a") + "oops" + turn("user", "b"), "messages[0]"),
    "two end tokens": ("<|im_start|>user\na<|im_end|>\nb<|im_end|>", "messages[0]"),
    "unknown role": (turn("user", "a") + turn("bot", "b"), "messages[1].role"),
    "header without newline": ("<|im_start|>user<|im_end|>", "messages[0].role"),
    "unsupported header": (turn("assistant to=python", "x"), "messages[0].role"),
    "empty name": (turn("user name=", "x"), "messages[0].role"),
    "bad generation prompt": (turn("user", "a") + "<|im_start|>robot\n", "messages[1].role"),
}


@pytest.mark.parametrize(("payload", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_text_is_a_format_error_naming_the_turn(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as raised:
        FORMAT.parse(payload)
    assert raised.value.field == field


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        ("<|im_start|>user\nhi<|im_end|>", 2),
        ("\n <|im_start|>user\nhi", 2),
        ("text <|im_start|>user\nhi<|im_end|>", 0),
        ('{"messages": [{"role": "user", "content": "<|im_start|>"}]}\n', 0),
        ({"text": "<|im_start|>user\nhi<|im_end|>"}, 0),
        ([{"role": "user", "content": "<|im_start|>"}], 0),
    ],
)
def test_detect_claims_only_strings_that_open_a_turn(payload: Any, score: int) -> None:
    assert detect(payload) == score


# --------------------------------------------------------------------------- fuzzing

_PIECES = st.sampled_from(
    [
        "<|im_start|>",
        "<|im_end|>",
        "\n",
        "\n\n",
        " ",
        "user",
        "assistant",
        "tool",
        "system name=x",
        "<think>",
        "</think>",
        "<tool_call>",
        "</tool_call>",
        "<tool_response>",
        "</tool_response>",
        '{"name": "f", "arguments": {"a": 1}}',
        '{"name": 1}',
        "text",
    ]
)
_SEEDS = [orjson.loads(path.read_bytes()) for path in CHATML_FIXTURES] + list(EDGE_TEXTS.values())


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_edit_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(_SEEDS))
    start = data.draw(st.integers(0, len(seed)))
    stop = data.draw(st.integers(start, min(len(seed), start + 40)))
    inserted = "".join(data.draw(st.lists(_PIECES, max_size=4)))
    text = seed[:start] + inserted + seed[stop:]
    try:
        conversation = parse_one(text)
    except FormatError:
        return
    assert FORMAT.render(stored(conversation)).payload == text


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=12))
def test_any_text_of_template_pieces_is_read_exactly_or_refused(pieces: list[str]) -> None:
    text = "<|im_start|>" + "".join(pieces)
    try:
        conversation = parse_one(text)
    except FormatError:
        return
    assert FORMAT.render(stored(conversation)).payload == text
