"""The ``claude-export`` format: Claude.ai export conversations read as trees and written
back exactly, streamed from ``conversations.json`` or the export zip (hostile archives
refused). Other formats' conversations as export entries: test_convert.py."""

from __future__ import annotations

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
    DocumentBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    main_path,
)
from tests.providers.formats.archive._helpers import parse_fixture
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_round_trips,
    check_mutation,
    fixtures,
    load,
    nested,
    results,
    summary,
    zip_bomb,
    zip_bytes,
)

FORMAT = formats.get("claude-export")
FIXTURE_PATHS = fixtures("claude-export")
FILES = FIXTURES / "claude-export" / "files"


def parse_one(name: str) -> Conversation:
    return parse_fixture(FORMAT, name)


def export_zip(**extra: bytes) -> bytes:
    members = {
        "conversations.json": (FILES / "conversations.json").read_bytes(),
        "users.json": (FILES / "users.json").read_bytes(),
        **extra,
    }
    return zip_bytes(members)


# --------------------------------------------------------------------------- reading


def test_an_edit_is_a_branch_and_the_latest_message_ends_the_main_path() -> None:
    conversation = parse_one("tree_branches.json")
    parents = [m.parent_id for m in conversation.messages]
    ids = [m.id for m in conversation.messages]
    assert parents == [None, ids[0], ids[1], ids[2], ids[1], ids[4]]
    assert [m.id for m in main_path(conversation)] == [ids[0], ids[1], ids[4], ids[5]]
    assert conversation.metadata.title == "Sourdough hydration"


def test_uploads_are_documents_before_the_message_text() -> None:
    message = parse_one("attachments_files.json").messages[0]
    notes, chart, text = message.content
    assert isinstance(notes, DocumentBlock) and notes.source.type == "text"
    assert notes.filename == "q3-notes.txt" and notes.source.data is not None
    assert notes.source.data.startswith("Q3 revenue")
    assert isinstance(chart, DocumentBlock) and chart.filename == "revenue-chart.png"
    assert chart.source.data == ""
    assert isinstance(text, TextBlock)


def test_server_tools_stay_in_the_assistant_message_and_pair_by_order() -> None:
    [item] = FORMAT.parse(load(FIXTURES / "claude-export" / "tools_thinking.json"))
    thinking, call, result, text = item.conversation.messages[1].content
    assert isinstance(thinking, ThinkingBlock) and thinking.signature is None
    assert isinstance(call, ToolUseBlock) and isinstance(result, ToolResultBlock)
    assert result.tool_use_id == call.id == "toolu_synthesized_1"
    assert result.name == "web_search" and isinstance(result.content, list)
    # A web search's knowledge result reads as what was found: title, URL and text.
    [found] = result.content
    assert isinstance(found, DocumentBlock) and found.title == "Announcing Rust 1.90.0 | Rust Blog"
    assert found.source.url == "https://blog.rust-lang.org/2025/09/18/Rust-1.90.0/"
    assert found.source.type == "text" and found.source.data == (
        "The Rust team is happy to announce a new version of Rust, 1.90.0.\n\n"
        "Source: https://blog.rust-lang.org/2025/09/18/Rust-1.90.0/"
    )
    assert isinstance(text, TextBlock) and text.citations is not None
    assert summary(item.warnings) == [
        ("id-synthesized", "[0].chat_messages[1].content[1]", None, "toolu_synthesized_1"),
        ("id-synthesized", "[0].chat_messages[1].content[2]", None, "toolu_synthesized_1"),
    ]


def test_an_older_export_without_content_or_parents_reads_as_a_thread() -> None:
    conversation = parse_one("older_text_only.json")
    assert [m.parent_id for m in conversation.messages] == [None, None]
    assert conversation.messages[1].content == [
        TextBlock(
            text="Crimson leaves drifting\nWhispers of the cooling wind\nNature's last hurrah"
        )
    ]


ODD_ENTRIES: list[dict[str, Any]] = [
    {
        "chat_messages": [
            {
                "uuid": "m",
                "sender": "human",
                "content": [{"type": "text", "text": "x", "citations": [1]}],
            }
        ]
    },
    {
        "chat_messages": [
            {
                "uuid": "m",
                "sender": "human",
                "parent_message_uuid": ["odd"],
                "attachments": "none",
            }
        ]
    },
    {
        "name": None,
        "created_at": "yesterday",
        "chat_messages": [{"uuid": "m", "sender": "human", "text": None}],
    },
    # Fields named like the one where messages keep unmapped blocks, on values that keep
    # none: the conversation and a text block.
    {
        "unmapped_blocks": 1,
        "chat_messages": [
            {
                "uuid": "m",
                "sender": "human",
                "content": [{"type": "text", "text": "x", "unmapped_blocks": 2}],
            }
        ],
    },
    # A tool result whose name is null keeps it (its call's name is not written).
    {
        "chat_messages": [
            {
                "uuid": "m",
                "sender": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t", "name": "web_search", "input": {}},
                    {"type": "tool_result", "tool_use_id": "t", "name": None, "content": []},
                ],
            }
        ]
    },
]


