"""The ``gemini`` format reading responses: usage counts, finish reasons, blocked prompts and
the response fields kept on the answer.
"""

from __future__ import annotations

import pytest

from providers.formats.gemini import render
from tests.providers.formats.gemini._helpers import (
    load,
    read_without_warnings_but_ids,
    stored,
)

# --------------------------------------------------------------------------- usage and finish


def test_usage_counts_thoughts_as_completion_tokens() -> None:
    usage = read_without_warnings_but_ids(load("thinking_exchange")).messages[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (32, 380, 412)
    assert (usage.reasoning_tokens, usage.cached_tokens) == (319, None)
    assert usage.raw == load("thinking_exchange")["response"]["usageMetadata"]


def test_usage_counts_cached_content_and_tool_use_prompt_as_prompt_tokens() -> None:
    usage = (
        read_without_warnings_but_ids(load("code_execution_grounding_exchange")).messages[-1].usage
    )
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (4463, 187, 4650)
    assert usage.cached_tokens == 4096


def test_function_call_turn_ending_with_stop_reads_as_tool_calls() -> None:
    message = read_without_warnings_but_ids(load("bare_response_function_call")).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == ("tool_calls", "STOP")
    assert [block.type for block in message.content] == ["tool_use", "tool_use"]


@pytest.mark.parametrize(
    ("reason", "finish_reason"),
    [
        ("STOP", "stop"),
        ("MAX_TOKENS", "length"),
        ("SAFETY", "content_filter"),
        ("RECITATION", "content_filter"),
        ("BLOCKLIST", "content_filter"),
        ("PROHIBITED_CONTENT", "content_filter"),
        ("SPII", "content_filter"),
        ("IMAGE_SAFETY", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", "error"),
        ("UNEXPECTED_TOOL_CALL", "error"),
        ("OTHER", None),
        ("LANGUAGE", None),
        ("TOO_MANY_TOOL_CALLS", None),
        ("A_FUTURE_REASON", None),
    ],
)
def test_finish_reason_is_normalised_and_kept_raw(reason: str, finish_reason: str | None) -> None:
    payload = load("max_tokens_response")
    payload["candidates"][0]["finishReason"] = reason
    message = read_without_warnings_but_ids(payload).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (finish_reason, reason)
    assert render(stored(read_without_warnings_but_ids(payload))).payload == payload


def test_blocked_prompt_has_an_empty_answer_filtered_by_content() -> None:
    payload = load("blocked_prompt_exchange")
    answer = read_without_warnings_but_ids(payload).messages[-1]
    assert answer.role == "assistant" and answer.content == []
    assert (answer.finish_reason, answer.provider_finish_reason) == ("content_filter", "SAFETY")
    assert answer.extra["gemini"]["$candidates"] == "absent"
    empty = {**payload["response"], "candidates": []}
    assert render(read_without_warnings_but_ids(empty)).payload == empty


def test_response_fields_are_kept_on_the_answer() -> None:
    answer = read_without_warnings_but_ids(load("max_tokens_response")).messages[0]
    hints = answer.extra["gemini"]
    assert hints["$response"] == {"createTime": "2025-06-15T10:02:11.482736Z"}
    assert set(hints["$candidate"]) == {"index", "safetyRatings", "citationMetadata", "avgLogprobs"}
    assert answer.finish_reason == "length"
