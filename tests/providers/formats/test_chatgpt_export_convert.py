"""Other formats' conversations written as ``chatgpt-export`` entries: tool loops as chains
of nodes that read back paired, thinking as thoughts, every fixture a well-formed entry,
and nothing dropped without a warning."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from providers import formats
from providers.umf import ToolResultBlock, ToolUseBlock
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_nothing_dropped_silently,
    every_block,
    fixtures,
    load,
    stored,
    summary,
)
from tests.providers.sdk.chatgpt_export import check_chatgpt_conversation

FORMAT = formats.get("chatgpt-export")


def convert(format_id: str, name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    conversation = formats.get(format_id).parse(load(FIXTURES / format_id / name))[0].conversation
    rendered = FORMAT.render(stored(conversation))
    [entry] = rendered.payload
    check_chatgpt_conversation(entry)
    assert all(w.source == "chatgpt-export" for w in rendered.warnings)
    return entry, summary(rendered.warnings)


def thread(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages from the root to the current node."""
    mapping, key, out = entry["mapping"], entry["current_node"], []
    while key is not None:
        if mapping[key]["message"] is not None:
            out.append(mapping[key]["message"])
        key = mapping[key]["parent"]
    return out[::-1]


def test_an_openai_chat_tool_loop_becomes_a_chain_of_nodes() -> None:
    entry, warnings = convert("openai-chat", "tool_loop_parallel.json")
    messages = thread(entry)
    assert [(m["author"]["role"], m["recipient"]) for m in messages[:6]] == [
        ("system", "all"),
        ("user", "all"),
        ("assistant", "get_weather"),
        ("assistant", "get_weather"),
        ("assistant", "get_time"),
        ("tool", "all"),
    ]
    assert messages[2]["content"] == {
        "content_type": "text",
        "parts": ['{"city":"Paris","unit":"celsius"}'],
    }
    assert messages[5]["author"]["name"] == "get_weather"
    assert entry["default_model_slug"] == "gpt-4.1-2025-04-14"
    assert warnings == [
        ("parameter-unsupported", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", True, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        ("tool-unsupported", "tools[0]", "get_weather", None),
        ("tool-unsupported", "tools[1]", "get_time", None),
        ("tool-unsupported", "tools[2]", "search_restaurants", None),
        (
            "field-unknown",
            "messages[2].extra.openai-chat",
            {"refusal": None, "annotations": []},
            None,
        ),
        ("id-rewritten", "messages[2].content[0].id", "call_pWq3kq8mJ2u7vT1sXbN0aZcD", None),
        ("id-rewritten", "messages[2].content[1].id", "call_Lr9dE5fGh2JkL0mNoP3qRsTu", None),
        ("id-rewritten", "messages[2].content[2].id", "call_Zx8cV7bN6mA5sD4fG3hJ2kL1", None),
        ("id-rewritten", "messages[8].content[1].id", "call_Qm4nB8vC2xZ6lK0jH9gF7dS5", None),
    ]


def test_an_anthropic_thinking_loop_becomes_thoughts_a_call_and_its_result() -> None:
    entry, warnings = convert("anthropic", "thinking_tool_loop.json")
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    messages = thread(entry)
    assert [m["content"]["content_type"] for m in messages] == [
        "text",
        "thoughts",
        "text",
        "text",
        "text",
        "text",
    ]
    assert (
        messages[1]["content"]["thoughts"][0]["content"]
        == source["messages"][1]["content"][0]["thinking"]
    )
    assert messages[2]["recipient"] == "run_sql"
    assert messages[3]["author"] == {"role": "tool", "name": "run_sql", "metadata": {}}
    assert warnings == [
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("parameter-unsupported", "parameters.max_tokens", 16000, None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        ("tool-unsupported", "tools[0]", "run_sql", None),
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        ("id-rewritten", "messages[1].content[2].id", "toolu_01NXq3wPqLsGkVbZ6rT8uYc2", None),
    ]


def test_a_converted_export_reads_back_with_its_calls_paired() -> None:
    entry, _ = convert("anthropic", "thinking_tool_loop.json")
    [item] = FORMAT.parse([entry])
    result = next(m for m in item.conversation.messages if m.role == "tool").content[0]
    call = next(
        b for m in item.conversation.messages for b in m.content if isinstance(b, ToolUseBlock)
    )
    assert isinstance(result, ToolResultBlock) and result.tool_use_id == call.id


@pytest.mark.parametrize(
    "path",
    fixtures("openai-chat") + fixtures("anthropic") + fixtures("umf"),
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_every_other_fixture_becomes_an_export_entry(path: Path) -> None:
    for item in formats.get(path.parent.name).parse(load(path)):
        [entry] = FORMAT.render(stored(item.conversation)).payload
        check_chatgpt_conversation(entry)


def test_no_block_is_dropped_silently() -> None:
    conversation = every_block()
    assert_nothing_dropped_silently(conversation, FORMAT.render(conversation))
