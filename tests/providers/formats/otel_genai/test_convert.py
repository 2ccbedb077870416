"""Other formats' conversations written as ``otel-genai`` span attributes: the answer as
the output with its usage and the finish reason the conventions require, reasoning without
signatures, documents as document parts, what has no attribute reported, and only the main
path of a tree. Every other fixture valid attributes, and nothing dropped without a
warning: ``archive/test_convert.py``, for every format whose files hold many
conversations."""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats
from providers.umf import Conversation, Message, TextBlock, ToolUseBlock, Usage
from tests.providers.formats.archive import _helpers as archive_helpers
from tests.providers.formats.otel_genai.test_spans import assert_valid_otel
from tests.providers.sdk.archive import (
    FIXTURES,
    assert_round_trips,
    every_block,
    load,
    stored,
    summary,
)
from tests.providers.sdk.otel_genai import validate_otel_attributes

FORMAT = formats.get("otel-genai")
USER_HI = {"role": "user", "content": "Hi"}


def assert_converts(format_id: str, name: str) -> tuple[Any, list[tuple[Any, ...]]]:
    return archive_helpers.assert_converts(
        FORMAT, format_id, name, assert_valid_otel, file_of_one=False
    )


def test_an_openai_chat_exchange_becomes_input_output_and_usage() -> None:
    payload, warnings = assert_converts("openai-chat", "exchange_usage.json")
    exchange = load(FIXTURES / "openai-chat" / "exchange_usage.json")
    usage = exchange["response"]["usage"]
    assert payload["gen_ai.output.messages"] == [
        {
            "role": "assistant",
            "parts": [
                {
                    "type": "text",
                    "content": exchange["response"]["choices"][0]["message"]["content"],
                }
            ],
            "finish_reason": "stop",
        }
    ]
    assert payload["gen_ai.usage.input_tokens"] == usage["prompt_tokens"]
    assert payload["gen_ai.usage.output_tokens"] == usage["completion_tokens"]
    assert (
        payload["gen_ai.usage.cache_read.input_tokens"]
        == usage["prompt_tokens_details"]["cached_tokens"]
    )
    assert (
        payload["gen_ai.usage.reasoning.output_tokens"]
        == usage["completion_tokens_details"]["reasoning_tokens"]
    )
    assert payload["gen_ai.response.model"] == exchange["response"]["model"]
    assert payload["gen_ai.input.messages"][0]["role"] == "system"
    assert warnings == [
        # The answer's created time: a span has the response's id, model and usage only.
        ("content-dropped", "messages", ["timestamp"], None),
        ("system-message-transformed", "messages[0]", "developer", "system"),
        (
            "field-unknown",
            "messages[2].extra.openai-chat",
            {"refusal": None, "annotations": []},
            None,
        ),
        ("field-unknown", "extra.openai-chat", {"reasoning_effort": "high", "store": True}, None),
    ]


def test_an_anthropic_thinking_loop_keeps_the_text_of_its_reasoning() -> None:
    payload, warnings = assert_converts("anthropic", "thinking_tool_loop.json")
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    assistant = payload["gen_ai.input.messages"][1]
    assert assistant == {
        "role": "assistant",
        "parts": [
            {"type": "reasoning", "content": source["messages"][1]["content"][0]["thinking"]},
            {
                "type": "tool_call",
                "id": "toolu_01NXq3wPqLsGkVbZ6rT8uYc2",
                "name": "run_sql",
                "arguments": source["messages"][1]["content"][2]["input"],
            },
        ],
    }
    assert payload["gen_ai.tool.definitions"][0]["type"] == "function"
    assert warnings == [
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
    ]


def test_an_anthropic_answer_gets_the_conventions_finish_reason_and_its_response_id() -> None:
    # Anthropic's end_turn is no GenAI finish reason: it goes out as the stop it means, and
    # the answer's own id (the response's, msg_...) as gen_ai.response.id.
    payload, warnings = assert_converts("anthropic", "exchange_cache_usage.json")
    response = load(FIXTURES / "anthropic" / "exchange_cache_usage.json")["response"]
    [answer] = payload["gen_ai.output.messages"]
    assert answer["finish_reason"] == "stop"
    assert payload["gen_ai.response.finish_reasons"] == ["stop"]
    assert payload["gen_ai.response.id"] == response["id"]
    at = f"messages[{len(payload['gen_ai.input.messages'])}].finish_reason"
    assert ("parameter-normalized", at, "end_turn", "stop") in warnings


