"""The ``gemini`` format reading contents: tool call ids and their pairing with results,
thought signatures and thought parts, media, code execution and function response parts.
"""

from __future__ import annotations

from providers.formats.gemini import parse, render
from providers.umf import (
    AudioBlock,
    DocumentBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.gemini._helpers import (
    load,
    read_without_warnings_but_ids,
    stored,
)

# --------------------------------------------------------------------------- ids and pairing


def test_missing_ids_are_synthesized_and_results_paired_by_name_and_order() -> None:
    results = parse(load("tool_loop_parallel"))
    summary = [(w.category, w.severity, w.field, w.transformed_value) for w in results[0].warnings]
    call, response = "functionCall", "functionResponse"
    assert summary == [
        ("id-synthesized", "info", f"contents[1].parts[0].{call}", "gemini_call_1_0"),
        ("id-synthesized", "info", f"contents[1].parts[1].{call}", "gemini_call_1_1"),
        ("id-synthesized", "info", f"contents[1].parts[2].{call}", "gemini_call_1_2"),
        ("id-synthesized", "info", f"contents[2].parts[0].{response}", "gemini_call_1_0"),
        ("id-synthesized", "info", f"contents[2].parts[1].{response}", "gemini_call_1_1"),
        ("id-synthesized", "info", f"contents[2].parts[2].{response}", "gemini_call_1_2"),
        ("id-synthesized", "info", f"contents[3].parts[0].{call}", "gemini_call_3_0"),
        ("id-synthesized", "info", f"contents[4].parts[0].{response}", "gemini_call_3_0"),
    ]
    messages = results[0].conversation.messages
    answers = [(b.tool_use_id, b.name, b.is_error) for b in messages[3].content]  # type: ignore[union-attr]
    assert answers == [
        ("gemini_call_1_0", "get_weather", None),
        ("gemini_call_1_1", "get_weather", True),
        ("gemini_call_1_2", "get_local_time", None),
    ]


def test_responses_pair_with_the_oldest_open_call_of_their_name() -> None:
    call = {"functionCall": {"name": "f", "args": {}}}
    other = {"functionCall": {"name": "g", "args": {}}}
    answer = {"functionResponse": {"name": "f", "response": {"output": "x"}}}
    payload = [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [call, other, call]},
        {"role": "user", "parts": [answer, answer, answer]},
    ]
    conversation = parse(payload)[0].conversation
    ids = [b.tool_use_id for b in conversation.messages[2].content]  # type: ignore[union-attr]
    assert ids == ["gemini_call_1_0", "gemini_call_1_2", "gemini_result_2_2"]
    assert render(conversation).payload == payload


def test_given_ids_are_kept_and_sent_back() -> None:
    conversation = read_without_warnings_but_ids(load("forced_tool_json_schema"))
    call = conversation.messages[2].content[0]
    result = conversation.messages[3].content[0]
    assert isinstance(call, ToolUseBlock) and isinstance(result, ToolResultBlock)
    assert (call.id, result.tool_use_id) == ("fc-3b1e9d0a", "fc-3b1e9d0a")
    assert parse(load("forced_tool_json_schema"))[0].warnings == []


# --------------------------------------------------------------------------- reasoning


def test_thought_signatures_stay_with_the_part_they_sit_on() -> None:
    payload = load("tool_loop_parallel")
    conversation = stored(read_without_warnings_but_ids(payload))
    first_call = conversation.messages[2].content[0]
    second_call = conversation.messages[2].content[1]
    assert isinstance(first_call, ToolUseBlock) and isinstance(second_call, ToolUseBlock)
    signature = payload["contents"][1]["parts"][0]["thoughtSignature"]
    assert first_call.extra["gemini"]["thoughtSignature"] == signature
    assert "thoughtSignature" not in second_call.extra.get("gemini", {})
    trailing = conversation.messages[6].content[1]
    assert isinstance(trailing, ThinkingBlock)
    assert (trailing.text, trailing.provider) == ("", "gemini")
    assert trailing.signature == payload["contents"][5]["parts"][1]["thoughtSignature"]
    rendered = render(conversation).payload["contents"]
    assert rendered[1]["parts"][0] == payload["contents"][1]["parts"][0]
    assert rendered[5]["parts"][1] == {"text": "", "thoughtSignature": trailing.signature}


