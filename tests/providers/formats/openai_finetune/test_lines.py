"""The ``openai-finetune`` format: JSONL lines read one conversation each, written back byte
for byte, streamed from files, and other formats' conversations as training lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats import _archive
from providers.formats.base import FormatError, ParseResult
from providers.umf import Conversation, Message, TextBlock
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_mutations_fail_cleanly,
    assert_round_trips,
    check_mutation,
    fixtures,
    load,
    nested,
    results,
    stored,
    summary,
)
from tests.providers.sdk.openai_finetune import validate_finetune_text

FORMAT = formats.get("openai-finetune")
FIXTURE_PATHS = fixtures("openai-finetune")
TRAIN_FILE = FIXTURES / "openai-finetune" / "files" / "train.jsonl"


def parse_one(text: str) -> Conversation:
    [item] = FORMAT.parse(text)
    return item.conversation


# --------------------------------------------------------------------------- fixtures


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURE_PATHS) >= 6


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=lambda p: p.stem)
def test_fixture_round_trips_byte_for_byte(path: Path) -> None:
    assert_round_trips(FORMAT, load(path))


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=lambda p: p.stem)
def test_fixture_lines_are_what_the_sdk_types_accept(path: Path) -> None:
    validate_finetune_text(load(path))


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=lambda p: p.stem)
def test_mutated_lines_read_or_fail_with_a_format_error(path: Path) -> None:
    line = orjson.loads(load(path).split("\n")[0])

    def as_text(value: Any) -> str:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()

    assert_mutations_fail_cleanly(FORMAT, line, path.stem, encode=as_text)


# --------------------------------------------------------------------------- reading


def test_a_line_reads_like_a_chat_request_with_its_fields_in_this_format() -> None:
    conversation = parse_one(load(FIXTURES / "openai-finetune" / "weighted_turns.json"))
    assert [m.role for m in conversation.messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    assert conversation.messages[2].extra == {"openai-finetune": {"weight": 0}}
    assert "openai-chat" not in conversation.extra


def test_a_preference_line_keeps_the_preferred_answer_last_and_the_other_aside() -> None:
    conversation = parse_one(load(FIXTURES / "openai-finetune" / "preference_dpo.json"))
    last = conversation.messages[-1]
    assert last.role == "assistant"
    assert last.extra["openai-finetune"]["$output"] == "preferred"
    assert conversation.extra["openai-finetune"]["preference"]["non_preferred_output"] == [
        {"role": "assistant", "content": "It is not particularly cold in San Francisco today."}
    ]


def test_a_supervised_line_keeps_a_field_named_preference_like_any_other() -> None:
    line = '{"messages":[{"role":"user","content":"a"}],"preference":{"x":1}}\n'
    [item] = assert_round_trips(FORMAT, line)
    assert item.conversation.extra["openai-finetune"]["preference"] == {"x": 1}
    changed = stored(item.conversation)
    changed.messages.append(Message(role="assistant", content=[TextBlock(text="b")]))
    assert orjson.loads(FORMAT.render(changed).payload)["preference"] == {"x": 1}


def test_every_line_of_a_text_is_a_conversation_and_blank_lines_are_skipped() -> None:
    first = '{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}'
    second = '{"messages": [{"role": "user", "content": "c"}]}'
    items = FORMAT.parse(f"{first}\n\n{second}")
    assert [extract(item) for item in items] == ["a", "c"]
    rendered = FORMAT.render_all([item.conversation for item in items])
    assert rendered.payload == f"{first}\n{second}"


def extract(item: ParseResult) -> str:
    block = item.conversation.messages[0].content[0]
    assert isinstance(block, TextBlock)
    return block.text


def test_a_changed_conversation_is_written_as_compact_json() -> None:
    text = load(FIXTURES / "openai-finetune" / "python_dumps_spacing.json")
    conversation = stored(parse_one(text))
    conversation.messages.append(Message(role="user", content=[TextBlock(text="Encore ?")]))
    payload = FORMAT.render(conversation).payload
    assert isinstance(payload, str)
    line = orjson.loads(payload)
    assert line["messages"][-1] == {"role": "user", "content": "Encore ?"}
    assert payload == orjson.dumps(line).decode() + "\n"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"messages": []}, "payload"),
        ("", "payload"),
        ("not json", "line 1"),
        ('{"messages": [{"role": "user", "content": "hi"}]}\n[1, 2]', "line 2"),
        ('{"prompt": "old completion format", "completion": "x"}', "line 1.messages"),
        ('{"messages": [{"role": "robot", "content": "hi"}]}', "line 1.messages[0].role"),
        ('{"messages": [{"role": "user", "content": 7}]}', "line 1.messages[0].content"),
        ('{"input": {"messages": "no"}, "preferred_output": []}', "line 1.input.messages"),
        # Where a preference line keeps its other fields: the input cannot have one too.
        (
            '{"input": {"messages": [], "preference": 1}, "preferred_output": []}',
            "line 1.input.preference",
        ),
        (orjson.dumps({"messages": nested(150)}).decode(), "line 1"),
    ],
)
def test_what_is_not_a_fine_tuning_file_is_refused_naming_the_line(
    payload: Any, field: str
) -> None:
    with pytest.raises(FormatError) as error:
        FORMAT.parse(payload)
    assert error.value.field == field


# --------------------------------------------------------------------------- files


def test_a_training_file_streams_line_by_line_and_a_broken_line_does_not_stop_it() -> None:
    found = results(FORMAT, TRAIN_FILE.read_bytes())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[2]
    assert isinstance(error, FormatError) and error.field == "line 4"
    lines = TRAIN_FILE.read_text(encoding="utf-8").split("\n")
    for item, line in zip([found[0], found[1], found[3], found[4]], [0, 1, 4, 5], strict=True):
        assert isinstance(item, ParseResult)
        assert FORMAT.render(item.conversation).payload == lines[line] + "\n"


def test_invalid_utf8_spoils_only_its_line() -> None:
    good = b'{"messages":[{"role":"user","content":"ok"}]}'
    found = results(
        FORMAT, good + b"\n" + b'{"messages":[{"role":"user","content":"\xff"}]}\n' + good
    )
    assert isinstance(found[0], ParseResult) and isinstance(found[2], ParseResult)
    assert isinstance(found[1], FormatError)
    assert found[1].field == "line 2" and "UTF-8" in found[1].message


def test_a_line_past_the_size_limit_is_refused_and_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_entry_bytes=200))
    good = b'{"messages":[{"role":"user","content":"ok"}]}'
    long = b'{"messages":[{"role":"user","content":"' + b"x" * 5000 + b'"}]}'
    found = results(FORMAT, b"\n".join([good, long, good]))
    assert [type(item).__name__ for item in found] == ["ParseResult", "FormatError", "ParseResult"]
    assert isinstance(found[1], FormatError) and found[1].field == "line 2"


def test_a_zip_or_a_json_array_is_not_a_training_file() -> None:
    from tests.providers.sdk.archive import zip_bytes

    [error] = results(FORMAT, zip_bytes({"train.jsonl": b"{}"}))
    assert isinstance(error, FormatError)
    [item] = results(FORMAT, b"[1, 2, 3]\n")
    assert isinstance(item, FormatError) and item.field == "line 1"


# --------------------------------------------------------------------------- other formats


def assert_converts(format_id: str, name: str) -> tuple[str, list[tuple[Any, ...]]]:
    conversation = formats.get(format_id).parse(load(FIXTURES / format_id / name))[0].conversation
    rendered = FORMAT.render(stored(conversation))
    assert isinstance(rendered.payload, str)
    validate_finetune_text(rendered.payload)
    assert all(w.source == "openai-finetune" for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def test_an_openai_chat_request_becomes_a_line_without_its_request_parameters() -> None:
    payload, warnings = assert_converts("openai-chat", "tool_loop_parallel.json")
    request = load(FIXTURES / "openai-chat" / "tool_loop_parallel.json")
    line = orjson.loads(payload)
    assert set(line) == {"messages", "tools", "parallel_tool_calls"}
    assert line["tools"] == request["tools"]
    assert line["messages"][:6] == [
        {k: v for k, v in m.items() if v is not None or k == "content"}
        for m in request["messages"][:6]
    ]
    assert warnings == [
        ("parameter-unsupported", "parameters.model", "gpt-4.1-2025-04-14", None),
        ("parameter-unsupported", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
    ]


def test_audio_and_files_are_dropped_from_a_multimodal_request() -> None:
    payload, warnings = assert_converts("openai-chat", "multimodal_request.json")
    parts = orjson.loads(payload)["messages"][1]["content"]
    assert [part["type"] for part in parts] == ["text", "image_url", "image_url"]
    assert warnings == [
        ("parameter-unsupported", "parameters.model", "gpt-4o-audio-preview", None),
        ("parameter-unsupported", "parameters.max_tokens", 800, None),
        (
            "content-dropped",
            "messages[1].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 364},
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[4]",
            {
                "type": "document",
                "source": "base64",
                "media_type": "application/pdf",
                "size": 125,
                "filename": "invoice.pdf",
            },
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[5]",
            {"type": "document", "source": "file", "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"},
            None,
        ),
        ("parameter-unsupported", "extra.openai-chat.modalities", ["text"], None),
    ]


def test_an_anthropic_request_loses_its_reasoning_and_parameters() -> None:
    payload, warnings = assert_converts("anthropic", "thinking_tool_loop.json")
    line = orjson.loads(payload)
    assert line["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "toolu_01NXq3wPqLsGkVbZ6rT8uYc2",
                "type": "function",
                "function": {
                    "name": "run_sql",
                    "arguments": orjson.dumps(
                        load(FIXTURES / "anthropic" / "thinking_tool_loop.json")["messages"][1][
                            "content"
                        ][2]["input"]
                    ).decode(),
                },
            }
        ],
    }
    thought = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")["messages"][1]["content"][0]
    assert warnings == [
        ("parameter-unsupported", "parameters.model", "claude-opus-4-1-20250805", None),
        ("parameter-unsupported", "parameters.max_tokens", 16000, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("reasoning-dropped", "messages[1].content[0]", thought["thinking"], None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]


def test_an_audio_only_answer_leaves_no_empty_assistant_message() -> None:
    payload, warnings = assert_converts("openai-chat", "audio_exchange.json")
    messages = orjson.loads(payload)["messages"]
    assert messages == [
        {"role": "user", "content": "Say hello in French."},
        {"role": "user", "content": "Now say this back to me:"},
    ]
    assert [w[:2] for w in warnings if w[0] == "content-dropped"] == [
        ("content-dropped", "messages[1].content[0]"),
        ("content-dropped", "messages[2].content[1]"),
        ("content-dropped", "messages[3].content[0]"),
    ]


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


# --------------------------------------------------------------------------- fuzzing

# The fixtures' lines as JSON (a mutation changes the value, which is then written as a
# line), and a supervised line with a field named like a preference line's own.
_SEEDS = [
    orjson.loads(line) for path in FIXTURE_PATHS for line in load(path).splitlines() if line
] + [{"messages": [{"role": "user", "content": "a"}], "preference": {"x": 1}}]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(FORMAT, _SEEDS, data, encode=lambda line: orjson.dumps(line).decode())
