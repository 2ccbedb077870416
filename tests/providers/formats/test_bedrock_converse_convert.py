"""The ``bedrock-converse`` renderer fed conversations from other formats: what it sends,
and the exact drift warning for every lossy cell of the reference's conversion matrix
(column BR). Every request is validated against botocore's Converse input shape and the
rules the shape cannot express."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats import parse as parse_as
from providers.formats.bedrock_converse import DEFAULT_MODEL, parse, render
from providers.formats.bedrock_converse._constants import (
    BRIDGE_USER_TEXT,
    DOCUMENT_PROMPT_TEXT,
    EMPTY_RESULT_TEXT,
    EMPTY_SCHEMA,
    MISSING_RESULT_TEXT,
)
from providers.formats.bedrock_converse._render_blocks import RENDERERS
from providers.umf import (
    BLOCK_TYPES,
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.sdk.bedrock import check_converse_rules, validate_converse_request

FIXTURES = Path(__file__).parents[2] / "fixtures"
OC = "openai-chat"
# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="anthropic.claude-3-5-sonnet-20240620-v1:0")
TOOLS = [Tool(name="f", parameters={"type": "object"})]


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def assert_valid_request(payload: dict[str, Any]) -> None:
    validate_converse_request(payload)
    check_converse_rules(payload)


def convert(*messages: Message, **fields: Any) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render messages from another format; the payload must be a request Converse takes."""
    fields.setdefault("parameters", PARAMS)
    rendered = render(Conversation(messages=list(messages), **fields))
    assert_valid_request(rendered.payload)
    assert all(w.source == "bedrock-converse" for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def from_fixture(format_id: str, name: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render another format's fixture; the payload must be a request Converse takes."""
    payload = orjson.loads((FIXTURES / format_id / f"{name}.json").read_bytes())
    [item] = parse_as(format_id, payload).items
    rendered = render(item.conversation)
    assert_valid_request(rendered.payload)
    return rendered.payload, summary(rendered.warnings)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def tool(call_id: str, content: str, **fields: Any) -> Message:
    result = ToolResultBlock(tool_use_id=call_id, content=content, **fields)
    return Message(role="tool", tool_call_id=call_id, content=[result])


def text(value: str) -> TextBlock:
    # openai-chat marks string content with its own hint; hints never travel or warn.
    return TextBlock(text=value, extra={OC: {"$content": "string"}})


def call(call_id: str, name: str = "f", **arguments: Any) -> ToolUseBlock:
    return ToolUseBlock(id=call_id, name=name, input=arguments)


# --------------------------------------------------------------------------- whole fixtures


def test_openai_chat_tool_loop_converts_with_exact_payload_and_warnings() -> None:
    payload, warnings = from_fixture(OC, "tool_loop_parallel")
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
    payload, warnings = from_fixture(OC, "multimodal_request")
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
            {"source": "file", "file_id": parts[5]["file"]["file_id"]},
            None,
        ),
        ("field-unknown", "info", "extra.openai-chat", {"modalities": ["text"]}, None),
    ]


def test_anthropic_reasoning_is_dropped_with_its_signatures() -> None:
    payload, warnings = from_fixture("anthropic", "thinking_tool_loop")
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
    payload, warnings = from_fixture("anthropic", "search_results_system_message")
    source = orjson.loads(
        (FIXTURES / "anthropic" / "search_results_system_message.json").read_bytes()
    )
    system_texts = [block["text"] for block in payload["system"]]
    assert system_texts[-1] == source["messages"][3]["content"]
    assert ("system-message-transformed", "warning", "messages[4]", "system", "system") in warnings


