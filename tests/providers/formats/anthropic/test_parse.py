"""The ``anthropic`` format: what parse reads from every accepted shape (usage, stop reasons,
system prompts, tools, unknown blocks and fields).

Conversions from other formats are in ``test_convert_*.py`` beside this module."""

from __future__ import annotations

import copy

import pytest

from providers.formats import convert
from providers.formats.anthropic import render
from providers.umf import TextBlock, ToolResultBlock, ToolUseBlock
from tests.providers.formats.anthropic._helpers import (
    USER,
    _request,
    load,
    read_without_warnings,
    stored,
)

# --------------------------------------------------------------------------- what parse reads


def test_exchange_response_becomes_last_assistant_message() -> None:
    conversation = read_without_warnings(load("exchange_cache_usage"))
    last = conversation.messages[-1]
    assert last.role == "assistant"
    assert (last.id, last.model) == ("msg_01XFDUDYJgAACzvnptvVoYEL", "claude-sonnet-4-5-20250929")
    assert (last.finish_reason, last.provider_finish_reason) == ("stop", "end_turn")
    extra = last.extra["anthropic"]
    assert extra["type"] == "message"
    assert extra["stop_sequence"] is None and extra["stop_details"] is None
    first = last.content[0]
    assert isinstance(first, TextBlock)
    assert last.content == [TextBlock(text=first.text, extra=first.extra)]
    assert last.content[0].extra == {"anthropic": {"citations": None}}


def test_usage_counts_cache_reads_and_writes_as_prompt_tokens() -> None:
    usage = read_without_warnings(load("exchange_cache_usage")).messages[-1].usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (1845, 19, 1864)
    assert (usage.cached_tokens, usage.cache_write_tokens) == (1824, 0)
    assert usage.raw == load("exchange_cache_usage")["response"]["usage"]


def test_usage_reads_thinking_tokens_as_reasoning_tokens() -> None:
    message = read_without_warnings(load("bare_response")).messages[0]
    assert message.usage is not None
    assert message.usage.prompt_tokens == 512 + 2048
    assert message.usage.cache_write_tokens == 2048
    assert message.usage.reasoning_tokens == 61
    assert message.finish_reason == "tool_calls"


@pytest.mark.parametrize(
    ("stop_reason", "finish_reason"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("tool_use", "tool_calls"),
        ("max_tokens", "length"),
        ("model_context_window_exceeded", "length"),
        ("refusal", "content_filter"),
        ("pause_turn", None),
        ("a_future_reason", None),
        ("", None),
    ],
)
def test_stop_reason_is_normalised_and_kept_raw(
    stop_reason: str, finish_reason: str | None
) -> None:
    payload = {**load("bare_response"), "stop_reason": stop_reason}
    message = read_without_warnings(payload).messages[0]
    assert (message.finish_reason, message.provider_finish_reason) == (finish_reason, stop_reason)
    assert render(message_conversation := read_without_warnings(payload)).payload == payload
    assert message_conversation.messages[0].extra["anthropic"]["$response"] is True


def test_top_level_system_becomes_leading_system_message() -> None:
    conversation = read_without_warnings(load("system_blocks_cache"))
    system = conversation.messages[0]
    assert system.role == "system"
    assert [block.extra["anthropic"]["cache_control"]["type"] for block in system.content] == [
        "ephemeral",
        "ephemeral",
    ]
    assert conversation.parameters.user == "cust_8842"
    assert conversation.parameters.stop == ["\n\nHuman:", "</answer>"]
    assert conversation.extra["anthropic"]["inference_geo"] == "eu"


def test_mid_conversation_system_message_stays_in_place() -> None:
    payload = load("search_results_system_message")
    conversation = read_without_warnings(payload)
    roles = [message.role for message in conversation.messages]
    assert roles == ["system", "user", "assistant", "user", "system", "assistant", "user"]
    assert conversation.messages[4].extra["anthropic"]["$system"] == "message"
    assert render(conversation).payload["messages"][3] == payload["messages"][3]


def test_tool_results_stay_in_user_messages_and_learn_the_tool_name() -> None:
    conversation = read_without_warnings(load("tool_loop_parallel"))
    results = conversation.messages[3]
    assert results.role == "user"
    blocks = [b for b in results.content if isinstance(b, ToolResultBlock)]
    assert [(b.name, b.is_error) for b in blocks] == [
        ("get_weather", None),
        ("get_weather", True),
        ("get_local_time", False),
    ]
    assert isinstance(blocks[1].content, list)
    calls = [b for b in conversation.messages[2].content if isinstance(b, ToolUseBlock)]
    assert [call.input["city"] for call in calls] == ["Paris", "Tokyo", "Paris"]


