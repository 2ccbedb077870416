"""Conversion matrix cells (column OL) for reasoning, refusals, citations, names,
argument strings, parameters, branches and response fields."""

from __future__ import annotations

from providers.formats.ollama import DEFAULT_MODEL
from providers.umf import (
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
)
from tests.providers.formats.ollama._convert_helpers import (
    assert_converts,
    assistant,
    messages,
    text,
    user,
)


def test_reasoning_travels_as_thinking_without_signatures() -> None:
    unsigned = ThinkingBlock(text="plain", provider="openai-responses")
    signed = ThinkingBlock(text="signed", signature="sig", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    payload, warnings = assert_converts(
        messages(
            user(text("q"), ThinkingBlock(text="user thought")),
            assistant(unsigned, signed, redacted, text("a")),
        )
    )
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a", "thinking": "plain\nsigned"},
    ]
    assert "blob" not in str(payload)
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[0].content[1]", "user thought", None),
        (
            "signature-stripped",
            "warning",
            "messages[1].content[1]",
            {"provider": "anthropic", "signed": True},
            "thinking",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[2]", None, None),
        ("content-type-unsupported", "info", "messages[1].content", 2, "string"),
    ]


def test_reasoning_fields_beside_blocks() -> None:
    answer = assistant(
        text("42"),
        reasoning="Six times seven.",
        reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
    )
    payload, warnings = assert_converts(messages(user(text("q")), answer))
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": "42",
        "thinking": "Six times seven.",
    }
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning_details", None, None)
    ]


def test_refusal_citations_and_names() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = assert_converts(
        messages(user(text("q"), name="alice"), assistant(RefusalBlock(text="I can't."), cited))
    )
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "I can't.\nParis"},
    ]
    assert warnings == [
        ("content-dropped", "warning", "messages[0].name", "alice", None),
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
        ("content-type-unsupported", "info", "messages[1].content", 2, "string"),
    ]


def test_argument_strings_become_objects() -> None:
    calls = [
        ToolUseBlock(id="a", name="f", input={}, raw_arguments='{"x": 1}'),
        ToolUseBlock(id="b", name="f", input={}, raw_arguments="{not json"),
        ToolUseBlock(id="c", name="f", input=[1, 2]),
    ]
    payload, warnings = assert_converts(messages(user(text("go")), assistant(*calls)))
    assert [c["function"]["arguments"] for c in payload["messages"][1]["tool_calls"]] == [
        {"x": 1},
        {},
        {},
    ]
    assert [w for w in warnings if w[0] == "content-dropped"] == [
        ("content-dropped", "warning", "messages[1].content[1].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]


def test_parameters_move_into_options() -> None:
    parameters = Parameters(
        temperature=0.3,
        top_p=0.9,
        top_k=40,
        max_tokens=256,
        stop=["###"],
        seed=1,
        frequency_penalty=0.1,
        presence_penalty=0.2,
        stream=False,
        user="u-1",
        parallel_tool_calls=False,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = assert_converts(messages(user(text("hi")), parameters=parameters))
    assert payload == {
        "model": DEFAULT_MODEL,
        "messages": [{"role": "user", "content": "hi"}],
        "stream": False,
        "options": {
            "temperature": 0.3,
            "top_p": 0.9,
            "top_k": 40,
            "num_predict": 256,
            "stop": ["###"],
            "seed": 1,
            "frequency_penalty": 0.1,
            "presence_penalty": 0.2,
        },
    }
    assert warnings == [
        ("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "warning", "parameters.user", "u-1", None),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    payload, warnings = assert_converts(
        messages(
            user(text("q"), id="1"),
            assistant(text("first try"), id="2", parent_id="1"),
            assistant(text("second try"), id="3", parent_id="1"),
        )
    )
    assert [m["content"] for m in payload["messages"]] == ["q", "second try"]
    assert warnings == [
        ("content-dropped", "warning", "messages[1]", "first try", None),
        ("content-dropped", "info", "messages", ["id"], None),
    ]


def test_response_fields_stay_out_of_a_converted_request() -> None:
    answer = assistant(text("hi"), id="msg_1", model="claude", finish_reason="stop")
    payload, warnings = assert_converts(messages(user(text("q")), answer))
    assert payload["messages"][1] == {"role": "assistant", "content": "hi"}
    assert warnings == [
        ("content-dropped", "info", "messages", ["finish_reason", "id", "model"], None)
    ]