def test_openai_chat_refusal_and_annotations() -> None:
    _, refusal_warnings = from_fixture(OC, "refusal_exchange")
    assert refusal_warnings[:2] == [
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "warning", "messages[3].content[0]", "refusal", "text"),
    ]
    payload, warnings = from_fixture(OC, "web_search_annotations")
    source = orjson.loads((FIXTURES / OC / "web_search_annotations.json").read_bytes())
    annotations = source["response"]["choices"][0]["message"]["annotations"]
    assert payload["messages"][-1]["content"] == [
        {"text": source["response"]["choices"][0]["message"]["content"]}
    ]
    assert warnings[0][:3] == ("content-dropped", "warning", "messages[1].content[0].citations")
    assert len(warnings[0][3]) == len(annotations)


def test_openai_chat_audio_input_is_carried() -> None:
    payload, warnings = from_fixture(OC, "audio_exchange")
    audio = payload["messages"][0]["content"][-1]
    assert audio["audio"]["format"] == "wav" and audio["audio"]["source"]["bytes"]
    # The assistant's audio replies are ids of OpenAI-side clips: nothing to send.
    assert warnings[0][:3] == ("content-dropped", "warning", "messages[1].content[0]")


# --------------------------------------------------------------------------- one rule each


def test_leading_system_is_a_system_block_and_developer_is_noted() -> None:
    payload, warnings = convert(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Be brief."}]
    assert warnings == []
    payload, warnings = convert(
        Message(role="developer", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Be brief."}]
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_system_prompt_keeps_text_only() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = convert(
        Message(role="system", content=[text("Rules"), image, text(" ")]), user(text("hi"))
    )
    assert payload["system"] == [{"text": "Rules"}]
    assert warnings == [
        ("content-dropped", "warning", "messages[0].content[1]", "image", None),
        ("content-dropped", "info", "messages[0].content[2]", " ", None),
    ]


def test_missing_model_is_defaulted() -> None:
    payload, warnings = convert(user(text("hi")), parameters=Parameters())
    assert payload == {"modelId": DEFAULT_MODEL, "messages": [user_turn("hi")]}
    assert warnings == [("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL)]


def user_turn(*texts: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"text": value} for value in texts]}


def test_parameters_map_clamp_or_are_reported() -> None:
    parameters = Parameters(
        model="m",
        max_tokens=0,
        temperature=1.7,
        top_p=0.9,
        top_k=5,
        seed=3,
        frequency_penalty=0.5,
        presence_penalty=0.1,
        stop=["###"],
        user="u1",
        stream=True,
        parallel_tool_calls=False,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = convert(user(text("hi")), parameters=parameters)
    assert payload["inferenceConfig"] == {
        "maxTokens": 1,
        "temperature": 1.0,
        "topP": 0.9,
        "stopSequences": ["###"],
    }
    assert warnings == [
        ("parameter-clamped", "warning", "parameters.max_tokens", 0, 1),
        ("parameter-clamped", "warning", "parameters.temperature", 1.7, 1.0),
        ("parameter-unsupported", "info", "parameters.stream", True, None),
        ("parameter-unsupported", "warning", "parameters.top_k", 5, None),
        ("parameter-unsupported", "warning", "parameters.seed", 3, None),
        ("parameter-unsupported", "warning", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.presence_penalty", 0.1, None),
        ("parameter-unsupported", "warning", "parameters.user", "u1", None),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_conversation_starting_with_assistant_gets_a_bridge_user_turn() -> None:
    payload, warnings = convert(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["messages"][0] == user_turn(BRIDGE_USER_TEXT)
    assert warnings == [
        ("message-reordered", "warning", "messages[0]", None, user_turn(BRIDGE_USER_TEXT))
    ]


def test_consecutive_same_role_messages_are_merged() -> None:
    payload, warnings = convert(user(text("one")), user(text("two")), assistant(text("ok")))
    assert payload["messages"][0] == user_turn("one", "two")
    assert warnings == [("role-merged", "warning", "messages[1]", "user", "user")]


def test_user_right_after_tool_results_joins_their_turn() -> None:
    payload, warnings = convert(
        user(text("go")),
        assistant(call("call_1"), call("call_2")),
        tool("call_1", "one"),
        tool("call_2", "two"),
        user(text("and now?")),
    )
    assert payload["messages"][2] == {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": "call_1", "content": [{"text": "one"}]}},
            {"toolResult": {"toolUseId": "call_2", "content": [{"text": "two"}]}},
            {"text": "and now?"},
        ],
    }
    assert warnings == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("role-merged", "warning", "messages[4]", "user", "user"),
        ("parameter-defaulted", "warning", "tools", None, ["f"]),
    ]


def test_tool_results_move_before_user_text() -> None:
    payload, warnings = convert(
        user(text("go")), assistant(call("call_1")), user(text("also this")), tool("call_1", "ok")
    )
    assert [next(iter(b)) for b in payload["messages"][2]["content"]] == ["toolResult", "text"]
    assert warnings[:2] == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", "after other content", "first"),
    ]


def test_tool_blocks_without_tools_get_tool_config_made_from_the_calls() -> None:
    payload, warnings = convert(
        user(text("go")),
        assistant(call("c1", "lookup"), call("c2", "lookup")),
        tool("c1", "a"),
        tool("c2", "b"),
    )
    assert payload["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "lookup", "inputSchema": {"json": EMPTY_SCHEMA}}}]
    }
    assert warnings[-1] == ("parameter-defaulted", "warning", "tools", None, ["lookup"])


def test_unanswered_tool_call_gets_an_error_result() -> None:
    payload, warnings = convert(user(text("go")), assistant(call("call_1", a=1)), tools=TOOLS)
    synthesized = {
        "toolResult": {
            "toolUseId": "call_1",
            "content": [{"text": MISSING_RESULT_TEXT}],
            "status": "error",
        }
    }
    assert payload["messages"][-1] == {"role": "user", "content": [synthesized]}
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[0]", None, synthesized)
    ]


def test_tool_result_answering_no_call_becomes_text() -> None:
    payload, warnings = convert(
        user(text("go")), assistant(text("ok")), tool("call_x", "late", is_error=True)
    )
    assert payload["messages"][-1] == user_turn("[tool result call_x (error)]\nlate")
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[2].content[0]", "tool_result", "text")
    ]


def test_tool_ids_and_names_are_rewritten_the_same_way_everywhere() -> None:
    long_id = "call_" + "x" * 70
    tools = [Tool(name="functions.lookup", parameters={"type": "object"})]
    messages = (
        user(text("go")),
        assistant(call("id with spaces", "functions.lookup"), call(long_id, "functions.lookup")),
        tool("id with spaces", "r1"),
        tool(long_id, "r2"),
    )
    choice = ToolChoice(type="tool", name="functions.lookup")
    payload, warnings = convert(*messages, tools=tools, tool_choice=choice)
    calls = [block["toolUse"] for block in payload["messages"][1]["content"]]
    results = [block["toolResult"] for block in payload["messages"][2]["content"]]
    assert [r["toolUseId"] for r in results] == [c["toolUseId"] for c in calls]
    assert all(re.fullmatch(r"tooluse_[0-9a-f]{24}", c["toolUseId"]) for c in calls)
    assert {c["name"] for c in calls} == {"functions_lookup"}
    assert payload["toolConfig"]["toolChoice"] == {"tool": {"name": "functions_lookup"}}
    assert warnings == [
        (
            "id-rewritten",
            "info",
            "messages[1].content[0].id",
            "id with spaces",
            calls[0]["toolUseId"],
        ),
        ("id-rewritten", "info", "messages[1].content[1].id", long_id, calls[1]["toolUseId"]),
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("id-rewritten", "info", "tools[0].name", "functions.lookup", "functions_lookup"),
        (
            "id-rewritten",
            "info",
            "messages[1].content[0].name",
            "functions.lookup",
            "functions_lookup",
        ),
        (
            "id-rewritten",
            "info",
            "messages[1].content[1].name",
            "functions.lookup",
            "functions_lookup",
        ),
        ("id-rewritten", "info", "tool_choice.name", "functions.lookup", "functions_lookup"),
    ]
    again, _ = convert(*messages, tools=tools, tool_choice=choice)
    assert again == payload


def test_argument_strings_become_objects_and_invalid_ones_an_empty_object() -> None:
    invalid = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    listed = ToolUseBlock(id="c3", name="f", input=[1, 2])
    payload, warnings = convert(
        user(text("go")),
        assistant(invalid, valid, listed),
        tool("c1", "x"),
        tool("c2", "y"),
        tool("c3", "z"),
        tools=TOOLS,
    )
    assert [b["toolUse"]["input"] for b in payload["messages"][1]["content"]] == [
        {},
        {"a": [1]},
        {},
    ]
    assert warnings[:2] == [
        ("content-dropped", "warning", "messages[1].content[0].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]


@pytest.mark.parametrize(("choice", "wire"), [("auto", "auto"), ("required", "any")])
def test_tool_choice_mapping(choice: Any, wire: str) -> None:
    payload, warnings = convert(user(text("q")), tools=TOOLS, tool_choice=ToolChoice(type=choice))
    assert payload["toolConfig"]["toolChoice"] == {wire: {}}
    assert warnings == []


def test_tool_choice_without_tools_is_left_out() -> None:
    payload, warnings = convert(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]


def test_tool_choice_none_leaves_the_tools_out() -> None:
    payload, warnings = convert(user(text("q")), tools=TOOLS, tool_choice=ToolChoice(type="none"))
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "warning", "tool_choice", "none", None)]


def test_tool_choice_none_with_tool_history_keeps_the_tools() -> None:
    payload, warnings = convert(
        user(text("q")),
        assistant(call("c1")),
        tool("c1", "r"),
        tools=TOOLS,
        tool_choice=ToolChoice(type="none"),
    )
    assert payload["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert warnings == [("tool-unsupported", "warning", "tool_choice", "none", "auto")]


def test_tool_definition_without_schema_gets_an_empty_one() -> None:
    tools = [Tool(name="ping", description="")]
    payload, warnings = convert(user(text("q")), tools=tools)
    assert payload["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "ping", "inputSchema": {"json": EMPTY_SCHEMA}}}
    ]
    assert warnings == [("parameter-defaulted", "info", "tools[0].parameters", None, EMPTY_SCHEMA)]


def test_thinking_travels_only_back_to_bedrock() -> None:
    own = ThinkingBlock(text="mine", signature="sig-b", provider="bedrock-converse")
    redacted = ThinkingBlock(redacted=True, data="YmxvYg==", provider="bedrock-converse")
    unsigned_own = ThinkingBlock(text="deepseek style", provider="bedrock-converse")
    anthropic = ThinkingBlock(text="theirs", signature="sig-a", provider="anthropic")
    anthropic_redacted = ThinkingBlock(redacted=True, data="enc", provider="anthropic")
    unknown = ThinkingBlock(text="whose?", signature="sig")
    payload, warnings = convert(
        user(text("q")),
        assistant(own, redacted, unsigned_own, anthropic, anthropic_redacted, unknown, text("a")),
    )
    assert payload["messages"][1]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "mine", "signature": "sig-b"}}},
        {"reasoningContent": {"redactedContent": "YmxvYg=="}},
        {"reasoningContent": {"reasoningText": {"text": "deepseek style"}}},
        {"text": "a"},
    ]
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].content[3]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[4]", None, None),
        ("reasoning-dropped", "warning", "messages[1].content[5]", "whose?", None),
    ]


