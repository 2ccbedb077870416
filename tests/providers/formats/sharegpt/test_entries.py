"""The ``sharegpt`` format: entries read one conversation each and written back exactly,
streamed from dataset files, and other formats' conversations as LLaMA-Factory entries."""

from __future__ import annotations

import io
import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats import _archive
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    Conversation,
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.archive import _helpers as archive_helpers
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_round_trips,
    check_mutation,
    every_block,
    fixtures,
    load,
    nested,
    results,
    stored,
    summary,
)
from tests.providers.sdk.sharegpt import check_sharegpt_entry

FORMAT = formats.get("sharegpt")
FIXTURE_PATHS = fixtures("sharegpt")
FILES = FIXTURES / "sharegpt" / "files"


def parse_one(payload: Any) -> Conversation:
    [item] = FORMAT.parse(payload)
    return item.conversation


# --------------------------------------------------------------------------- reading


def test_calls_get_ids_and_observations_answer_them_in_order() -> None:
    [item] = FORMAT.parse(load(FIXTURES / "sharegpt" / "parallel_calls.json"))
    calls = item.conversation.messages[1].content
    assert [(b.id, b.name) for b in calls if isinstance(b, ToolUseBlock)] == [
        ("call_1_0", "convert_currency"),
        ("call_1_1", "convert_currency"),
    ]
    observation = item.conversation.messages[2]
    assert observation.role == "tool" and observation.tool_call_id == "call_1_0"
    assert summary(item.warnings) == [
        ("id-synthesized", "[0].conversations[1]", None, "call_1_0"),
        ("id-synthesized", "[0].conversations[1]", None, "call_1_1"),
    ]


def test_placeholders_become_media_blocks_in_order() -> None:
    conversation = parse_one(load(FIXTURES / "sharegpt" / "multimodal_images.json"))
    compare = conversation.messages[4].content
    assert [b.type for b in compare] == ["text", "image", "text", "image"]
    first, second = compare[1], compare[3]
    assert (
        isinstance(first, ImageBlock)
        and first.source.url == "https://example.com/stadium-north.jpg"
    )
    assert isinstance(second, ImageBlock) and second.source.file_id == "mllm_demo_data/3.jpg"


def test_the_system_field_is_a_leading_system_message_and_tools_are_tools() -> None:
    conversation = parse_one(load(FIXTURES / "sharegpt" / "llamafactory_tools.json"))
    assert conversation.messages[0].role == "system"
    assert [tool.name for tool in conversation.tools] == ["get_weather"]
    result = conversation.messages[3].content[0]
    assert isinstance(result, ToolResultBlock) and result.name == "get_weather"


@pytest.mark.parametrize("tools", [[], "[]"], ids=["list", "string"])
def test_an_empty_tools_field_comes_back(tools: Any) -> None:
    entry = {"conversations": [{"from": "human", "value": "hi"}], "tools": tools}
    [item] = assert_round_trips(FORMAT, entry)
    assert item.conversation.tools == []


def test_an_unreadable_call_stays_text_and_an_unanswered_observation_a_tool_message() -> None:
    entry = {
        "conversations": [
            {"from": "human", "value": "go"},
            {"from": "function_call", "value": "search(weather)"},
            {"from": "observation", "value": "sunny"},
        ]
    }
    conversation = parse_one(entry)
    call, observation = conversation.messages[1], conversation.messages[2]
    assert call.role == "assistant" and call.content == [TextBlock(text="search(weather)")]
    assert observation.role == "tool" and observation.tool_call_id is None
    assert FORMAT.render(conversation).payload == entry


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ("text", "payload"),
        ([], "payload"),
        ([{"messages": []}], "[0].conversations"),
        ({"conversations": [{"from": "alien", "value": "hi"}]}, "conversations[0].from"),
        ({"conversations": [{"from": "human", "value": 3}]}, "conversations[0].value"),
        ({"conversations": [{"from": "human"}]}, "conversations[0].value"),
        ({"conversations": ["hi"]}, "conversations[0]"),
        ({"conversations": [], "system": 5}, "system"),
        ({"conversations": [], "deep": nested(150)}, "payload"),
    ],
)
def test_what_is_not_sharegpt_is_refused_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        FORMAT.parse(payload)
    assert error.value.field == field


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("name", ["dataset.jsonl", "dataset.json"])
def test_a_dataset_file_streams_entry_by_entry(name: str) -> None:
    found = results(FORMAT, (FILES / name).read_bytes())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[1]
    assert isinstance(error, FormatError)
    assert error.field == ("line 2.conversations" if name.endswith("l") else "[1].conversations")
    keys = [item.key for item in found if isinstance(item, ParseResult)]
    assert keys == [None, None, "audio-qa-17"]
    entries = list(orjson.loads((FILES / "dataset.json").read_bytes()))
    rendered = FORMAT.render_all(
        [item.conversation for item in found if isinstance(item, ParseResult)]
    )
    assert rendered.payload == [entries[0], entries[2], entries[3]]


