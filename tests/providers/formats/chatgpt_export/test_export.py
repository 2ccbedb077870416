"""The ``chatgpt-export`` format: ChatGPT export conversations read with every branch and
written back exactly, and streamed from ``conversations.json`` or the (split) export zip
with its images (other formats' conversations as export entries are in
test_convert.py)."""

from __future__ import annotations

import base64
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats import _archive
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    AudioBlock,
    Conversation,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    main_path,
)
from tests.providers.formats.archive._helpers import parse_fixture
from tests.providers.sdk.archive import (
    FIXTURES,
    PNG,
    assert_round_trips,
    check_mutation,
    fixtures,
    load,
    nested,
    results,
    stored,
    summary,
    zip_bytes,
)

FORMAT = formats.get("chatgpt-export")
FIXTURE_PATHS = fixtures("chatgpt-export")
FILES = FIXTURES / "chatgpt-export" / "files"
UPLOAD = "file-7QeUu8fRsdBwHp1D2kZxCq"
GENERATED = "file_00000000a1b2c3d4e5f6a7b8c9d0e1f2"


def parse_one(name: str) -> Conversation:
    return parse_fixture(FORMAT, name)


def export_zip(**extra: bytes) -> bytes:
    members = {
        "conversations-000.json": (FILES / "conversations-000.json").read_bytes(),
        "conversations-001.json": (FILES / "conversations-001.json").read_bytes(),
        "user.json": b'{"id": "user-abc", "email": "sam@example.com"}',
        "chat.html": b"<html></html>",
        f"{UPLOAD}-cat.png": base64.b64decode(PNG),
        f"dalle-generations/{GENERATED}-4bYqUvO6.webp": b"RIFF\x00\x00\x00\x00WEBPVP8 ",
        **extra,
    }
    return zip_bytes(members)


# --------------------------------------------------------------------------- reading


def test_every_branch_is_kept_and_the_current_thread_is_the_main_path() -> None:
    conversation = parse_one("branches_regenerated.json")
    entry = load(FIXTURES / "chatgpt-export" / "branches_regenerated.json")[0]
    assert {m.id for m in conversation.messages} == set(entry["mapping"]) - {"client-created-root"}
    for message in conversation.messages:
        node = entry["mapping"][message.id]
        expected = None if node["parent"] == "client-created-root" else node["parent"]
        assert message.parent_id == expected
    path = [m.id for m in main_path(conversation)]
    assert path[-1] == entry["current_node"]
    assert [m.finish_reason for m in main_path(conversation)][-1] == "length"
    request = formats.get("openai-chat").render(conversation).payload
    assert [m["content"] for m in request["messages"]][-2:] == [
        "Why Python over Ruby?",
        "Bigger ecosystem for data and science.",
    ]


def test_a_message_to_a_tool_is_a_call_and_the_tool_messages_after_it_its_results() -> None:
    [item] = FORMAT.parse(load(FIXTURES / "chatgpt-export" / "code_interpreter.json"))
    messages = item.conversation.messages
    call = messages[2].content[0]
    assert isinstance(call, ToolUseBlock) and call.name == "python"
    assert call.input == {
        "code": "import pandas as pd\ndf = pd.read_csv('/mnt/data/sales.csv')\ndf['price'].mean()"
    }
    result = messages[3].content[0]
    assert isinstance(result, ToolResultBlock) and result.tool_use_id == call.id
    assert result.content == [TextBlock(text="42.375", extra={"chatgpt-export": {"$key": "text"}})]
    assert messages[2].model == "gpt-4o" and messages[3].tool_call_id == call.id
    assert summary(item.warnings) == [
        (
            "id-synthesized",
            "[0].mapping.3f6a7b8c-0000-4000-8000-000000000003.message",
            None,
            call.id,
        )
    ]


def test_a_json_call_keeps_its_arguments_and_every_tool_message_after_it_answers() -> None:
    messages = parse_one("dalle_images.json").messages
    call = messages[2].content[0]
    assert isinstance(call, ToolUseBlock) and call.name == "dalle.text2im"
    assert call.input["size"] == "1024x1024" and call.raw_arguments is not None
    for answer in messages[3:5]:
        assert answer.role == "tool" and answer.tool_call_id == call.id
    image = messages[1].content[0]
    assert isinstance(image, ImageBlock)
    assert image.source.type == "file" and image.source.file_id == UPLOAD


def test_reasoning_and_voice_and_errors_have_their_blocks() -> None:
    thoughts = parse_one("reasoning_thoughts.json").messages[2].content
    assert [type(b) for b in thoughts] == [ThinkingBlock, ThinkingBlock]
    voice = parse_one("voice_audio.json").messages[1].content
    assert [type(b) for b in voice] == [TextBlock, AudioBlock]
    memory = parse_one("custom_instructions_memory.json").messages
    assert memory[0].role == "user" and len(memory[0].content) == 2
    failed = memory[3].content[0]
    assert isinstance(failed, ToolResultBlock) and failed.is_error is True
    assert memory[4].content[0].type == "tool_result"
    assert memory[4].extra["chatgpt-export"]["content"]["content_type"] == "computer_output"


