"""The ``bedrock-converse`` renderer fed whole fixtures of other formats: the exact payload it
sends and the exact drift warning for every lossy step."""

from __future__ import annotations

import orjson

from tests.providers.formats.bedrock_converse._convert_helpers import (
    FIXTURES,
    OC,
    assert_fixture_converts,
)

# --------------------------------------------------------------------------- whole fixtures


def test_openai_chat_tool_loop_converts_with_exact_payload_and_warnings() -> None:
    payload, warnings = assert_fixture_converts(OC, "tool_loop_parallel")
    source = orjson.loads((FIXTURES / OC / "tool_loop_parallel.json").read_bytes())
    calls = source["messages"][2]["tool_calls"]
    results = [
        {"toolResult": {"toolUseId": call["id"], "content": [{"text": source_message["content"]}]}}
        for call, source_message in zip(calls, source["messages"][3:6], strict=True)
    ]
    tools = [
        {
            "toolSpec": {
                "name": spec["function"]["name"],
                **{k: v for k, v in spec["function"].items() if k == "description"},
                "inputSchema": {"json": spec["function"]["parameters"]},
            }
        }
        for spec in source["tools"]
    ]
    assert payload == {
        "modelId": "gpt-4.1-2025-04-14",
        "system": [{"text": source["messages"][0]["content"]}],
        "messages": [
            {"role": "user", "content": [{"text": source["messages"][1]["content"]}]},
            {
                "role": "assistant",
                "content": [
                    {
                        "toolUse": {
                            "toolUseId": call["id"],
                            "name": call["function"]["name"],
                            "input": orjson.loads(call["function"]["arguments"]),
                        }
                    }
                    for call in calls
                ],
            },
            {"role": "user", "content": results},
            {"role": "assistant", "content": [{"text": source["messages"][6]["content"]}]},
            {"role": "user", "content": [{"text": source["messages"][7]["content"]}]},
            {
                "role": "assistant",
                "content": [
                    {"text": "Searching now."},
                    {
                        "toolUse": {
                            "toolUseId": "call_Qm4nB8vC2xZ6lK0jH9gF7dS5",
                            "name": "search_restaurants",
                            "input": {},
                        }
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "toolResult": {
                            "toolUseId": "call_Qm4nB8vC2xZ6lK0jH9gF7dS5",
                            "content": [{"text": "error: arguments are not valid JSON"}],
                        }
                    }
                ],
            },
        ],
        "inferenceConfig": {"temperature": 0.2},
        "toolConfig": {"tools": tools, "toolChoice": {"auto": {}}},
    }
    bad_arguments = source["messages"][8]["tool_calls"][0]["function"]["arguments"]
    assert warnings == [
        ("content-dropped", "warning", "messages[8].content[1].raw_arguments", bad_arguments, {}),
        ("role-merged", "warning", "messages[4]", "tool", "user"),
        ("role-merged", "warning", "messages[5]", "tool", "user"),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", True, None),
        ("field-unknown", "info", "tools[0].extra.openai-chat", {"strict": True}, None),
    ]


def test_openai_chat_multimodal_request_converts_with_exact_payload_and_warnings() -> None:
    payload, warnings = assert_fixture_converts(OC, "multimodal_request")
    source = orjson.loads((FIXTURES / OC / "multimodal_request.json").read_bytes())
    parts = source["messages"][1]["content"]
    image_url = parts[1]["image_url"]["url"]
    assert payload == {
        "modelId": source["model"],
        "system": [{"text": "Describe inputs precisely."}, {"text": "Answer in English."}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"text": parts[0]["text"]},
                    {"text": f"[image: {image_url}]"},
                    {
                        "image": {
                            "format": "png",
                            "source": {"bytes": parts[2]["image_url"]["url"].split(",", 1)[1]},
                        }
                    },
                    {
                        "audio": {
                            "format": "wav",
                            "source": {"bytes": parts[3]["input_audio"]["data"]},
                        }
                    },
                    {
                        "document": {
                            "format": "pdf",
                            "name": "invoice pdf",
                            "source": {"bytes": parts[4]["file"]["file_data"].split(",", 1)[1]},
                        }
                    },
                ],
            }
        ],
        "inferenceConfig": {"maxTokens": source["max_completion_tokens"]},
    }
    assert warnings == [
        ("field-unknown", "info", "messages[1].content[1].detail", "high", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[1].content[1]",
            image_url,
            f"[image: {image_url}]",
        ),
        ("field-unknown", "info", "messages[1].content[2].detail", "low", None),
        (
            "parameter-normalized",
            "info",
            "messages[1].content[4].filename",
            "invoice.pdf",
            "invoice pdf",
        ),
        (
            "content-dropped",
            "warning",
            "messages[1].content[5]",
            {"type": "document", "source": "file", "file_id": parts[5]["file"]["file_id"]},
            None,
        ),
        ("field-unknown", "info", "extra.openai-chat", {"modalities": ["text"]}, None),
    ]


def test_anthropic_reasoning_is_dropped_with_its_signatures() -> None:
    payload, warnings = assert_fixture_converts("anthropic", "thinking_tool_loop")
    source = orjson.loads((FIXTURES / "anthropic" / "thinking_tool_loop.json").read_bytes())
    thinking = source["messages"][1]["content"][0]["thinking"]
    assert [next(iter(block)) for block in payload["messages"][1]["content"]] == ["toolUse"]
    assert "signature" not in str(payload) and "reasoningContent" not in str(payload)
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].content[0]", thinking, None),
        ("reasoning-dropped", "warning", "messages[1].content[1]", None, None),
        (
            "field-unknown",
            "info",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
    ]


def test_anthropic_mid_conversation_system_message_moves_to_the_top() -> None:
    payload, warnings = assert_fixture_converts("anthropic", "search_results_system_message")
    source = orjson.loads(
        (FIXTURES / "anthropic" / "search_results_system_message.json").read_bytes()
    )
    system_texts = [block["text"] for block in payload["system"]]
    assert system_texts[-1] == source["messages"][3]["content"]
    assert ("system-message-transformed", "warning", "messages[4]", "system", "system") in warnings


def test_openai_chat_refusal_and_annotations() -> None:
    _, refusal_warnings = assert_fixture_converts(OC, "refusal_exchange")
    answer_fields = ["finish_reason", "id", "model", "timestamp", "usage"]
    assert refusal_warnings[:3] == [
        ("content-dropped", "info", "messages", answer_fields, None),
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "warning", "messages[3].content[0]", "refusal", "text"),
    ]
    payload, warnings = assert_fixture_converts(OC, "web_search_annotations")
    source = orjson.loads((FIXTURES / OC / "web_search_annotations.json").read_bytes())
    annotations = source["response"]["choices"][0]["message"]["annotations"]
    assert payload["messages"][-1]["content"] == [
        {"text": source["response"]["choices"][0]["message"]["content"]}
    ]
    assert warnings[0] == ("content-dropped", "info", "messages", answer_fields, None)
    assert warnings[1][:3] == ("content-dropped", "warning", "messages[1].content[0].citations")
    assert len(warnings[1][3]) == len(annotations)


def test_openai_chat_audio_input_is_carried() -> None:
    payload, warnings = assert_fixture_converts(OC, "audio_exchange")
    audio = payload["messages"][0]["content"][-1]
    assert audio["audio"]["format"] == "wav" and audio["audio"]["source"]["bytes"]
    # The assistant's audio replies are ids of OpenAI-side clips: nothing to send.
    assert warnings[0][:3] == ("content-dropped", "info", "messages")
    assert warnings[1][:3] == ("content-dropped", "warning", "messages[1].content[0]")
