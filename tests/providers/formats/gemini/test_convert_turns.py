"""The ``gemini`` renderer, one conversion rule at a time: reasoning, refusals and citations,
merging and bridging turns, branches, per-message facts, and parameters.
"""

from __future__ import annotations

import pytest

from providers.formats._content_blocks.drafts import BRIDGE_USER_TEXT
from providers.formats.gemini import SIGNATURE_PLACEHOLDER, _render_turns, render
from providers.umf import (
    Conversation,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
)
from tests.providers.formats.gemini.test_convert_whole_fixtures import (
    OC,
    assert_converts,
    assistant,
    call,
    parts_of,
    text,
    tool,
    user,
)

# --------------------------------------------------------------------------- reasoning


def test_reasoning_travels_only_back_to_gemini() -> None:
    own = ThinkingBlock(text="mine", signature="c2ln", provider="gemini")
    foreign = ThinkingBlock(text="theirs", signature="sig-a", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    unknown = ThinkingBlock(text="whose?")
    payload, warnings = assert_converts(
        user(text("q")),
        assistant(own, foreign, redacted, unknown, text("answer"), reasoning="loose text"),
    )
    assert parts_of(payload, 1) == [
        {"text": "mine", "thought": True, "thoughtSignature": "c2ln"},
        {"text": "answer"},
    ]
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning", "loose text", None),
        ("reasoning-dropped", "warning", "messages[1].content[1]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[2]", None, None),
        ("reasoning-dropped", "warning", "messages[1].content[3]", "whose?", None),
    ]
    assert "sig-a" not in str(payload) and "blob" not in str(payload)


# --------------------------------------------------------------------------- turns


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = assert_converts(
        user(text("q")), assistant(RefusalBlock(text="I can't."), cited)
    )
    assert parts_of(payload, 1) == [{"text": "I can't."}, {"text": "Paris"}]
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
    ]


def test_consecutive_messages_merge_and_empty_ones_are_left_out() -> None:
    payload, warnings = assert_converts(
        user(text("one"), text("")),
        user(text("two"), name="alice"),
        assistant(),
        assistant(text("ok")),
    )
    assert payload["contents"] == [
        {"role": "user", "parts": [{"text": "one"}, {"text": "two"}]},
        {"role": "model", "parts": [{"text": "ok"}]},
    ]
    assert warnings == [
        ("content-dropped", "warning", "messages[1].name", "alice", None),
        ("content-dropped", "info", "messages[0].content[1]", "", None),
        ("content-dropped", "info", "messages[2]", "assistant", None),
        ("role-merged", "warning", "messages[1]", "user", "user"),
    ]


@pytest.mark.parametrize("batch", [1, 2, 3, 7])
def test_turns_taken_in_batches_convert_as_all_at_once(
    batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every rule at every place a batch can end: merges, pairs and the bridge across it.
    messages = [assistant(text("Hello"))]
    for step in range(4):
        messages += [
            user(text(f"q{step}")),
            user(text("")),  # left out
            user(text("more"), text("")),
            assistant(text("looking"), call(f"a{step}", "get_weather"), call(f"b{step}", "tz")),
            tool(f"b{step}", "14:05"),  # before the result of the first call
            tool(f"a{step}", '{"degrees": 21}'),
            tool("nobody", "orphan"),
            assistant(call(f"c{step}", "tz")),
            assistant(text("and")),
        ]
    conversation = Conversation(messages=[*messages, assistant(call("last"))])
    at_once = render(conversation)
    monkeypatch.setattr(_render_turns, "BATCH", batch)
    batched = render(conversation)
    assert batched.payload == at_once.payload
    assert batched.warnings == at_once.warnings


def test_conversation_starting_with_the_model_gets_a_bridge_turn() -> None:
    payload, warnings = assert_converts(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["contents"][0] == {"role": "user", "parts": [{"text": BRIDGE_USER_TEXT}]}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0]",
            None,
            {"role": "user", "parts": [{"text": BRIDGE_USER_TEXT}]},
        )
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    payload, warnings = assert_converts(
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    )
    assert [parts[0]["text"] for parts in (c["parts"] for c in payload["contents"])] == [
        "q",
        "second try",
    ]
    assert warnings[0] == ("content-dropped", "warning", "messages", 3, 2)


def test_per_message_facts_are_noted_once() -> None:
    answer = assistant(
        text("hi"),
        id="chatcmpl-1",
        model="gpt-4o",
        finish_reason="stop",
        extra={OC: {"$response": True}},
    )
    _, warnings = assert_converts(user(text("q")), answer)
    assert warnings == [
        ("content-dropped", "info", "messages", ["finish_reason", "id", "model"], None)
    ]


# --------------------------------------------------------------------------- parameters


def test_parameters() -> None:
    parameters = Parameters(
        model="gpt-4o",
        temperature=2.5,
        top_p=0.9,
        top_k=5,
        max_tokens=300,
        stop=["a", "b", "c", "d", "e", "f"],
        seed=3,
        frequency_penalty=0.5,
        presence_penalty=-0.2,
        user="u1",
        stream=True,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = assert_converts(user(text("hi")), parameters=parameters)
    assert payload["generationConfig"] == {
        "temperature": 2.0,
        "topP": 0.9,
        "topK": 5,
        "maxOutputTokens": 300,
        "stopSequences": ["a", "b", "c", "d", "e"],
        "seed": 3,
        "presencePenalty": -0.2,
        "frequencyPenalty": 0.5,
    }
    assert warnings == [
        ("parameter-clamped", "warning", "parameters.temperature", 2.5, 2.0),
        (
            "stop-sequences-truncated",
            "warning",
            "parameters.stop",
            ["a", "b", "c", "d", "e", "f"],
            ["a", "b", "c", "d", "e"],
        ),
        ("parameter-unsupported", "warning", "parameters.user", "u1", None),
        ("parameter-unsupported", "info", "parameters.stream", True, None),
        ("parameter-unsupported", "info", "parameters.model", "gpt-4o", None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_user_text_right_after_a_tool_result_joins_its_turn() -> None:
    payload, warnings = assert_converts(
        user(text("go")), assistant(call("c1", "f")), tool("c1", "{}"), user(text("and then?"))
    )
    assert parts_of(payload, 2) == [
        {"functionResponse": {"name": "f", "response": {}}},
        {"text": "and then?"},
    ]
    assert warnings[-2:] == [
        ("role-merged", "warning", "messages[3]", "user", "user"),
        ("parameter-defaulted", "info", "messages[1].content[0]", None, SIGNATURE_PLACEHOLDER),
    ]