@pytest.mark.parametrize("entry", ODD_ENTRIES)
def test_odd_but_readable_entries_round_trip(entry: dict[str, Any]) -> None:
    assert_round_trips(FORMAT, entry)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ("text", "payload"),
        ([], "payload"),
        ({"uuid": "c"}, "chat_messages"),
        ([{"chat_messages": [{"sender": "human"}]}], "[0].chat_messages[0].uuid"),
        ({"chat_messages": [{"uuid": "m", "sender": "robot"}]}, "chat_messages[0].sender"),
        (
            {"chat_messages": [{"uuid": "m", "sender": "human", "content": [{"text": "x"}]}]},
            "chat_messages[0].content[0].type",
        ),
        (
            {"chat_messages": [{"uuid": "m", "sender": "human", "content": [{"type": "text"}]}]},
            "chat_messages[0].content[0].text",
        ),
        (
            {"chat_messages": [{"uuid": "m", "sender": "human"}, {"uuid": "m", "sender": "human"}]},
            "chat_messages[1].uuid",
        ),
        ({"chat_messages": [], "x": nested(150)}, "payload"),
        # Where a message and a tool result keep the blocks UMF has no block for.
        (
            {"chat_messages": [{"uuid": "m", "sender": "human", "unmapped_blocks": []}]},
            "chat_messages[0].unmapped_blocks",
        ),
        (
            {
                "chat_messages": [
                    {
                        "uuid": "m",
                        "sender": "assistant",
                        "content": [{"type": "tool_result", "content": "", "unmapped_blocks": 1}],
                    }
                ]
            },
            "chat_messages[0].content[0].unmapped_blocks",
        ),
    ],
)
def test_what_is_not_a_claude_export_is_refused_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        FORMAT.parse(payload)
    assert error.value.field == field


# --------------------------------------------------------------------------- files


def test_conversations_json_streams_and_a_broken_conversation_does_not_stop_it() -> None:
    found = results(FORMAT, (FILES / "conversations.json").read_bytes())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[1]
    assert isinstance(error, FormatError) and error.field == "[1].chat_messages[0].sender"
    assert error.message == "conversation broken: sender must be human or assistant"
    keys = [item.key for item in found if isinstance(item, ParseResult)]
    assert keys[0] == "4b0a5e2c-8f3d-4c1a-9e7b-1d2c3b4a5f60"


def test_the_export_zip_streams_its_conversations_file() -> None:
    found = results(FORMAT, export_zip())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[1]
    assert isinstance(error, FormatError)
    assert error.field == "conversations.json[1].chat_messages[0].sender"
    entries = orjson.loads((FILES / "conversations.json").read_bytes())
    conversations = [item.conversation for item in found if isinstance(item, ParseResult)]
    assert FORMAT.render_all(conversations).payload == [entries[0], entries[2], entries[3]]


def test_a_zip_without_conversations_is_refused() -> None:
    [error] = results(FORMAT, zip_bytes({"users.json": b"[]"}))
    assert isinstance(error, FormatError) and "no conversations" in error.message


@pytest.mark.parametrize(
    "name", ["../conversations.json", "/etc/conversations.json", "a/../../x.json", "C:/x.json"]
)
def test_a_zip_with_an_unsafe_path_is_refused(name: str) -> None:
    [error] = results(FORMAT, export_zip(**{name: b"[]"}))
    assert isinstance(error, FormatError) and error.field == f"zip:{name}"


def test_a_zip_bomb_is_refused_before_anything_is_read() -> None:
    [error] = results(FORMAT, zip_bomb("conversations.json", 8 * 1024 * 1024))
    assert isinstance(error, FormatError) and "compressed" in error.message


def test_a_zip_expanding_past_the_total_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_zip_total_bytes=1000))
    [error] = results(FORMAT, export_zip())
    assert isinstance(error, FormatError) and "expands" in error.message


def test_a_zip_with_too_many_entries_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_zip_entries=10))
    members = {f"files/{index}.txt": b"x" for index in range(20)}
    [error] = results(FORMAT, export_zip(**members))
    assert isinstance(error, FormatError) and "entries" in error.message


def test_a_zip_whose_directory_claims_too_many_entries_is_refused_before_reading_it() -> None:
    data = bytearray(export_zip())
    end = data.rfind(b"PK\x05\x06")
    data[end + 8 : end + 12] = (65000).to_bytes(2, "little") * 2
    [error] = results(FORMAT, bytes(data))
    assert isinstance(error, FormatError) and error.message == "zip holds more than 50000 entries"


def test_a_zip_whose_declared_size_lies_is_refused() -> None:
    data = bytearray(export_zip())
    name = b"conversations.json"
    header = data.find(b"PK\x01\x02")  # central directory entries
    while data[header + 46 : header + 46 + len(name)] != name:
        header = data.find(b"PK\x01\x02", header + 4)
    declared = int.from_bytes(data[header + 24 : header + 28], "little")
    data[header + 24 : header + 28] = (declared // 2).to_bytes(4, "little")
    found = results(FORMAT, bytes(data))
    assert isinstance(found[-1], FormatError)
    assert found[-1].field in ("conversations.json", "file")


def test_a_truncated_zip_or_invalid_utf8_is_a_clean_error() -> None:
    [error] = results(FORMAT, export_zip()[:200])
    assert isinstance(error, FormatError)
    found = results(FORMAT, b'[{"uuid": "x", "name": "\xff"}]')
    assert isinstance(found[-1], FormatError) and "not valid JSON" in found[-1].message


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [load(path) for path in FIXTURE_PATHS] + ODD_ENTRIES


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(FORMAT, _SEEDS, data)
