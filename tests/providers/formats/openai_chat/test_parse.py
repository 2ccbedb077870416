"""What ``openai-chat`` parse reads: answers, tool calls, media, refusals, citations, legacy."""

from __future__ import annotations

from datetime import UTC, datetime

from providers.umf import (
    AudioBlock,
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats.openai_chat._helpers import (
    OPENAI_CHAT,
    load,
    parse_one,
)


def test_exchange_answer_carries_usage_finish_reason_model_and_id() -> None:
    payload = load("exchange_usage.json")
    conversation = parse_one(payload)
    answer = conversation.messages[-1]
    assert answer.role == "assistant"
    assert answer.content == [
        TextBlock(text=payload["response"]["choices"][0]["message"]["content"])
    ]
    assert (answer.id, answer.model) == (
        "chatcmpl-BaX3kP9sTq1mZ2vW8yR4nL6oJ0cE",
        "o4-mini-2025-04-16",
    )
    assert (answer.finish_reason, answer.provider_finish_reason) == ("stop", "stop")
    assert answer.usage == Usage(
        prompt_tokens=1536,
        completion_tokens=958,
        total_tokens=2494,
        cached_tokens=1280,
        reasoning_tokens=896,
        raw=payload["response"]["usage"],
    )
    assert answer.timestamp == datetime(2025, 5, 23, 12, 12, 17, tzinfo=UTC)
    assert conversation.metadata.provider_response_id == answer.id
    kept = answer.extra["openai-chat"]
    assert kept["$response"] == {
        "object": "chat.completion",
        "created": 1748002337,
        "service_tier": "default",
        "system_fingerprint": None,
    }
    assert kept["$choice"] == {"index": 0, "logprobs": None}
    assert conversation.parameters.model == "o4-mini"
    assert conversation.parameters.max_tokens == 4000
    assert conversation.extra["openai-chat"]["reasoning_effort"] == "high"


def test_parallel_tool_calls_and_results_are_read() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    calls = conversation.messages[2].content
    assert [type(block) for block in calls] == [ToolUseBlock] * 3
    first = calls[0]
    assert isinstance(first, ToolUseBlock)
    assert first.input == {"city": "Paris", "unit": "celsius"}
    assert first.raw_arguments == '{"city":"Paris","unit":"celsius"}'
    result = conversation.messages[3]
    assert result.role == "tool"
    assert result.tool_call_id == "call_pWq3kq8mJ2u7vT1sXbN0aZcD"
    assert result.content == [
        ToolResultBlock(
            tool_use_id="call_pWq3kq8mJ2u7vT1sXbN0aZcD",
            name="get_weather",
            content='{"city":"Paris","temp_c":14,"conditions":"light rain"}',
        )
    ]
    assert conversation.tools[0].extra == {"openai-chat": {"strict": True}}
    assert conversation.parameters.parallel_tool_calls is True


def test_invalid_json_arguments_keep_the_raw_string() -> None:
    conversation = parse_one(load("tool_loop_parallel.json"))
    call = conversation.messages[8].content[1]
    assert isinstance(call, ToolUseBlock)
    assert call.input == {}
    assert call.raw_arguments is not None and call.raw_arguments.endswith('"party_size":2,')


def test_media_parts_become_media_blocks() -> None:
    user = parse_one(load("multimodal_request.json")).messages[1].content
    url_image, data_image, audio, pdf, by_id = user[1:]
    assert isinstance(url_image, ImageBlock) and url_image.source.type == "url"
    assert url_image.detail == "high"
    assert isinstance(data_image, ImageBlock)
    assert (data_image.source.type, data_image.source.media_type) == ("base64", "image/png")
    assert isinstance(audio, AudioBlock)
    assert (audio.source.type, audio.source.media_type) == ("base64", "audio/wav")
    assert isinstance(pdf, DocumentBlock) and pdf.filename == "invoice.pdf"
    assert (pdf.source.type, pdf.source.media_type) == ("base64", "application/pdf")
    assert isinstance(by_id, DocumentBlock)
    assert (by_id.source.type, by_id.source.file_id) == ("file", "file-6F2ksmvXxt4VdoqmHRw6kL")


def test_refusals_become_refusal_blocks() -> None:
    conversation = parse_one(load("refusal_exchange.json"))
    assert conversation.messages[1].content == [
        RefusalBlock(text="I can't help with getting into someone else's home.")
    ]
    answer = conversation.messages[-1]
    assert [block.type for block in answer.content] == ["refusal"]
    assert answer.content[0].text == "I'm sorry, I can't help with that."  # type: ignore[union-attr]


def test_url_annotations_become_citations() -> None:
    answer = parse_one(load("web_search_annotations.json")).messages[-1]
    [text] = answer.content
    assert isinstance(text, TextBlock)
    assert text.citations is not None and text.citations[0]["type"] == "url_citation"
    assert "annotations" not in answer.extra["openai-chat"]


def test_developer_name_and_unknown_fields_are_kept() -> None:
    conversation = parse_one(load("developer_name_unknown_fields.json"))
    developer, user = conversation.messages[:2]
    assert (developer.role, developer.name, user.name) == ("developer", "acme_app", "maria_k")
    kept = conversation.extra["openai-chat"]
    assert kept["metadata"] == {"team": "dev-tools", "ticket": "DT-4821"}
    assert (kept["store"], kept["logprobs"], kept["top_logprobs"]) == (True, True, 3)
    assert kept["$stop"] == "string" and kept["$max_tokens_key"] == "max_tokens"
    assert conversation.parameters.stop == ["###"]
    assert conversation.tool_choice is not None and conversation.tool_choice.type == "auto"


def test_custom_tool_call_keeps_its_text_input() -> None:
    conversation = parse_one(load("developer_name_unknown_fields.json"))
    call = conversation.messages[2].content[0]
    assert isinstance(call, ToolUseBlock)
    assert (call.name, call.input) == ("apply_patch", {})
    assert call.raw_arguments is not None and call.raw_arguments.startswith("*** Begin Patch")
    assert conversation.tools[0].extra["openai-chat"]["$type"] == "custom"


def test_legacy_function_call_pairs_with_its_function_message() -> None:
    [item] = OPENAI_CHAT.parse(load("legacy_functions.json"))
    call = item.conversation.messages[1].content[0]
    result = item.conversation.messages[2]
    assert isinstance(call, ToolUseBlock) and call.id == "call_legacy_0"
    assert result.role == "tool" and result.tool_call_id == "call_legacy_0"
    assert [(w.category, w.field, w.transformed_value) for w in item.warnings] == [
        ("id-synthesized", "messages[1].function_call", "call_legacy_0")
    ]


def test_finish_reason_function_call_is_normalised() -> None:
    response = load("bare_response.json")
    response["choices"][0]["finish_reason"] = "function_call"
    answer = parse_one(response).messages[0]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("tool_calls", "function_call")