ODD_ENTRIES: list[dict[str, Any]] = [
    {
        "mapping": {
            "r": {"id": "not-r", "message": None, "parent": None, "children": ["a"]},
            "a": {"id": "a", "parent": "r", "children": [], "message": None},
        }
    },
    {
        "mapping": {"a": {"id": "a", "parent": ["odd"], "message": None}},
        "current_node": {"x": 1},
    },
    # Parts and thoughts UMF has no block for (a null one too) stay where they were.
    {
        "mapping": {
            "a": {
                "id": "a",
                "parent": None,
                "message": {
                    "author": {"role": "user"},
                    "content": {"content_type": "text", "parts": [None, "hi", {"x": 1}]},
                },
            },
        }
    },
    {
        "mapping": {
            "a": {
                "id": "a",
                "parent": None,
                "message": {
                    "author": {"role": "assistant"},
                    "content": {"content_type": "thoughts", "thoughts": [None, 1]},
                },
            },
        }
    },
    # A node without an id, and one whose id is null: neither gains or loses one.
    {
        "mapping": {
            "r": {"message": None, "parent": None, "children": ["a", "b"]},
            "a": {"parent": "r", "children": [], "message": None},
            "b": {"id": None, "parent": "r", "children": [], "message": None},
        }
    },
    {
        "mapping": {
            "a": {"id": "a", "parent": "gone", "children": ["b"], "message": None},
            "b": {
                "id": "b",
                "parent": "a",
                "children": [],
                "message": {
                    "author": {"role": "user"},
                    "content": {"content_type": "who_knows", "v": 1},
                },
            },
        }
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
        ({"title": "x"}, "mapping"),
        ({"mapping": {"a": "node"}}, "mapping.a"),
        (
            {
                "mapping": {
                    "a": {"id": "a", "parent": "b", "children": []},
                    "b": {"id": "b", "parent": "a"},
                }
            },
            "mapping.a.parent",
        ),
        (
            {"mapping": {"a": {"id": "a", "parent": None, "message": {"author": {"role": "bot"}}}}},
            "mapping.a.message.author.role",
        ),
        (
            {"mapping": {"a": {"id": "a", "message": {"author": {"role": "user"}, "content": {}}}}},
            "mapping.a.message.content.content_type",
        ),
        ([{"mapping": {}, "deep": nested(150)}], "[0]"),
        # Where the message keeps the parts UMF has no block for.
        (
            {
                "mapping": {
                    "a": {
                        "message": {
                            "author": {"role": "user"},
                            "content": {"content_type": "text", "parts": ["hi"]},
                            "unmapped_parts": [[0, "x"]],
                        }
                    }
                }
            },
            "mapping.a.message.unmapped_parts",
        ),
    ],
)
def test_what_is_not_a_chatgpt_export_is_refused_naming_the_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        FORMAT.parse(payload)
    assert error.value.field == field


# --------------------------------------------------------------------------- files


def test_a_split_export_zip_streams_its_conversations_with_their_images() -> None:
    found = results(FORMAT, export_zip())
    assert [type(item).__name__ for item in found] == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
    ]
    error = found[1]
    assert (
        isinstance(error, FormatError)
        and error.field == "conversations-000.json[1].mapping.a.parent"
    )
    assert error.message.startswith("conversation 6600dead-0000-8000-0000-000000000000: ")
    dalle = found[2]
    assert isinstance(dalle, ParseResult) and dalle.key == "6612a1b2-c3d4-8005-e6f7-a8b9c0d1e2f3"
    upload = dalle.conversation.messages[1].content[0]
    assert isinstance(upload, ImageBlock)
    assert upload.source.type == "base64" and upload.source.data == PNG
    assert upload.source.media_type == "image/png"
    generated = dalle.conversation.messages[3].content[0]
    assert isinstance(generated, ToolResultBlock) and isinstance(generated.content, list)
    [picture] = generated.content
    assert isinstance(picture, ImageBlock) and picture.source.media_type == "image/webp"
    entries = [
        *orjson.loads((FILES / "conversations-000.json").read_bytes())[:1],
        *orjson.loads((FILES / "conversations-001.json").read_bytes()),
    ]
    conversations = [item.conversation for item in found if isinstance(item, ParseResult)]
    assert FORMAT.render_all([stored(c) for c in conversations]).payload == entries


def test_an_image_too_large_stays_a_pointer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_archive, "LIMITS", _archive.Limits(max_asset_bytes=10))
    found = results(FORMAT, export_zip())
    dalle = found[2]
    assert isinstance(dalle, ParseResult)
    upload = dalle.conversation.messages[1].content[0]
    assert isinstance(upload, ImageBlock) and upload.source.type == "file"


def test_a_plain_conversations_file_streams_too() -> None:
    found = results(FORMAT, (FILES / "conversations-001.json").read_bytes())
    assert [type(item).__name__ for item in found] == ["ParseResult", "ParseResult"]


def test_a_hostile_zip_is_refused() -> None:
    [traversal] = results(FORMAT, export_zip(**{"../../etc/passwd": b"x"}))
    assert isinstance(traversal, FormatError) and traversal.field == "zip:../../etc/passwd"
    [bomb] = results(
        FORMAT, zip_bytes({"conversations.json": b"[" + b" " * (4 * 1024 * 1024) + b"]"})
    )
    assert isinstance(bomb, FormatError) and "compressed" in bomb.message


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [load(path) for path in FIXTURE_PATHS] + ODD_ENTRIES


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    check_mutation(FORMAT, _SEEDS, data)