def test_reasoning_outside_blocks_is_reported() -> None:
    _, warnings = convert(
        user(text("q")),
        assistant(text("a"), reasoning="hmm", reasoning_details=[{"type": "reasoning.text"}]),
    )
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning", "hmm", None),
        (
            "reasoning-dropped",
            "warning",
            "messages[1].reasoning_details",
            [{"type": "reasoning.text"}],
            None,
        ),
    ]


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}")),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.jpg"), detail="auto"),
        ImageBlock(source=MediaSource(type="url", url="s3://bucket/cat.JPG")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/bmp", data="Qk0=")),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            title="Q3: report",
        ),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/x-python", data="cHJpbnQoMSk=")
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T", filename="t.txt"),
        DocumentBlock(source=MediaSource(type="url", url="https://x/spec.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/x-midi", data="TVRoZA==")),
        text("describe"),
    ]
    payload, warnings = convert(user(*blocks))
    assert payload["messages"][0]["content"] == [
        {"image": {"format": "png", "source": {"bytes": PNG}}},
        {"text": "[image: https://x/cat.jpg]"},
        {"image": {"format": "jpeg", "source": {"s3Location": {"uri": "s3://bucket/cat.JPG"}}}},
        {"document": {"format": "pdf", "name": "Q3 report", "source": {"bytes": "JVBERi0="}}},
        {"document": {"format": "txt", "name": "document-1", "source": {"text": "print(1)"}}},
        {"document": {"format": "txt", "name": "T", "source": {"text": "plain"}}},
        {"text": "[document: https://x/spec.pdf]"},
        {"audio": {"format": "mpeg", "source": {"bytes": "SUQz"}}},
        {"text": "describe"},
    ]
    assert warnings == [
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[1]",
            "https://x/cat.jpg",
            "[image: https://x/cat.jpg]",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"source": "base64", "media_type": "image/bmp"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[4]",
            {"source": "file", "file_id": "file-abc"},
            None,
        ),
        ("parameter-normalized", "info", "messages[0].content[5].title", "Q3: report", "Q3 report"),
        ("content-type-unsupported", "info", "messages[0].content[6]", "text/x-python", "txt"),
        ("parameter-defaulted", "info", "messages[0].content[6].filename", None, "document-1"),
        ("field-unknown", "info", "messages[0].content[7].filename", "t.txt", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[8]",
            "https://x/spec.pdf",
            "[document: https://x/spec.pdf]",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[10]",
            {"source": "base64", "media_type": "audio/x-midi"},
            None,
        ),
    ]