def test_a_broken_json_array_stops_with_an_error_after_what_it_could_read() -> None:
    data = b'[{"conversations": [{"from": "human", "value": "ok"}]}, {"conversations": [\xff'
    found = results(FORMAT, data)
    assert isinstance(found[0], ParseResult)
    assert isinstance(found[1], FormatError) and "not valid JSON" in found[1].message


class _OneWay(io.RawIOBase):
    """A stream that cannot seek, as a socket or a pipe."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def test_a_stream_that_cannot_seek_and_a_byte_order_mark_are_read() -> None:
    data = b"\xef\xbb\xbf" + (FILES / "dataset.json").read_bytes()
    assert FORMAT.iter_parse is not None
    found = list(FORMAT.iter_parse(io.BufferedReader(_OneWay(data))))
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]


def test_an_empty_file_is_one_error() -> None:
    [error] = results(FORMAT, b"")
    assert isinstance(error, FormatError) and error.field == "file"


def test_an_entry_past_the_size_limit_is_skipped_and_the_next_ones_still_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_entry_bytes=100_000))
    turns = [{"from": "human", "value": f"message {index}"} for index in range(20_000)]
    big = orjson.dumps({"conversations": turns})
    good = b'{"conversations": [{"from": "human", "value": "ok"}]}'
    found = results(FORMAT, b"[" + big + b"," + good + b"]")
    assert isinstance(found[0], FormatError) and "larger than" in found[0].message
    assert isinstance(found[1], ParseResult)


def test_one_huge_string_stops_the_file_without_being_read_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_entry_bytes=1000))
    good = b'{"conversations": [{"from": "human", "value": "ok"}]}'
    huge = b'{"conversations": [{"from": "human", "value": "' + b"x" * (3 * 1024 * 1024) + b'"}]}'
    found = results(FORMAT, b"[" + good + b"," + huge + b"," + good + b"]")
    assert isinstance(found[0], ParseResult)
    assert isinstance(found[-1], FormatError) and "larger than" in found[-1].message


# --------------------------------------------------------------------------- other formats


def assert_converts(format_id: str, name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    return archive_helpers.assert_converts(FORMAT, format_id, name, check_sharegpt_entry)


def test_an_openai_chat_tool_loop_becomes_alternating_turns() -> None:
    entry, warnings = assert_converts("openai-chat", "tool_loop_parallel.json")
    assert [turn["from"] for turn in entry["conversations"]] == [
        "human",
        "function_call",
        "observation",
        "gpt",
        "human",
        "function_call",
        "observation",
    ]
    results_turn = entry["conversations"][2]["value"]
    assert orjson.loads(results_turn) == [
        '{"city":"Paris","temp_c":14,"conditions":"light rain"}',
        '{"city":"Tokyo","temp_c":21,"conditions":"clear"}',
        "2025-05-23T22:05:00+09:00",
    ]
    invalid_call = orjson.loads(entry["conversations"][5]["value"])
    assert invalid_call["arguments"].endswith('"party_size":2,')  # the raw, invalid string
    assert entry["system"] == "You are a travel assistant. Use the tools; never guess the weather."
    assert warnings == [
        ("parameter-unsupported", "parameters.model", "gpt-4.1-2025-04-14", None),
        ("parameter-unsupported", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", True, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        (
            "field-unknown",
            "messages[2].extra.openai-chat",
            {"refusal": None, "annotations": []},
            None,
        ),
        ("id-rewritten", "messages[2].content[0].id", "call_pWq3kq8mJ2u7vT1sXbN0aZcD", None),
        ("id-rewritten", "messages[2].content[1].id", "call_Lr9dE5fGh2JkL0mNoP3qRsTu", None),
        ("id-rewritten", "messages[2].content[2].id", "call_Zx8cV7bN6mA5sD4fG3hJ2kL1", None),
        ("content-dropped", "messages[8].content[0]", "Searching now.", None),
        ("id-rewritten", "messages[8].content[1].id", "call_Qm4nB8vC2xZ6lK0jH9gF7dS5", None),
        ("role-merged", "messages[4]", "observation", "observation"),
        ("role-merged", "messages[5]", "observation", "observation"),
        ("content-type-unsupported", "tools", 3, "string"),
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None),
    ]


def test_an_anthropic_thinking_loop_loses_its_reasoning_beside_the_call() -> None:
    entry, warnings = assert_converts("anthropic", "thinking_tool_loop.json")
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    assert entry["conversations"][1] == {
        "from": "function_call",
        # As LLaMA-Factory writes JSON: json.dumps with its default separators.
        "value": json.dumps(
            {"name": "run_sql", "arguments": source["messages"][1]["content"][2]["input"]}
        ),
    }
    assert warnings == [
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("parameter-unsupported", "parameters.model", "claude-opus-4-1-20250805", None),
        ("parameter-unsupported", "parameters.max_tokens", 16000, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        (
            "reasoning-dropped",
            "messages[1].content[0]",
            source["messages"][1]["content"][0]["thinking"],
            None,
        ),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        ("id-rewritten", "messages[1].content[2].id", "toolu_01NXq3wPqLsGkVbZ6rT8uYc2", None),
        ("content-type-unsupported", "tools", 1, "string"),
    ]


def test_developer_and_mid_conversation_system_text_go_to_the_system_field() -> None:
    conversation = Conversation(
        messages=[
            Message(role="system", content=[TextBlock(text="Be brief.")]),
            Message(role="user", content=[TextBlock(text="hi")]),
            Message(role="developer", content=[TextBlock(text="Use French.")]),
            Message(role="assistant", content=[TextBlock(text="salut")]),
            Message(role="user", content=[TextBlock(text="a")]),
            Message(role="user", content=[TextBlock(text="b")]),
        ]
    )
    rendered = FORMAT.render(conversation)
    assert rendered.payload == [
        {
            "system": "Be brief.\n\nUse French.",
            "conversations": [
                {"from": "human", "value": "hi"},
                {"from": "gpt", "value": "salut"},
                {"from": "human", "value": "a\n\nb"},
            ],
        }
    ]
    assert summary(rendered.warnings) == [
        ("system-message-transformed", "messages[2]", "developer", "system"),
        ("role-merged", "messages[5]", "human", "human"),
    ]


def test_media_become_paths_with_placeholders_and_errors_become_text() -> None:
    conversation = every_block()
    rendered = FORMAT.render(conversation)
    [entry] = rendered.payload
    check_sharegpt_entry(entry, strict=False)
    assert entry["images"][0] == "https://example.com/URL-IMAGE.png"
    assert entry["images"][1].startswith("data:image/png;base64,")
    assert entry["conversations"][0]["value"].startswith("USER-TEXT<image><image>")
    assert (
        "capability-unsupported",
        "messages[4].content[0].is_error",
        True,
        "Error: ERROR-RESULT-TEXT",
    ) in summary(rendered.warnings)


def test_only_the_main_path_of_a_tree_is_written_and_each_other_branch_message_reported() -> None:
    tree = formats.get("claude-export").parse(
        load(FIXTURES / "claude-export" / "tree_branches.json")
    )
    rendered = FORMAT.render(stored(tree[0].conversation))
    dropped = [w for w in summary(rendered.warnings) if w[0] == "content-dropped"]
    assert dropped == [
        ("content-dropped", "messages[2]", "0195e3a1-1111-7000-8000-000000000003", None),
        ("content-dropped", "messages[3]", "0195e3a1-1111-7000-8000-000000000004", None),
        ("content-dropped", "messages", ["id", "timestamp"], None),
    ]


def test_reasoning_is_written_as_think_text_before_the_answer() -> None:
    conversation = Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="2+2?")]),
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(text="Add them.", signature="EqQB", provider="anthropic"),
                    ThinkingBlock(text="Plain thought."),
                    TextBlock(text="4"),
                ],
            ),
        ]
    )
    rendered = FORMAT.render(conversation)
    assert rendered.payload == [
        {
            "conversations": [
                {"from": "human", "value": "2+2?"},
                {
                    "from": "gpt",
                    "value": "<think>\nAdd them.\n</think>\n\n"
                    "<think>\nPlain thought.\n</think>\n\n4",
                },
            ]
        }
    ]
    assert summary(rendered.warnings) == [
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("content-type-unsupported", "messages[1].content[1]", "thinking", "text"),
    ]


# --------------------------------------------------------------------------- fuzzing

# Beside the fixtures, an entry whose tools field is empty.
_SEEDS = [load(path) for path in FIXTURE_PATHS] + [
    {"conversations": [{"from": "human", "value": "hi"}], "tools": []}
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(FORMAT, _SEEDS, data)
