"""What ``ollama`` parse reads: answers, options, tool-call pairing and images."""

from __future__ import annotations

from datetime import UTC, datetime

from providers.formats.ollama import FORMAT
from providers.formats.ollama._parse_messages import sniff_media_type
from providers.umf import (
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)
from tests.providers.formats.ollama._helpers import (
    assert_round_trips,
    load,
    parse_one,
)


def test_exchange_answer_carries_usage_finish_reason_model_and_time() -> None:
    payload = load("thinking_exchange.json")
    answer = parse_one(payload).messages[-1]
    assert answer.content == [
        ThinkingBlock(text=payload["response"]["message"]["thinking"], provider="ollama"),
        TextBlock(text=payload["response"]["message"]["content"]),
    ]
    assert (answer.model, answer.finish_reason, answer.provider_finish_reason) == (
        "deepseek-r1:14b",
        "stop",
        "stop",
    )
    metrics = {k: v for k, v in payload["response"].items() if k.endswith(("count", "duration"))}
    assert answer.usage == Usage(
        prompt_tokens=17, completion_tokens=142, total_tokens=159, raw=metrics
    )
    assert answer.timestamp == datetime(2025, 6, 2, 9, 14, 27, 318542, tzinfo=UTC)
    assert answer.extra["ollama"]["$response"] == {
        "created_at": "2025-06-02T09:14:27.318542913Z",
        "done": True,
    }


def test_length_is_normalised_and_options_become_parameters() -> None:
    conversation = parse_one(load("length_exchange_usage.json"))
    answer = conversation.messages[-1]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("length", "length")
    parameters = conversation.parameters
    assert (parameters.model, parameters.max_tokens, parameters.temperature) == (
        "mistral:7b-instruct",
        32,
        1.0,
    )
    assert (parameters.frequency_penalty, parameters.presence_penalty) == (0.5, 0.2)
    assert conversation.extra["ollama"]["options"] == {}
    assert conversation.extra["ollama"]["format"] == ""


def test_unmapped_options_stay_verbatim() -> None:
    conversation = parse_one(load("long_conversation.json"))
    assert conversation.parameters.stop == ["<|eot_id|>", "Student:"]
    assert (conversation.parameters.seed, conversation.parameters.stream) == (7, True)
    assert conversation.extra["ollama"]["options"] == {"repeat_penalty": 1.1, "num_ctx": 8192}
    assert conversation.extra["ollama"]["keep_alive"] == -1


def test_tool_calls_get_ids_and_results_pair_by_name_and_order() -> None:
    [item] = FORMAT.parse(load("tool_loop_parallel.json"))
    conversation = item.conversation
    calls = conversation.messages[2].content[1:]
    assert [(c.id, c.input) for c in calls if isinstance(c, ToolUseBlock)] == [
        ("call_2_0", {"city": "Toronto", "unit": "celsius"}),
        ("call_2_1", {"city": "Lisbon", "unit": "celsius"}),
        ("call_2_2", {"timezone": "Europe/Lisbon"}),
    ]
    results = [m.content[0] for m in conversation.messages[3:6]]
    assert [(r.tool_use_id, r.name) for r in results if isinstance(r, ToolResultBlock)] == [
        ("call_2_0", "get_current_weather"),
        ("call_2_1", "get_current_weather"),
        ("call_2_2", "get_local_time"),
    ]
    assert [(w.category, w.field, w.transformed_value) for w in item.warnings] == [
        ("id-synthesized", "messages[2].tool_calls[0].id", "call_2_0"),
        ("id-synthesized", "messages[2].tool_calls[1].id", "call_2_1"),
        ("id-synthesized", "messages[2].tool_calls[2].id", "call_2_2"),
        ("id-synthesized", "messages[3].tool_call_id", "call_2_0"),
        ("id-synthesized", "messages[4].tool_call_id", "call_2_1"),
        ("id-synthesized", "messages[5].tool_call_id", "call_2_2"),
    ]


def test_results_pair_by_name_before_order() -> None:
    calls = [
        {"function": {"name": "a", "arguments": {}}},
        {"function": {"name": "b", "arguments": {}}},
    ]
    conversation = parse_one(
        [
            {"role": "assistant", "content": "", "tool_calls": calls},
            {"role": "tool", "tool_name": "b", "content": "B"},
            {"role": "tool", "content": "A"},
            {"role": "tool", "tool_name": "c", "content": "late"},
        ]
    )
    assert [m.tool_call_id for m in conversation.messages[1:]] == ["call_0_1", "call_0_0", None]
    assert conversation.messages[2].content[0] == ToolResultBlock(
        tool_use_id="call_0_0", content="A", name="a"
    )


def test_a_result_answering_no_call_is_kept_as_text() -> None:
    [item] = FORMAT.parse(
        [
            {"role": "tool", "tool_name": "f", "content": "late"},
            {"role": "tool", "tool_call_id": "call_gone", "content": "lost"},
        ]
    )
    first, second = item.conversation.messages
    assert (first.role, first.name, first.tool_call_id) == ("tool", "f", None)
    assert first.content == [TextBlock(text="late")]
    assert second.content == [TextBlock(text="lost")]
    assert second.extra["ollama"] == {"tool_call_id": "call_gone", "$tool_call_id": "absent"}
    assert [(w.category, w.field) for w in item.warnings] == [
        ("content-type-unsupported", "[0]"),
        ("content-type-unsupported", "[1]"),
    ]
    assert_round_trips([{"role": "tool", "tool_call_id": "call_gone", "content": "lost"}])


def test_server_ids_are_kept_and_finish_reason_is_tool_calls() -> None:
    [item] = FORMAT.parse(load("bare_response_tool_calls.json"))
    answer = item.conversation.messages[0]
    assert [b.id for b in answer.content if isinstance(b, ToolUseBlock)] == [
        "call_k3b9x2lq",
        "call_p0v7m4ce",
    ]
    assert (answer.finish_reason, answer.provider_finish_reason) == ("tool_calls", "stop")
    assert item.warnings == []


def test_images_are_base64_blocks_with_sniffed_media_types() -> None:
    user = parse_one(load("vision_structured_output.json")).messages[1]
    images = [b for b in user.content if isinstance(b, ImageBlock)]
    assert [b.source.media_type for b in images] == ["image/jpeg", "image/png"]
    assert all(
        b.source.type == "base64" and b.extra == {"ollama": {"$sniffed": True}} for b in images
    )
    last = parse_one(load("vision_structured_output.json")).messages[3]
    assert [b.source.media_type for b in last.content if isinstance(b, ImageBlock)] == [
        "image/gif",
        "image/webp",
    ]


def test_unknown_image_bytes_have_no_media_type() -> None:
    assert sniff_media_type("AAAAAAAAAAAAAAAA") is None
    [block] = parse_one([{"role": "user", "images": ["AAAA"]}]).messages[0].content
    assert isinstance(block, ImageBlock) and block.source.media_type is None and not block.extra