def test_media_in_assistant_turn_moves_to_the_next_user_turn() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = convert(
        user(text("plot it")), assistant(text("Here:"), image), user(text("nice"))
    )
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": [{"text": "Here:"}]},
        {
            "role": "user",
            "content": [{"image": {"format": "png", "source": {"bytes": PNG}}}, {"text": "nice"}],
        },
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_document_alone_gets_a_text_block_beside_it() -> None:
    document = DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
        title="Spec",
    )
    payload, warnings = convert(user(document))
    assert payload["messages"][0]["content"][-1] == {"text": DOCUMENT_PROMPT_TEXT}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0].content[0]",
            None,
            {"text": DOCUMENT_PROMPT_TEXT},
        )
    ]


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = convert(user(text("q")), assistant(RefusalBlock(text="I can't."), cited))
    assert payload["messages"][1]["content"] == [{"text": "I can't."}, {"text": "Paris"}]
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
    ]


def test_tool_result_error_flag_and_media_are_carried() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    result = ToolResultBlock(
        tool_use_id="c1", content=[text("chart"), image, text("")], is_error=True
    )
    payload, warnings = convert(
        user(text("plot")), assistant(call("c1")), user(result), tools=TOOLS
    )
    assert payload["messages"][2]["content"] == [
        {
            "toolResult": {
                "toolUseId": "c1",
                "content": [
                    {"text": "chart"},
                    {"image": {"format": "png", "source": {"bytes": PNG}}},
                ],
                "status": "error",
            }
        }
    ]
    assert warnings == [("content-dropped", "info", "messages[2].content[0].content[2]", "", None)]


