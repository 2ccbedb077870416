"""Claude.ai exports as large accounts download them in 2026: conversations split over
``conversations-000.json``, ``-001``... in one zip (beside ``users.json``,
``projects.json`` and ``memories.json``), with empty conversations and blocks that UMF
has no name for (``injected_prompt_block``) kept verbatim."""

from __future__ import annotations

from typing import Any

import orjson

from providers import formats
from providers.formats.base import ParseResult
from tests.providers.sdk.archive import FIXTURES, results, stored, zip_bytes

FORMAT = formats.get("claude-export")
ENTRIES = orjson.loads((FIXTURES / "claude-export" / "files" / "conversations.json").read_bytes())
EMPTY: dict[str, Any] = {
    "uuid": "0d9e8f7a-2026-4000-8000-00000000e0e0",
    "name": "",
    "created_at": "2026-02-01T09:00:00.000000Z",
    "updated_at": "2026-02-01T09:00:00.000000Z",
    "account": {"uuid": "acc-1"},
    "chat_messages": [],
}
INJECTED: dict[str, Any] = {
    "uuid": "1a2b3c4d-2026-4000-8000-0000000011aa",
    "name": "Style guide",
    "created_at": "2026-02-02T09:00:00.000000Z",
    "updated_at": "2026-02-02T09:01:00.000000Z",
    "chat_messages": [
        {
            "uuid": "m-2026-1",
            "sender": "human",
            "text": "Rewrite this in plain words.",
            "content": [
                {"type": "injected_prompt_block", "text": "Use the style: concise."},
                {"type": "text", "text": "Rewrite this in plain words."},
            ],
            "created_at": "2026-02-02T09:00:00.000000Z",
            "attachments": [],
            "files": [],
            "parent_message_uuid": "00000000-0000-4000-8000-000000000000",
        }
    ],
}


def split_zip(*shards: list[Any]) -> bytes:
    members = {
        f"conversations-{index:03d}.json": orjson.dumps(shard) for index, shard in enumerate(shards)
    }
    return zip_bytes(
        {
            "users.json": b'[{"uuid": "acc-1"}]',
            "projects.json": b"[]",
            "memories.json": b'[{"conversations_memory": "Robin runs."}]',
            **members,
        }
    )


def test_a_split_zip_is_read_shard_after_shard() -> None:
    found = results(FORMAT, split_zip(ENTRIES[:2], ENTRIES[2:], [EMPTY, INJECTED]))
    kinds = [type(item).__name__ for item in found]
    assert kinds == [
        "ParseResult",
        "FormatError",
        "ParseResult",
        "ParseResult",
        "ParseResult",
        "ParseResult",
    ]
    keys = [item.key for item in found if isinstance(item, ParseResult)]
    assert keys == [
        ENTRIES[0]["uuid"],
        ENTRIES[2]["uuid"],
        ENTRIES[3]["uuid"],
        EMPTY["uuid"],
        INJECTED["uuid"],
    ]
    conversations = [stored(item.conversation) for item in found if isinstance(item, ParseResult)]
    assert FORMAT.render_all(conversations).payload == [ENTRIES[0], *ENTRIES[2:], EMPTY, INJECTED]


def test_an_empty_conversation_and_an_injected_prompt_round_trip() -> None:
    empty, injected = (item.conversation for item in FORMAT.parse([EMPTY, INJECTED]))
    assert empty.messages == [] and empty.metadata.title == ""
    [message] = injected.messages
    assert [block.type for block in message.content] == ["text"]
    assert FORMAT.render(stored(injected)).payload == [INJECTED]