def test_thought_parts_become_thinking_blocks() -> None:
    conversation = read_without_warnings_but_ids(load("thinking_exchange"))
    answer = conversation.messages[-1]
    thought, text = answer.content
    assert isinstance(thought, ThinkingBlock) and isinstance(text, TextBlock)
    assert thought.provider == "gemini" and thought.signature is None
    assert thought.text.startswith("**Setting up the equation**")
    assert text.extra["gemini"]["thoughtSignature"]
    assert (answer.id, answer.model) == ("mC5KaLbFLd7o7M8Pq8G9uQk", "gemini-2.5-flash")
    assert conversation.metadata.provider_response_id == "mC5KaLbFLd7o7M8Pq8G9uQk"


# --------------------------------------------------------------------------- content


def test_media_parts_by_mime_type_and_uri_kind() -> None:
    conversation = read_without_warnings_but_ids(load("multimodal_request"))
    message = conversation.messages[0]
    assert message.role == "user" and message.extra["gemini"]["$role"] == "absent"
    summary = [
        (type(block).__name__, getattr(getattr(block, "source", None), "type", None))
        for block in message.content
    ]
    assert summary == [
        ("TextBlock", None),
        ("ImageBlock", "base64"),
        ("DocumentBlock", "file"),
        ("AudioBlock", "base64"),
        ("DocumentBlock", "url"),
        ("DocumentBlock", "base64"),
        ("ImageBlock", "url"),
    ]
    video = message.content[4]
    assert isinstance(video, DocumentBlock) and video.source.media_type is None
    assert video.extra["gemini"]["videoMetadata"] == {"startOffset": "40s", "endOffset": "80s"}
    pdf = message.content[2]
    assert isinstance(pdf, DocumentBlock) and pdf.source.file_id is not None
    assert pdf.source.file_id.startswith("https://generativelanguage.googleapis.com/")
    assert isinstance(message.content[1], ImageBlock)
    assert isinstance(message.content[3], AudioBlock)


def test_code_execution_parts_are_kept_verbatim_and_read_as_text() -> None:
    payload = load("code_execution_grounding_exchange")
    answer = read_without_warnings_but_ids(payload).messages[-1]
    code, result = answer.content[1], answer.content[2]
    assert isinstance(code, TextBlock) and isinstance(result, TextBlock)
    assert code.text.startswith("```python\nprimes = []")
    assert result.text == "Code execution result (OUTCOME_OK):\n```\n5117\n\n```"
    parts = payload["response"]["candidates"][0]["content"]["parts"]
    assert code.extra["gemini"]["$part"] == parts[1]
    assert result.extra["gemini"]["$part"] == parts[2]


def test_function_response_objects_and_media_parts() -> None:
    results = read_without_warnings_but_ids(load("tool_loop_parallel")).messages[3].content
    texts = [(b.content, b.extra.get("gemini", {}).get("$response")) for b in results]  # type: ignore[union-attr]
    assert texts[0] == (
        '{"temp_c":18,"conditions":"light rain"}',
        {"output": {"temp_c": 18, "conditions": "light rain"}},
    )
    assert texts[1] == ("weather service timed out for Tokyo", None)
    assert texts[2] == ('{"time":"2025-06-12T01:14:00+09:00","timezone":"Asia/Tokyo"}', None)
    with_media = (
        read_without_warnings_but_ids(load("forced_tool_json_schema")).messages[3].content[0]
    )
    assert isinstance(with_media, ToolResultBlock) and isinstance(with_media.content, list)
    assert [block.type for block in with_media.content] == ["text", "image"]