def test_empty_tool_result_gets_a_placeholder() -> None:
    payload, warnings = convert(user(text("q")), assistant(call("c1")), tool("c1", ""), tools=TOOLS)
    placeholder = [{"text": EMPTY_RESULT_TEXT}]
    assert payload["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "c1", "content": placeholder}}
    ]
    assert warnings == [
        ("parameter-defaulted", "info", "messages[2].content[0].content", "", placeholder)
    ]


def test_tool_result_cannot_hold_audio_or_thinking() -> None:
    audio = AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg=="))
    result = ToolResultBlock(tool_use_id="c1", content=[audio, text("ok")])
    _, warnings = convert(user(text("q")), assistant(call("c1")), user(result), tools=TOOLS)
    assert warnings[0][:3] == ("content-dropped", "warning", "messages[2].content[0].content[0]")


def test_empty_text_and_empty_messages_are_left_out_with_a_note() -> None:
    payload, warnings = convert(user(text("q"), text("  ")), assistant(), user(text("again")))
    assert payload["messages"] == [user_turn("q", "again")]
    assert warnings == [
        ("content-dropped", "info", "messages[0].content[1]", "  ", None),
        ("content-dropped", "info", "messages[1]", "assistant", None),
        ("role-merged", "warning", "messages[2]", "user", "user"),
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    messages = [
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    ]
    payload, warnings = convert(*messages)
    assert payload["messages"] == [
        user_turn("q"),
        {"role": "assistant", "content": [{"text": "second try"}]},
    ]
    assert warnings == [("content-dropped", "warning", "messages", 3, 2)]


def test_response_fields_stay_out_of_a_converted_request() -> None:
    answer = assistant(
        text("hi"),
        id="chatcmpl-1",
        model="gpt-4o",
        finish_reason="stop",
        extra={OC: {"$response": True}},
    )
    payload, warnings = convert(user(text("q")), answer)
    assert payload["messages"][1] == {"role": "assistant", "content": [{"text": "hi"}]}
    assert warnings == []


def test_own_blocks_keep_their_bedrock_fields_in_a_converted_conversation() -> None:
    """A Bedrock conversation that lost its shape (edited, merged) still sends its own
    reasoning and block fields, and now follows the conversion rules."""
    payload = orjson.loads((FIXTURES / "bedrock-converse" / "thinking_exchange.json").read_bytes())
    conversation = parse(payload)[0].conversation
    del conversation.extra["bedrock-converse"]["$shape"]
    rendered = render(conversation)
    assert_valid_request(rendered.payload)
    sent = rendered.payload["messages"]
    assert sent[1]["content"] == payload["request"]["messages"][1]["content"]
    assert (
        sent[3]["content"][0]["reasoningContent"]
        == (payload["response"]["output"]["message"]["content"][0]["reasoningContent"])
    )


# --------------------------------------------------------------------------- nothing silently lost

SAMPLES: dict[str, Block] = {
    "text": TextBlock(text="MARK-text"),
    "refusal": RefusalBlock(text="MARK-refusal"),
    "image": ImageBlock(source=MediaSource(type="url", url="https://x/MARK-image.png")),
    "document": DocumentBlock(source=MediaSource(type="text", data="MARK-document")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="MARK")),
    "tool_use": ToolUseBlock(id="MARK-call", name="f", input={}),
    "tool_result": ToolResultBlock(tool_use_id="MARK-result", content="MARK-result"),
    "thinking": ThinkingBlock(text="MARK-thinking", signature="s", provider="gemini"),
}
MORE_SAMPLES: list[Block] = [
    ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="MARK")),
    DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="MARK"), title="d"
    ),
    ToolResultBlock(tool_use_id="MARK-error", content="MARK-error", is_error=True),
    ThinkingBlock(text="MARK-unsigned", provider="anthropic"),
    ThinkingBlock(redacted=True, data="MARK-redacted", provider="anthropic"),
    ThinkingBlock(redacted=True, data="MARK", provider="bedrock-converse"),
    ThinkingBlock(text="MARK-signed", signature="MARK", provider="bedrock-converse"),
]


