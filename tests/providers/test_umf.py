"""The UMF types: validation, helpers from the seeds, and the tree walk."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from providers import umf
from providers.formats.base import Drift


def test_helpers_build_messages_like_the_seed_describes() -> None:
    call = umf.ToolUseBlock(id="call_123", name="search", input={"query": "rust"})
    message = umf.assistant("Searching...", [call])
    result = umf.tool_result("call_123", "search", "Found results...")

    assert umf.system("Be brief.").role == "system"
    assert umf.user("What is Rust?").content == [umf.TextBlock(text="What is Rust?")]
    assert umf.extract_text(message) == "Searching..."
    assert umf.extract_tool_calls(message) == [call]
    assert umf.has_tool_calls(message) and not umf.has_tool_calls(result)
    assert result.role == "tool" and result.tool_call_id == "call_123"
    assert result.content[0] == umf.ToolResultBlock(
        tool_use_id="call_123", name="search", content="Found results..."
    )


def test_extract_reasoning_prefers_thinking_blocks_then_reasoning_field() -> None:
    thinking = umf.Message(
        role="assistant",
        content=[umf.ThinkingBlock(text="step one"), umf.ThinkingBlock(text="step two")],
        reasoning="ignored",
    )
    assert umf.extract_reasoning(thinking) == "step one\nstep two"
    assert umf.extract_reasoning(umf.Message(role="assistant", reasoning="why")) == "why"
    assert umf.extract_reasoning(umf.assistant("plain")) is None


def test_blocks_are_a_discriminated_union_with_type_always_dumped() -> None:
    message = umf.Message.model_validate(
        {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "u"}}]}
    )
    assert isinstance(message.content[0], umf.ImageBlock)
    dumped = message.model_dump(mode="json", exclude_defaults=True)
    assert dumped["content"][0] == {"type": "image", "source": {"type": "url", "url": "u"}}


@pytest.mark.parametrize(
    "bad",
    [
        {"role": "robot", "content": []},
        {"role": "user", "content": [{"type": "video"}]},
        {"role": "user", "content": [{"type": "text"}]},
        {"role": "user", "content": [], "unknown_key": 1},
    ],
)
def test_invalid_messages_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        umf.Message.model_validate(bad)


def test_main_path_follows_parents_to_the_chosen_leaf() -> None:
    conversation = umf.Conversation(
        messages=[
            umf.Message(role="user", id="a", content=[umf.TextBlock(text="q")]),
            umf.Message(role="assistant", id="b", parent_id="a"),
            umf.Message(role="assistant", id="c", parent_id="a"),
            umf.Message(role="user", id="d", parent_id="b"),
        ]
    )
    assert [m.id for m in umf.main_path(conversation)] == ["a", "b", "d"]
    assert [m.id for m in umf.main_path(conversation, "c")] == ["a", "c"]


def test_in_a_tree_a_message_without_parent_follows_the_one_before_it() -> None:
    # As storage reads it: only the first message is a root, so the system prompt and the
    # question that no parent_id names are still on the thread to the last answer.
    conversation = umf.Conversation(
        messages=[
            umf.system("Be brief."),
            umf.Message(role="user", id="q", content=[umf.TextBlock(text="Hi")]),
            umf.Message(role="assistant", id="a1", parent_id="q"),
            umf.Message(role="assistant", id="a2", parent_id="q"),
            umf.Message(role="user", id="f"),
        ]
    )
    assert [m.id for m in umf.main_path(conversation, "a2")] == [None, "q", "a2"]
    assert [m.id for m in umf.main_path(conversation)] == [None, "q", "a2", "f"]
    assert [m.id for m in umf.main_path(conversation, "a1")] == [None, "q", "a1"]


def test_main_path_of_a_linear_conversation_is_the_list() -> None:
    conversation = umf.Conversation(messages=[umf.user("a"), umf.assistant("b")])
    assert umf.main_path(conversation) == conversation.messages


def test_warning_categories_are_the_contract() -> None:
    assert set(umf.WARNING_CATEGORIES) >= {
        "parameter-normalized",
        "model-substituted",
        "content-dropped",
        "reasoning-dropped",
        "signature-stripped",
        "role-merged",
        "id-rewritten",
        "parameter-defaulted",
    }
    with pytest.raises(ValidationError):
        umf.DriftWarning.model_validate({"category": "made-up", "message": "x"})


def test_keyword_construction_checks_the_field_names_only() -> None:
    # Formats build UMF by keyword while converting; values are validated once, at the
    # edges (model_validate), so a keyword value is kept as given.
    with pytest.raises(TypeError, match="TextBlock has no field txt"):
        umf.TextBlock(txt="hi")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="ToolUseBlock needs id, name"):
        umf.ToolUseBlock()  # type: ignore[call-arg]
    kept: object = umf.TextBlock(text=42).text  # type: ignore[arg-type]
    assert kept == 42


def test_keyword_construction_builds_the_same_value_as_validation() -> None:
    data = {"role": "user", "content": [{"type": "text", "text": "hi"}], "name": "ann"}
    built = umf.Message(role="user", content=[umf.TextBlock(text="hi")], name="ann")
    validated = umf.Message.model_validate(data)
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()  # same keys, same order
    assert built.model_fields_set == validated.model_fields_set == {"role", "content", "name"}
    assert built.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)


def test_a_drift_warning_recorded_is_the_value_built_by_keyword() -> None:
    # Drift.add builds its warnings from their values directly (providers._umf_base
    # from_values): the same value, its JSON in the same order, every field given.
    drift = Drift("gemini")
    drift.add("role-merged", "merged", field="messages[1]", original="tool", details={"a": 1})
    built = umf.DriftWarning(
        category="role-merged",
        severity="warning",
        message="merged",
        field="messages[1]",
        original_value="tool",
        transformed_value=None,
        source="gemini",
        details={"a": 1},
    )
    [recorded] = drift.warnings
    assert recorded == built
    assert recorded.model_dump_json() == built.model_dump_json()
    assert recorded.model_fields_set == built.model_fields_set == set(umf.DriftWarning.model_fields)


def test_mutable_defaults_are_fresh_for_every_value() -> None:
    first, second = umf.Message(role="user"), umf.Message(role="user")
    first.content.append(umf.TextBlock(text="x"))
    first.extra["f"] = {}
    first.metadata["k"] = 1
    assert second.content == [] and second.extra == {} and second.metadata == {}


def test_validation_still_checks_nested_values() -> None:
    # The keyword __init__ must not become the constructor pydantic validates nested
    # data with (that would skip the checks of every block).
    with pytest.raises(ValidationError) as caught:
        umf.Conversation.model_validate(
            {"messages": [{"role": "user", "content": [{"type": "text", "text": 1}]}]}
        )
    assert caught.value.errors()[0]["loc"] == ("messages", 0, "content", 0, "text", "text")
