"""Other formats' conversations written as ``chatgpt-export`` entries: tool loops as chains
of nodes that read back paired (each result after its call, in partial trees too), and
thinking as thoughts. Every other fixture a well-formed entry, and nothing dropped without
a warning: ``archive/test_convert.py``, for every format whose files hold many
conversations."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from providers import formats
from providers.umf import (
    Block,
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    main_path,
)
from tests.providers.formats.archive import _helpers as archive_helpers
from tests.providers.sdk.archive import (
    FIXTURES,
    load,
    summary,
)
from tests.providers.sdk.chatgpt_export import check_chatgpt_conversation

FORMAT = formats.get("chatgpt-export")


def assert_converts(format_id: str, name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    return archive_helpers.assert_converts(FORMAT, format_id, name, check_chatgpt_conversation)


def thread(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages from the root to the current node."""
    mapping, key, out = entry["mapping"], entry["current_node"], []
    while key is not None:
        if mapping[key]["message"] is not None:
            out.append(mapping[key]["message"])
        key = mapping[key]["parent"]
    return out[::-1]


def test_an_openai_chat_tool_loop_becomes_a_chain_of_nodes() -> None:
    entry, warnings = assert_converts("openai-chat", "tool_loop_parallel.json")
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
    entry, warnings = assert_converts("anthropic", "thinking_tool_loop.json")
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
    entry, _ = assert_converts("anthropic", "thinking_tool_loop.json")
    [item] = FORMAT.parse([entry])
    result = next(m for m in item.conversation.messages if m.role == "tool").content[0]
    call = next(
        b for m in item.conversation.messages for b in m.content if isinstance(b, ToolUseBlock)
    )
    assert isinstance(result, ToolResultBlock) and result.tool_use_id == call.id


# --------------------------------------------------------------------------- partial trees

CALL_ARGUMENTS = {"14C": '{"city":"Paris"}', "19C": '{"city":"Rome"}'}


def weather_loop() -> list[Message]:
    """Two parallel calls and their results, every message naming its parent."""
    calls: list[Block] = [
        ToolUseBlock(id=f"c{n}", name="weather", input={"city": city})
        for n, city in ((1, "Paris"), (2, "Rome"))
    ]
    results = [
        ToolResultBlock(tool_use_id=f"c{n}", name="weather", content=text)
        for n, text in ((1, "14C"), (2, "19C"))
    ]
    return [
        Message(role="user", id="u1", content=[TextBlock(text="Paris and Rome?")]),
        Message(role="assistant", id="a1", parent_id="u1", content=calls),
        Message(role="tool", id="t1", parent_id="a1", tool_call_id="c1", content=[results[0]]),
        Message(role="tool", id="t2", parent_id="t1", tool_call_id="c2", content=[results[1]]),
        Message(role="assistant", id="a2", parent_id="t2", content=[TextBlock(text="14C, 19C")]),
    ]


def author(node: dict[str, Any]) -> str | None:
    return node["message"]["author"]["role"] if node["message"] is not None else None


def assert_results_follow_their_calls(entry: dict[str, Any]) -> None:
    """Every tool node has the call it answers on its thread, and reads back as a result."""
    check_chatgpt_conversation(entry)
    mapping = entry["mapping"]
    tools = [key for key, node in mapping.items() if author(node) == "tool"]
    assert len(tools) == 2
    for key in tools:
        call = CALL_ARGUMENTS[mapping[key]["message"]["content"]["parts"][0]]
        ancestors, parent = [], mapping[key]["parent"]
        while parent is not None:
            ancestors.append(mapping[parent])
            parent = mapping[parent]["parent"]
        thread = [node["message"]["content"].get("parts") for node in ancestors if author(node)]
        assert [call] in thread, f"{key} answers {call}, which is not on its thread"
    [item] = FORMAT.parse([entry])
    answers = [m.content for m in item.conversation.messages if m.role == "tool"]
    assert all(isinstance(blocks[0], ToolResultBlock) for blocks in answers)


@pytest.mark.parametrize(
    "without_parent",
    [set(chosen) for size in range(5) for chosen in itertools.combinations((1, 2, 3, 4), size)],
    ids=lambda chosen: ",".join(f"messages[{i}]" for i in sorted(chosen)) or "none",
)
def test_in_a_partial_tree_every_result_is_written_after_its_call(without_parent: set[int]) -> None:
    messages = weather_loop()
    for index in without_parent:
        messages[index].parent_id = None
    rendered = FORMAT.render(Conversation(messages=messages))
    assert_results_follow_their_calls(rendered.payload[0])


def test_a_message_naming_no_parent_in_a_tree_follows_the_one_before_it() -> None:
    # As storage reads the tree: the result follows its call, with nothing to say, and the
    # system prompt and question naming no parent stay on the current thread.
    messages = [
        Message(role="system", content=[TextBlock(text="Be brief.")]),
        *weather_loop(),
    ]
    messages[1].parent_id = None
    messages[3].parent_id = None
    rendered = FORMAT.render(Conversation(messages=messages))
    assert [w for w in rendered.warnings if w.category == "message-reordered"] == []
    entry = rendered.payload[0]
    assert entry["mapping"]["t1"]["parent"] == "a1-1"
    assert [m["author"]["role"] for m in thread(entry)][:2] == ["system", "user"]
    [item] = FORMAT.parse([entry])
    assert [m.content for m in main_path(item.conversation)][:2] == [
        m.content for m in messages[:2]
    ]


def test_a_result_whose_parent_is_on_another_branch_is_moved_after_its_call() -> None:
    messages = weather_loop()
    messages[2:2] = [Message(role="user", id="u2", parent_id="u1", content=[TextBlock(text="?")])]
    messages[3].parent_id = "u2"
    rendered = FORMAT.render(Conversation(messages=messages))
    moved = [w for w in rendered.warnings if w.category == "message-reordered"]
    assert summary(moved) == [("message-reordered", "messages[3].parent_id", "u2", "a1-1")]
    assert moved[0].severity == "warning"
    assert_results_follow_their_calls(rendered.payload[0])


@pytest.mark.parametrize("tree", [False, True], ids=["thread", "tree"])
def test_a_result_whose_call_is_not_before_it_is_user_text_with_a_warning(tree: bool) -> None:
    result = ToolResultBlock(tool_use_id="c9", name="weather", content="14C")
    messages = [
        Message(role="user", id="u1", content=[TextBlock(text="Paris?")]),
        Message(role="tool", parent_id="u1" if tree else None, content=[result]),
    ]
    rendered = FORMAT.render(Conversation(messages=messages))
    [entry] = rendered.payload
    check_chatgpt_conversation(entry)
    [answer] = [n["message"] for n in entry["mapping"].values() if n["parent"] == "u1"]
    assert (answer["author"]["role"], answer["content"]["parts"]) == ("user", ["14C"])
    assert summary(rendered.warnings) == [
        ("content-type-unsupported", "messages[1].content[0]", "tool_result", "text")
    ]
