"""Whole imports from other formats (Anthropic, OpenAI) rendered as ``ollama`` requests, exactly."""

from __future__ import annotations

import orjson

from tests.providers.formats.ollama._convert_helpers import (
    FIXTURES,
    PNG,
    assert_converts,
    imported,
)


def test_anthropic_thinking_tool_loop_converts_exactly() -> None:
    payload, warnings = assert_converts(imported("anthropic", "thinking_tool_loop.json"))
    call_id = "toolu_01NXq3wPqLsGkVbZ6rT8uYc2"
    source = orjson.loads((FIXTURES / "anthropic" / "thinking_tool_loop.json").read_bytes())
    thinking = source["messages"][1]["content"][0]["thinking"]
    query = source["messages"][1]["content"][2]["input"]["query"]
    assert payload == {
        "model": "claude-opus-4-1-20250805",
        "messages": [
            {"role": "user", "content": source["messages"][0]["content"]},
            {
                "role": "assistant",
                "content": "",
                "thinking": thinking,
                "tool_calls": [{"function": {"name": "run_sql", "arguments": {"query": query}}}],
            },
            {"role": "tool", "content": '[{"late": 42, "total": 1380}]', "tool_name": "run_sql"},
            {
                "role": "assistant",
                "content": "42 of last month's 1,380 orders shipped late, about 3.0%.",
            },
            {"role": "user", "content": "Which carrier was responsible for most of them?"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "run_sql",
                    "description": "Run a read-only SQL query against the analytics warehouse.",
                    "parameters": source["tools"][0]["input_schema"],
                },
            }
        ],
        "options": {"num_predict": 16000},
    }
    assert warnings == [
        (
            "signature-stripped",
            "warning",
            "messages[1].content[0]",
            {"provider": "anthropic", "signed": True},
            "thinking",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[1]", None, None),
        ("id-rewritten", "info", "messages[1].content[2].id", call_id, None),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", call_id, None),
        ("parameter-normalized", "info", "tool_choice", "auto", None),
        (
            "field-unknown",
            "info",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
    ]


def test_openai_multimodal_request_converts_exactly() -> None:
    payload, warnings = assert_converts(imported("openai-chat", "multimodal_request.json"))
    url = "https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png"
    assert payload == {
        "model": "gpt-4o-audio-preview",
        "messages": [
            {"role": "system", "content": "Describe inputs precisely.\nAnswer in English."},
            {
                "role": "user",
                "content": "Compare the two photos, transcribe the clip and summarise the PDFs."
                f"\n[image: {url}]",
                "images": [PNG],
            },
        ],
        "options": {"num_predict": 800},
    }
    assert warnings == [
        ("content-type-unsupported", "info", "messages[0].content", 2, "string"),
        ("field-unknown", "info", "messages[1].content[1].detail", "high", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[1].content[1]",
            {"type": "image", "url": url},
            f"[image: {url}]",
        ),
        ("field-unknown", "info", "messages[1].content[2].detail", "low", None),
        (
            "content-dropped",
            "warning",
            "messages[1].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 364},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[1].content[4]",
            {
                "type": "document",
                "source": "base64",
                "media_type": "application/pdf",
                "size": 125,
                "filename": "invoice.pdf",
            },
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[1].content[5]",
            {"type": "document", "source": "file", "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"},
            None,
        ),
        ("content-type-unsupported", "info", "messages[1].content", 2, "string"),
        ("field-unknown", "info", "extra.openai-chat", {"modalities": ["text"]}, None),
    ]


def test_openai_parallel_calls_and_results_pair_by_name() -> None:
    payload, warnings = assert_converts(imported("openai-chat", "tool_loop_parallel.json"))
    calls = payload["messages"][2]["tool_calls"]
    names = ["get_weather", "get_weather", "get_time"]
    assert [call["function"]["name"] for call in calls] == names
    results = payload["messages"][3:6]
    assert [(m["role"], m["tool_name"]) for m in results] == [("tool", name) for name in names]
    assert not any("id" in call for call in calls)
    assert not any("tool_call_id" in message for message in payload["messages"])
    assert [w[2] for w in warnings if w[0] == "id-rewritten"] == [
        "messages[2].content[0].id",
        "messages[2].content[1].id",
        "messages[2].content[2].id",
        "messages[3].content[0].tool_use_id",
        "messages[4].content[0].tool_use_id",
        "messages[5].content[0].tool_use_id",
        "messages[8].content[1].id",
        "messages[9].content[0].tool_use_id",
    ]