def test_documents_become_document_parts_and_citations_are_reported() -> None:
    payload, warnings = assert_converts("anthropic", "multimodal_documents.json")
    parts = payload["gen_ai.input.messages"][0]["parts"]
    assert [(p["type"], p.get("modality")) for p in parts[:5]] == [
        ("blob", "image"),
        ("uri", "image"),
        ("file", "image"),
        ("blob", "document"),
        ("uri", "document"),
    ]
    assert [w[:2] for w in warnings] == [
        ("content-type-unsupported", "messages[0].content[3]"),
        ("content-type-unsupported", "messages[0].content[4]"),
        ("content-type-unsupported", "messages[0].content[5]"),
        ("content-type-unsupported", "messages[0].content[6]"),
        ("content-dropped", "messages[1].content[1].citations"),
        ("content-dropped", "messages[1].content[3].citations"),
        ("content-type-unsupported", "messages[2].content[0]"),
    ]


def test_error_flags_refusals_and_parameters_without_an_attribute() -> None:
    conversation = every_block()
    conversation.parameters.user = "user-7"
    conversation.messages.insert(1, Message(role="developer", content=[TextBlock(text="Terse.")]))
    rendered = FORMAT.render(conversation)
    validate_otel_attributes(rendered.payload)
    response = rendered.payload["gen_ai.input.messages"][5]["parts"][0]
    assert response == {
        "type": "tool_call_response",
        "id": "toolu_error",
        "response": "ERROR-RESULT-TEXT",
        "is_error": True,
    }
    found = summary(rendered.warnings)
    assert ("capability-unsupported", "messages[5].content[0].is_error", True, None) in found
    assert ("content-type-unsupported", "messages[6].content[0]", "refusal", "text") in found
    assert ("system-message-transformed", "messages[1]", "developer", "system") in found
    assert ("parameter-unsupported", "parameters.user", "user-7", None) in found


# An answer whose response recorded usage but no finish reason (a stream cut short, an
# exchange logged before the stop reason came).
_UNFINISHED_ANSWERS = {
    "anthropic": {
        "request": {"model": "claude-x", "max_tokens": 64, "messages": [USER_HI]},
        "response": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [{"type": "text", "text": "Hello"}],
            "stop_reason": None,
            "usage": {"input_tokens": 3, "output_tokens": 2},
        },
    },
    "openai-chat": {
        "request": {"model": "gpt-x", "messages": [USER_HI]},
        "response": {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-x",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "Hello"},
                    "finish_reason": None,
                }
            ],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
        },
    },
}


@pytest.mark.parametrize("format_id", _UNFINISHED_ANSWERS)
def test_an_answer_with_usage_but_no_finish_reason_is_output_with_one_synthesized(
    format_id: str,
) -> None:
    [item] = formats.get(format_id).parse(_UNFINISHED_ANSWERS[format_id])
    rendered = FORMAT.render(stored(item.conversation))
    validate_otel_attributes(rendered.payload)
    payload = rendered.payload
    assert payload["gen_ai.output.messages"] == [
        {
            "role": "assistant",
            "parts": [{"type": "text", "content": "Hello"}],
            "finish_reason": "stop",
        }
    ]
    assert (payload["gen_ai.usage.input_tokens"], payload["gen_ai.usage.output_tokens"]) == (3, 2)
    assert payload["gen_ai.response.finish_reasons"] == ["stop"]
    synthesized = [w for w in summary(rendered.warnings) if w[0] == "parameter-defaulted"]
    assert synthesized == [("parameter-defaulted", "messages[1].finish_reason", None, "stop")]


def test_an_answer_that_calls_a_tool_without_a_finish_reason_gets_tool_call() -> None:
    call = ToolUseBlock(id="call_1", name="lookup", input={"q": "x"})
    conversation = Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="Hi")]),
            Message(role="assistant", content=[call], usage=Usage(completion_tokens=4)),
        ]
    )
    rendered = FORMAT.render(conversation)
    validate_otel_attributes(rendered.payload)
    [output] = rendered.payload["gen_ai.output.messages"]
    assert output["finish_reason"] == "tool_call"
    assert summary(rendered.warnings) == [
        ("parameter-defaulted", "messages[1].finish_reason", None, "tool_call")
    ]


def test_an_output_message_read_without_a_finish_reason_is_written_back_without_one() -> None:
    # Not valid under the conventions, but a span is written back as it was read.
    span = {
        "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}],
        "gen_ai.output.messages": [
            {"role": "assistant", "parts": [{"type": "text", "content": "Hello"}]}
        ],
        "gen_ai.usage.output_tokens": 2,
    }
    [item] = assert_round_trips(FORMAT, span)
    assert FORMAT.render(item.conversation).warnings == []


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