def test_tools_and_tool_choice() -> None:
    conversation = read_without_warnings(load("tool_loop_parallel"))
    assert [tool.name for tool in conversation.tools] == ["get_weather", "get_local_time"]
    assert conversation.tools[0].parameters is not None
    assert conversation.tools[1].extra == {
        "anthropic": {"strict": True, "cache_control": {"type": "ephemeral"}}
    }
    assert conversation.tool_choice is not None
    assert conversation.tool_choice.type == "auto"
    assert conversation.tool_choice.extra == {"anthropic": {"disable_parallel_tool_use": False}}
    any_choice = {**load("tool_loop_parallel"), "tool_choice": {"type": "any"}}
    assert read_without_warnings(any_choice).tool_choice.type == "required"  # type: ignore[union-attr]
    server = read_without_warnings(load("server_tools_pause_turn")).tools[0]
    assert server.parameters is None
    assert server.extra["anthropic"]["type"] == "web_search_20250305"


def test_unknown_block_types_are_kept_in_place_and_never_become_umf_blocks() -> None:
    payload = load("server_tools_pause_turn")
    message = read_without_warnings(payload).messages[-1]
    assert [block.type for block in message.content] == ["text", "text"]
    unmapped = message.extra["anthropic"]["unmapped_blocks"]
    assert [(entry["at"], entry["block"]["type"]) for entry in unmapped] == [
        (1, "server_tool_use"),
        (2, "web_search_tool_result"),
        (4, "server_tool_use"),
    ]
    assert message.finish_reason is None
    assert message.provider_finish_reason == "pause_turn"


def test_search_results_inside_tool_results_are_kept_in_place() -> None:
    payload = load("search_results_system_message")
    result = read_without_warnings(payload).messages[3].content[0]
    assert isinstance(result, ToolResultBlock)
    assert [block.type for block in result.content] == ["text"]  # type: ignore[union-attr]
    assert result.extra["anthropic"]["unmapped_blocks"][0]["at"] == 1


def test_unmapped_blocks_are_reported_by_other_formats() -> None:
    converted = convert("anthropic", "openai-chat", load("server_tools_pause_turn"))
    notes = [w for w in converted.warnings if w.field == "messages[1].extra.anthropic"]
    assert notes and "unmapped_blocks" in notes[0].original_value


def test_document_sources() -> None:
    documents = [
        b
        for b in read_without_warnings(load("multimodal_documents")).messages[0].content
        if b.type == "document"
    ]
    assert [d.source.type for d in documents] == ["base64", "url", "text", "text"]
    assert documents[0].title == "Field guide, chapter 3"
    assert documents[0].extra["anthropic"]["context"] == "Scanned from the 2019 edition."
    assert documents[3].source.data == (
        "Observation 1: colony found under bark.\n\nObservation 2: nocturnal foraging."
    )
    assert documents[3].extra["anthropic"]["$content_source"][0]["type"] == "text"


UNKNOWN_EVERYWHERE = {
    "request": {
        "model": "claude-x",
        "max_tokens": 10,
        "temperature": None,
        "future_flag": {"a": 1},
        "metadata": {"user_id": None, "tenant": "t1"},
        "tools": [],
        "tool_choice": {"type": "none", "future": 1},
        "messages": [
            {
                "role": "user",
                "future_message_field": 1,
                "content": [
                    {"type": "text", "text": "", "future_block_field": [1]},
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "https://x/y.png", "future": 2},
                    },
                    {"type": "document", "source": {"type": "text", "data": "d"}, "title": None},
                    {"type": "future_block", "payload": {"x": 1}},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "t", "input": {}, "caller": None},
                    {"type": "thinking", "thinking": "t", "signature": None},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1"},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": None},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": ""},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": []},
                ],
            },
        ],
    },
    "response": {"role": "assistant", "content": [], "stop_reason": None, "usage": {}},
    "trace": [1, 2],
}


def test_unknown_fields_and_nulls_survive_at_every_level() -> None:
    payload = copy.deepcopy(UNKNOWN_EVERYWHERE)
    conversation = read_without_warnings(payload)
    assert render(conversation).payload == UNKNOWN_EVERYWHERE
    assert render(stored(conversation)).payload == UNKNOWN_EVERYWHERE


def test_json_schema_dollar_keys_are_data_not_hints() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"city": {"type": "string"}},
        "properties": {"city": {"$ref": "#/$defs/city"}},
    }
    payload = _request(USER, tools=[{"name": "t", "input_schema": schema}])
    conversation = read_without_warnings(copy.deepcopy(payload))
    assert conversation.tools[0].parameters == schema
    assert render(stored(conversation)).payload == payload
