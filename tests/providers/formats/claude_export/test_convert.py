"""Other formats' conversations written as ``claude-export`` entries: tool loops kept in
the calling message, the system prompt moved, media without bytes reported, branches kept
as trees. Every other fixture a well-formed entry, and nothing dropped without a warning:
``archive/test_convert.py``, for every format whose files hold many conversations."""

from __future__ import annotations

from typing import Any

from providers import formats
from providers.umf import (
    Conversation,
    Message,
    TextBlock,
)
from tests.providers.formats.archive import _helpers as archive_helpers
from tests.providers.formats.claude_export.test_export import parse_one
from tests.providers.sdk.archive import (
    FIXTURES,
    fixtures,
    load,
)
from tests.providers.sdk.claude_export import check_claude_conversation

FORMAT = formats.get("claude-export")
FIXTURE_PATHS = fixtures("claude-export")


def assert_converts(format_id: str, name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    return archive_helpers.assert_converts(FORMAT, format_id, name, check_claude_conversation)


def test_an_anthropic_tool_loop_keeps_results_in_the_calling_message() -> None:
    entry, warnings = assert_converts("anthropic", "thinking_tool_loop.json")
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    messages = entry["chat_messages"]
    assert [m["sender"] for m in messages] == ["human", "assistant", "assistant", "human"]
    assert messages[1]["content"] == [
        {"type": "thinking", "thinking": source["messages"][1]["content"][0]["thinking"]},
        {
            "type": "tool_use",
            "id": "toolu_01NXq3wPqLsGkVbZ6rT8uYc2",
            "name": "run_sql",
            "input": source["messages"][1]["content"][2]["input"],
        },
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01NXq3wPqLsGkVbZ6rT8uYc2",
            "name": "run_sql",
            "content": [{"type": "text", "text": '[{"late": 42, "total": 1380}]'}],
            "is_error": False,
        },
    ]
    assert messages[2]["parent_message_uuid"] == messages[1]["uuid"]
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
        ("tool-unsupported", "tools[0]", "run_sql", None),
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        ("role-merged", "messages[2]", "user", "assistant"),
    ]


def test_an_openai_chat_tool_loop_merges_tool_messages_and_moves_the_system_prompt() -> None:
    entry, warnings = assert_converts("openai-chat", "tool_loop_parallel.json")
    messages = entry["chat_messages"]
    assert messages[0]["sender"] == "human"
    assert [b["type"] for b in messages[2]["content"]] == ["tool_use"] * 3 + ["tool_result"] * 3
    assert warnings == [
        ("parameter-unsupported", "parameters.model", "gpt-4.1-2025-04-14", None),
        ("parameter-unsupported", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", True, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        ("tool-unsupported", "tools[0]", "get_weather", None),
        ("tool-unsupported", "tools[1]", "get_time", None),
        ("tool-unsupported", "tools[2]", "search_restaurants", None),
        ("system-message-transformed", "messages[0]", "system", "human"),
        (
            "field-unknown",
            "messages[2].extra.openai-chat",
            {"refusal": None, "annotations": []},
            None,
        ),
        ("role-merged", "messages[3]", "tool", "assistant"),
        ("role-merged", "messages[4]", "tool", "assistant"),
        ("role-merged", "messages[5]", "tool", "assistant"),
        ("role-merged", "messages[9]", "tool", "assistant"),
    ]


def test_media_without_bytes_in_the_export_are_reported_and_text_documents_attached() -> None:
    entry, warnings = assert_converts("anthropic", "multimodal_documents.json")
    first = entry["chat_messages"][0]
    assert [a["file_name"] for a in first["attachments"]] == ["Species notes", "Field log"]
    assert entry["chat_messages"][1]["text"] == (
        "Probably yes. Workers of this species measure 7 to 12 mm, and the colony was found "
        "under bark, which matches the second photo."
    )
    assert [w[:2] for w in warnings if w[0] == "content-dropped"] == [
        ("content-dropped", "messages[0].content[0]"),
        ("content-dropped", "messages[0].content[1]"),
        ("content-dropped", "messages[0].content[2]"),
        ("content-dropped", "messages[0].content[3]"),
        ("content-dropped", "messages[0].content[4]"),
        ("content-dropped", "messages[1].content[1].citations"),
        ("content-dropped", "messages[1].content[3].citations"),
        ("content-dropped", "messages[2].content[0]"),
    ]


def test_a_branching_conversation_keeps_its_tree() -> None:
    source = parse_one("tree_branches.json")
    ids = [message.id for message in source.messages]
    foreign = Conversation(
        messages=[
            Message(
                role=message.role,
                id=f"m{index}",
                parent_id=f"m{ids.index(message.parent_id)}" if message.parent_id else None,
                content=[TextBlock(text="x")],
            )
            for index, message in enumerate(source.messages)
        ]
    )
    [entry] = FORMAT.render(foreign).payload
    parents = [m["parent_message_uuid"] for m in entry["chat_messages"]]
    assert parents == ["00000000-0000-4000-8000-000000000000", "m0", "m1", "m2", "m1", "m4"]


def test_a_message_naming_no_parent_in_a_tree_follows_the_one_before_it() -> None:
    # As storage reads the tree: the second question names no parent, so it follows the
    # answer before it, not the root.
    foreign = Conversation(
        messages=[
            Message(role="user", id="m0", content=[TextBlock(text="q")]),
            Message(role="assistant", id="m1", parent_id="m0", content=[TextBlock(text="a")]),
            Message(role="assistant", id="m2", parent_id="m0", content=[TextBlock(text="b")]),
            Message(role="user", id="m3", content=[TextBlock(text="q2")]),
        ]
    )
    [entry] = FORMAT.render(foreign).payload
    parents = [m["parent_message_uuid"] for m in entry["chat_messages"]]
    assert parents == ["00000000-0000-4000-8000-000000000000", "m0", "m0", "m2"]


# --------------------------------------------------------------------------- fuzzing
