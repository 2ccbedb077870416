"""What ``openai-responses`` parse reads: reasoning, calls and their outputs, instructions,
usage and finish reasons, citations, hosted items, custom tools and media parts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from providers.umf import (
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats.openai_responses._helpers import (
    FORMAT_ID,
    load,
    ours,
    parse_one,
)

# --------------------------------------------------------------------------- what parse reads


def test_reasoning_items_become_thinking_blocks_of_this_provider() -> None:
    payload = load("tool_loop_parallel.json")
    conversation = parse_one(payload)
    first = conversation.messages[2].content[0]
    raw = payload["input"][1]
    assert isinstance(first, ThinkingBlock)
    assert (first.provider, first.signature, first.redacted) == (FORMAT_ID, None, False)
    assert first.data == raw["encrypted_content"]
    assert first.text == raw["summary"][0]["text"]
    assert first.extra[FORMAT_ID] == {"id": raw["id"], "$summary": raw["summary"]}


def test_reasoning_text_joins_summaries_or_falls_back_to_content() -> None:
    answer = parse_one(load("exchange_reasoning_usage.json")).messages[-1]
    summaries = load("exchange_reasoning_usage.json")["response"]["output"][0]["summary"]
    assert answer.content[0] == ThinkingBlock(
        text="\n\n".join(part["text"] for part in summaries),
        provider=FORMAT_ID,
        extra={
            FORMAT_ID: {
                "id": "rs_6849b20f1a7c81909e8d7c6b5a4f3e2d0c9d8e7f6a5b4c3d",
                "$summary": summaries,
            }
        },
    )
    content_only = parse_one(
        [
            {
                "type": "reasoning",
                "id": "rs_1",
                "summary": [],
                "content": [
                    {"type": "reasoning_text", "text": "a"},
                    {"type": "reasoning_text", "text": "b"},
                ],
            }
        ]
    )
    assert content_only.messages[0].content[0].text == "a\n\nb"  # type: ignore[union-attr]


def test_parallel_calls_and_their_outputs() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    roles = [message.role for message in conversation.messages]
    assert roles == ["system", "user", "assistant", "tool", "tool", "tool", "assistant", "tool"]
    calls = conversation.messages[2].content[1:]
    assert [type(block) for block in calls] == [ToolUseBlock] * 3
    first = calls[0]
    assert isinstance(first, ToolUseBlock)
    assert (first.id, first.name, first.input) == (
        "call_Q8nZ2kL4vT7xR1sW9mB3pD6f",
        "get_weather",
        {"city": "Paris", "unit": "celsius"},
    )
    assert first.raw_arguments == '{"city":"Paris","unit":"celsius"}'
    assert first.extra[FORMAT_ID] == {
        "id": "fc_6849a1f3a7c08191b1d2e3f4a5b6c7d80a8e2b1c4d5f6a70",
        "status": "completed",
    }
    result = conversation.messages[3]
    assert result.tool_call_id == "call_Q8nZ2kL4vT7xR1sW9mB3pD6f"
    assert result.content == [
        ToolResultBlock(
            tool_use_id="call_Q8nZ2kL4vT7xR1sW9mB3pD6f",
            name="get_weather",
            content='{"city":"Paris","temp_c":21,"conditions":"partly cloudy"}',
        )
    ]


def test_invalid_json_arguments_keep_the_raw_string() -> None:
    call = parse_one(load("tool_loop_parallel.json")).messages[6].content[1]
    assert isinstance(call, ToolUseBlock)
    assert call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.endswith('"2025-06-13",')


def test_instructions_become_a_marked_leading_system_message() -> None:
    system = parse_one(load("tool_loop_parallel.json")).messages[0]
    assert system.role == "system"
    assert system.content == [
        TextBlock(
            text="You are a travel assistant. Use the tools for live data and answer in two "
            "sentences at most."
        )
    ]
    assert system.extra == {FORMAT_ID: {"$instructions": True}}


def test_string_input_is_one_user_message() -> None:
    conversation = parse_one(load("string_input_structured.json"))
    assert [m.role for m in conversation.messages] == ["system", "user"]
    assert conversation.messages[1].content == [
        TextBlock(text="Alice and Bob are going to a science fair on Friday.")
    ]
    assert conversation.parameters.temperature == 1 and conversation.parameters.top_p == 0.9
    assert conversation.parameters.user == "user_2f9c41"
    assert conversation.extra[FORMAT_ID]["$int_parameters"] == ["temperature"]
    assert conversation.extra[FORMAT_ID]["text"]["format"]["name"] == "calendar_event"


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = load("exchange_reasoning_usage.json")
    conversation = parse_one(payload)
    answer = conversation.messages[-1]
    assert answer.role == "assistant"
    assert [block.type for block in answer.content] == ["thinking", "text"]
    assert (answer.id, answer.model) == (
        "resp_6849b20e5f0c8190a3d3c1b2e4f5a6b70c9d8e7f6a5b4c3d",
        "o4-mini-2025-04-16",
    )
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "completed")
    assert answer.usage == Usage(
        prompt_tokens=2112,
        completion_tokens=1405,
        total_tokens=3517,
        cached_tokens=1920,
        cache_write_tokens=0,
        reasoning_tokens=1152,
        raw=payload["response"]["usage"],
    )
    assert answer.timestamp == datetime(2025, 6, 11, 16, 42, 54, tzinfo=UTC)
    assert conversation.metadata.provider_response_id == answer.id
    kept = ours(conversation, -1)["$response"]
    assert kept["object"] == "response" and kept["status"] == "completed"
    assert "output" not in kept and "usage" not in kept
    assert conversation.parameters.max_tokens == 4000
    assert conversation.extra[FORMAT_ID]["metadata"] == {
        "team": "data-platform",
        "ticket": "DP-1187",
    }


def test_output_message_fields_ride_on_its_first_block() -> None:
    answer = parse_one(load("bare_response_incomplete.json")).messages[0]
    text = answer.content[1]
    assert isinstance(text, TextBlock)
    assert text.extra[FORMAT_ID]["$message"] == {
        "fields": {
            "id": "msg_684d0a3e5f6081909c8b7a6f5e4d3c2b0a1b2c3d4e5f6071",
            "type": "message",
            "status": "incomplete",
            "phase": "final_answer",
        },
        "blocks": 1,
    }
    assert text.extra[FORMAT_ID]["logprobs"] == []


@pytest.mark.parametrize(
    ("status", "details", "calls", "expected"),
    [
        ("completed", None, False, ("stop", "completed")),
        ("completed", None, True, ("tool_calls", "completed")),
        ("incomplete", {"reason": "max_output_tokens"}, False, ("length", "max_output_tokens")),
        ("incomplete", {"reason": "content_filter"}, False, ("content_filter", "content_filter")),
        ("incomplete", {"reason": "max_messages"}, False, (None, "max_messages")),
        ("incomplete", None, False, (None, "incomplete")),
        ("failed", None, False, ("error", "failed")),
        ("cancelled", None, False, ("cancelled", "cancelled")),
        ("in_progress", None, False, (None, "in_progress")),
    ],
)
def test_finish_reason_is_derived_from_status(
    status: str, details: Any, calls: bool, expected: tuple[Any, Any]
) -> None:
    output: list[Any] = [{"type": "message", "role": "assistant", "content": "x"}]
    if calls:
        output.append({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"})
    response = {"object": "response", "status": status, "incomplete_details": details}
    answer = parse_one({**response, "output": output}).messages[0]
    assert (answer.finish_reason, answer.provider_finish_reason) == expected


def test_citations_come_from_annotations() -> None:
    answer = parse_one(load("bare_response_web_search.json")).messages[0]
    [text] = answer.content
    assert isinstance(text, TextBlock)
    assert text.citations is not None and text.citations[0]["type"] == "url_citation"
    assert "annotations" not in text.extra[FORMAT_ID]


def test_hosted_items_and_references_stay_verbatim_in_place() -> None:
    payload = load("long_conversation.json")
    conversation = parse_one(payload)
    developer = conversation.messages[0]
    assert developer.role == "developer"
    assert ours(conversation, 0)["unmapped_items"] == [{"at": 1, "item": payload["input"][1]}]
    search = [m for m in conversation.messages if "unmapped_items" in m.extra.get(FORMAT_ID, {})]
    assert len(search) == 3
    assert conversation.extra[FORMAT_ID]["unmapped_tools"] == [
        {"at": 0, "tool": payload["tools"][0]},
        {"at": 3, "tool": payload["tools"][3]},
    ]
    answer = parse_one(load("bare_response_web_search.json")).messages[0]
    assert answer.extra[FORMAT_ID]["unmapped_items"][0]["item"]["type"] == "web_search_call"


def test_custom_tools_calls_and_allowed_tools() -> None:
    conversation = parse_one(load("long_conversation.json"))
    assert [tool.name for tool in conversation.tools] == ["create_ticket", "sql"]
    assert conversation.tools[1].extra[FORMAT_ID]["$type"] == "custom"
    assert conversation.tools[0].parameters is not None
    assert "$defs" in conversation.tools[0].parameters
    choice = conversation.tool_choice
    assert choice is not None and choice.type == "auto"
    assert choice.extra[FORMAT_ID]["$type"] == "allowed_tools"
    call = conversation.messages[2].content[2]
    assert isinstance(call, ToolUseBlock) and call.name == "sql" and call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.startswith("SELECT")
    assert ours(conversation, 3)["$type"] == "custom"


def test_media_parts_become_media_blocks() -> None:
    user = parse_one(load("multimodal_input.json")).messages[1].content
    _, url_image, data_image, pdf, by_id, by_url = user
    assert isinstance(url_image, ImageBlock) and url_image.source.type == "url"
    assert url_image.detail == "high"
    assert isinstance(data_image, ImageBlock)
    assert (data_image.source.type, data_image.source.media_type) == ("base64", "image/png")
    assert isinstance(pdf, DocumentBlock) and pdf.filename == "card-statement-2025-05.pdf"
    assert (pdf.source.type, pdf.source.media_type) == ("base64", "application/pdf")
    assert (
        isinstance(by_id, DocumentBlock) and by_id.source.file_id == "file-6F2ksmvXxt4VdoqmHRw6kL"
    )
    assert isinstance(by_url, DocumentBlock) and by_url.source.type == "url"


def test_refusals_and_tool_output_parts() -> None:
    answer = parse_one(load("refusal_exchange.json")).messages[-1]
    assert [type(block) for block in answer.content] == [RefusalBlock]
    output = parse_one(load("bare_items_custom_tool.json")).messages[3].content[0]
    assert isinstance(output, ToolResultBlock) and isinstance(output.content, list)
    assert [block.type for block in output.content] == ["text", "image"]