def test_every_block_type_has_a_renderer_and_a_sample() -> None:
    assert set(RENDERERS) == set(BLOCK_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
@pytest.mark.parametrize("block", [*SAMPLES.values(), *MORE_SAMPLES], ids=repr)
def test_no_block_is_dropped_silently(block: Block, role: str) -> None:
    message = Message(role=role, content=[block])  # type: ignore[arg-type]
    rendered = render(Conversation(messages=[user(text("q")), message], parameters=PARAMS))
    assert_valid_request(rendered.payload)
    carried = "MARK" in str(rendered.payload)
    warned = [w for w in rendered.warnings if (w.field or "").startswith("messages[1]")]
    assert carried or warned


# --------------------------------------------------------------------------- any conversation

ID_POOL = ["call_1", "call.2", "toolu_3", "fc:4", "", "with space", "x" * 80]


def _blocks(role: str) -> st.SearchStrategy[list[Block]]:
    texts = st.sampled_from(["hi", "", " ", "text"]).map(lambda t: TextBlock(text=t))
    media = st.sampled_from([*list(SAMPLES.values())[2:5], *MORE_SAMPLES[:2]])
    calls = st.builds(
        lambda i, n: ToolUseBlock(id=i, name=n, input={}),
        st.sampled_from(ID_POOL),
        st.sampled_from(["f", "g.h", ""]),
    )
    results = st.builds(
        lambda i, e: ToolResultBlock(tool_use_id=i, content="r", is_error=e),
        st.sampled_from(ID_POOL),
        st.sampled_from([None, True, False]),
    )
    thinking = st.builds(
        ThinkingBlock,
        text=st.sampled_from(["", "t"]),
        signature=st.sampled_from([None, "sig"]),
        redacted=st.booleans(),
        data=st.sampled_from([None, "ZA=="]),
        provider=st.sampled_from([None, "bedrock-converse", "anthropic"]),
    )
    refusals = st.just(RefusalBlock(text="no"))
    kinds = {
        "assistant": texts | calls | thinking | refusals | media,
        "tool": results | texts,
    }.get(role, texts | media | results | calls)
    return st.lists(kinds, max_size=4)


_messages = st.sampled_from(["system", "developer", "user", "assistant", "tool"]).flatmap(
    lambda role: st.builds(
        Message,
        role=st.just(role),
        content=_blocks(role),
        tool_call_id=st.sampled_from([None, *ID_POOL]) if role == "tool" else st.none(),
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    messages=st.lists(_messages, max_size=8),
    tools=st.booleans(),
    choice=st.sampled_from([None, "auto", "required", "none", "tool"]),
)
def test_any_conversation_renders_as_a_request_converse_accepts(
    messages: list[Message], tools: bool, choice: str | None
) -> None:
    conversation = Conversation(
        messages=messages,
        tools=[Tool(name="f", parameters={"type": "object"})] if tools else [],
        tool_choice=ToolChoice(type=choice, name="f" if choice == "tool" else None)  # type: ignore[arg-type]
        if choice
        else None,
    )
    rendered = render(conversation)
    assert_valid_request(rendered.payload)


# ------------------------------------------------------------------------- other formats' fixtures

FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "bedrock-converse"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize(("format_id", "name"), FOREIGN_FIXTURES)
def test_other_formats_fixtures_convert_to_valid_requests(format_id: str, name: str) -> None:
    try:
        items = parse_as(format_id, orjson.loads((FIXTURES / format_id / name).read_bytes())).items
    except FormatError as error:  # another format's own reading is its tests' business
        pytest.skip(f"{format_id} does not read {name}: {error}")
    for item in items:
        rendered = render(item.conversation)
        assert_valid_request(rendered.payload)
        assert all(w.field and w.source == "bedrock-converse" for w in rendered.warnings)
