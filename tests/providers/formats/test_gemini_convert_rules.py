"""The ``gemini`` renderer, one conversion rule at a time: the exact payload and drift
warnings for each lossy cell of the reference's conversion matrix (column GE). The UMF values
are built the way an ``openai-chat`` or ``anthropic`` import looks."""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.gemini import SIGNATURE_PLACEHOLDER
from providers.formats.gemini._constants import BRIDGE_USER_TEXT, MISSING_RESULT_TEXT
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
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
from tests.providers.formats.test_gemini_convert import (
    OC,
    PNG,
    assistant,
    call,
    convert,
    parts_of,
    text,
    tool,
    user,
)

# --------------------------------------------------------------------------- system prompts


def test_leading_system_is_the_system_instruction_and_developer_is_noted() -> None:
    payload, warnings = convert(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
    }
    assert warnings == []
    _, warnings = convert(Message(role="developer", content=[text("Be brief.")]), user(text("hi")))
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "systemInstruction")
    ]


def test_mid_conversation_system_message_moves_to_the_system_instruction() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = convert(
        user(text("hi")),
        assistant(text("hello")),
        Message(role="system", content=[text("Now answer in French."), image]),
        user(text("ça va ?")),
    )
    assert payload["systemInstruction"] == {"parts": [{"text": "Now answer in French."}]}
    assert [content["role"] for content in payload["contents"]] == ["user", "model", "user"]
    assert warnings == [
        ("system-message-transformed", "warning", "messages[2]", "system", "systemInstruction"),
        ("content-dropped", "warning", "messages[2].content[1]", "inlineData", None),
    ]


# --------------------------------------------------------------------------- media


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(
            source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}"), detail="low"
        ),
        ImageBlock(
            source=MediaSource(type="url", url="https://example.com/cat.jpg"), detail="auto"
        ),
        ImageBlock(source=MediaSource(type="url", url="https://example.com/chart")),
        ImageBlock(
            source=MediaSource(
                type="file", file_id="https://generativelanguage.googleapis.com/v1beta/files/x1"
            )
        ),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        ImageBlock(source=MediaSource(type="base64", data=PNG)),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="not base64!")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            filename="a.pdf",
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T"),
        DocumentBlock(source=MediaSource(type="url", url="https://example.com/paper.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("describe"),
    ]
    payload, warnings = convert(user(*blocks))
    assert parts_of(payload, 0) == [
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.jpg"}},
        {"fileData": {"fileUri": "https://example.com/chart"}},
        {"fileData": {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/x1"}},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0="}},
        {"inlineData": {"mimeType": "text/plain", "data": "cGxhaW4="}},
        {"fileData": {"mimeType": "application/pdf", "fileUri": "https://example.com/paper.pdf"}},
        {"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}},
        {"text": "describe"},
    ]
    cat = {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.jpg"}}
    paper = {
        "fileData": {"mimeType": "application/pdf", "fileUri": "https://example.com/paper.pdf"}
    }
    assert warnings == [
        ("field-unknown", "info", "messages[0].content[1].detail", "low", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[2]",
            cat["fileData"]["fileUri"],
            cat,
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[3]",
            "https://example.com/chart",
            {"fileData": {"fileUri": "https://example.com/chart"}},
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[5]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        (
            "parameter-defaulted",
            "info",
            "messages[0].content[6].source.media_type",
            None,
            "image/png",
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[7]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
        ("field-unknown", "info", "messages[0].content[8].filename", "a.pdf", None),
        ("field-unknown", "info", "messages[0].content[9].title", "T", None),
        (
            "content-type-unsupported",
            "warning",
            "messages[0].content[10]",
            paper["fileData"]["fileUri"],
            paper,
        ),
    ]


def test_images_stay_in_the_model_turn() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = convert(user(text("draw")), assistant(text("Here:"), image))
    assert parts_of(payload, 1) == [
        {"text": "Here:"},
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
    ]
    assert warnings == []


# --------------------------------------------------------------------------- tools


def test_tool_schemas() -> None:
    tools = [
        Tool(name="plain", description="d", parameters={"type": "object", "properties": {"a": {}}}),
        Tool(name="noargs", parameters={"type": "object", "properties": {}}),
        Tool(
            name="strict",
            parameters={"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
        ),
        Tool(name="bare"),
    ]
    payload, warnings = convert(user(text("q")), tools=tools)
    assert payload["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "plain",
                    "description": "d",
                    "parameters": {"type": "object", "properties": {"a": {}}},
                },
                {"name": "noargs"},
                {
                    "name": "strict",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"a": {"type": ["string", "null"]}},
                    },
                },
                {"name": "bare"},
            ]
        }
    ]
    assert warnings == [
        (
            "parameter-normalized",
            "info",
            "tools[2].parameters",
            "parameters",
            "parametersJsonSchema",
        )
    ]


@pytest.mark.parametrize(
    ("choice", "config"),
    [
        (ToolChoice(type="auto"), {"mode": "AUTO"}),
        (ToolChoice(type="none"), {"mode": "NONE"}),
        (ToolChoice(type="required"), {"mode": "ANY"}),
        (ToolChoice(type="tool", name="f"), {"mode": "ANY", "allowedFunctionNames": ["f"]}),
    ],
)
def test_tool_choice(choice: ToolChoice, config: dict[str, Any]) -> None:
    payload, warnings = convert(user(text("q")), tools=[Tool(name="f")], tool_choice=choice)
    assert payload["toolConfig"] == {"functionCallingConfig": config}
    assert warnings == []


def test_tool_choice_without_tools_or_with_an_unknown_tool() -> None:
    payload, warnings = convert(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "toolConfig" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]
    payload, warnings = convert(
        user(text("q")), tools=[Tool(name="f")], tool_choice=ToolChoice(type="tool", name="g")
    )
    assert payload["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}
    assert warnings == [("parameter-normalized", "warning", "tool_choice.name", "g", "ANY")]


def test_call_ids_are_dropped_and_the_first_call_signed() -> None:
    payload, warnings = convert(
        user(text("go")),
        assistant(call("call_1", "a", x=1), call("call_2", "b")),
        tool("call_1", '{"ok": true}'),
        tool("call_2", '{"ok": false}'),
    )
    assert parts_of(payload, 1) == [
        {
            "functionCall": {"name": "a", "args": {"x": 1}},
            "thoughtSignature": SIGNATURE_PLACEHOLDER,
        },
        {"functionCall": {"name": "b", "args": {}}},
    ]
    assert parts_of(payload, 2) == [
        {"functionResponse": {"name": "a", "response": {"ok": True}}},
        {"functionResponse": {"name": "b", "response": {"ok": False}}},
    ]
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "call_1", None),
        ("id-rewritten", "info", "messages[1].content[1].id", "call_2", None),
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("parameter-defaulted", "info", "messages[1].content[0]", None, SIGNATURE_PLACEHOLDER),
    ]


def test_results_are_answered_in_call_order_and_first() -> None:
    payload, warnings = convert(
        user(text("go")),
        assistant(call("c1", "a"), call("c2", "b")),
        user(text("also"), ToolResultBlock(tool_use_id="c2", content="{}")),
        tool("c1", "{}"),
    )
    assert [next(iter(part)) for part in parts_of(payload, 2)] == [
        "functionResponse",
        "functionResponse",
        "text",
    ]
    assert [part["functionResponse"]["name"] for part in parts_of(payload, 2)[:2]] == ["a", "b"]
    assert [w for w in warnings if w[0] in ("message-reordered", "role-merged")] == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", 2, 0),
    ]


def test_unanswered_call_gets_an_error_response() -> None:
    payload, warnings = convert(user(text("go")), assistant(call("c1", "lookup")))
    inserted = {"functionResponse": {"name": "lookup", "response": {"error": MISSING_RESULT_TEXT}}}
    assert payload["contents"][-1] == {"role": "user", "parts": [inserted]}
    assert ("message-reordered", "warning", "messages[1].content[0]", None, inserted) in warnings


def test_result_answering_no_call_becomes_text() -> None:
    payload, warnings = convert(user(text("go")), assistant(text("ok")), tool("call_x", "late"))
    assert parts_of(payload, 2) == [{"text": '[function result call_x] call_x: {"output":"late"}'}]
    assert warnings[-1] == (
        "content-type-unsupported",
        "warning",
        "messages[2].content[0]",
        "tool_result",
        "text",
    )


def test_misplaced_call_becomes_text() -> None:
    payload, warnings = convert(user(text("q"), call("c1", "f", a=1)))
    assert parts_of(payload, 0) == [{"text": "q"}, {"text": '[function call c1] f({"a":1})'}]
    assert warnings == [
        ("id-rewritten", "info", "messages[0].content[1].id", "c1", None),
        ("content-type-unsupported", "warning", "messages[0].content[1]", "tool_use", "text"),
    ]


def test_tool_result_wrapping() -> None:
    payload, warnings = convert(
        user(text("go")),
        assistant(call("c1", "a"), call("c2", "b"), call("c3", "c")),
        tool("c1", '{"temp": 18}'),
        tool("c2", "18 C"),
        tool("c3", '{"code": 404}', is_error=True),
    )
    assert [part["functionResponse"]["response"] for part in parts_of(payload, 2)] == [
        {"temp": 18},
        {"output": "18 C"},
        {"error": {"code": 404}},
    ]
    assert [w for w in warnings if w[0] == "content-type-unsupported"] == [
        (
            "content-type-unsupported",
            "warning",
            "messages[3].content[0]",
            "18 C",
            {"output": "18 C"},
        ),
        (
            "content-type-unsupported",
            "warning",
            "messages[4].content[0]",
            '{"code": 404}',
            {"error": {"code": 404}},
        ),
    ]


def test_invalid_argument_string_sends_an_empty_object() -> None:
    broken = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    payload, warnings = convert(
        user(text("go")), assistant(broken, valid), tool("c1", "{}"), tool("c2", "{}")
    )
    assert [part["functionCall"]["args"] for part in parts_of(payload, 1)] == [{}, {"a": [1]}]
    assert (
        "content-dropped",
        "warning",
        "messages[1].content[0].raw_arguments",
        "{not json",
        {},
    ) in warnings


# --------------------------------------------------------------------------- reasoning


def test_reasoning_travels_only_back_to_gemini() -> None:
    own = ThinkingBlock(text="mine", signature="c2ln", provider="gemini")
    foreign = ThinkingBlock(text="theirs", signature="sig-a", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    unknown = ThinkingBlock(text="whose?")
    payload, warnings = convert(
        user(text("q")),
        assistant(own, foreign, redacted, unknown, text("answer"), reasoning="loose text"),
    )
    assert parts_of(payload, 1) == [
        {"text": "mine", "thought": True, "thoughtSignature": "c2ln"},
        {"text": "answer"},
    ]
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning", "loose text", None),
        ("reasoning-dropped", "warning", "messages[1].content[1]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[2]", None, None),
        ("reasoning-dropped", "warning", "messages[1].content[3]", "whose?", None),
    ]
    assert "sig-a" not in str(payload) and "blob" not in str(payload)


# --------------------------------------------------------------------------- turns


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = convert(user(text("q")), assistant(RefusalBlock(text="I can't."), cited))
    assert parts_of(payload, 1) == [{"text": "I can't."}, {"text": "Paris"}]
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


def test_consecutive_messages_merge_and_empty_ones_are_left_out() -> None:
    payload, warnings = convert(
        user(text("one"), text("")),
        user(text("two"), name="alice"),
        assistant(),
        assistant(text("ok")),
    )
    assert payload["contents"] == [
        {"role": "user", "parts": [{"text": "one"}, {"text": "two"}]},
        {"role": "model", "parts": [{"text": "ok"}]},
    ]
    assert warnings == [
        ("content-dropped", "warning", "messages[1].name", "alice", None),
        ("content-dropped", "info", "messages[0].content[1]", "", None),
        ("content-dropped", "info", "messages[2]", "assistant", None),
        ("role-merged", "warning", "messages[1]", "user", "user"),
    ]


def test_conversation_starting_with_the_model_gets_a_bridge_turn() -> None:
    payload, warnings = convert(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["contents"][0] == {"role": "user", "parts": [{"text": BRIDGE_USER_TEXT}]}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0]",
            None,
            {"role": "user", "parts": [{"text": BRIDGE_USER_TEXT}]},
        )
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    payload, warnings = convert(
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    )
    assert [parts[0]["text"] for parts in (c["parts"] for c in payload["contents"])] == [
        "q",
        "second try",
    ]
    assert warnings[0] == ("content-dropped", "warning", "messages", 3, 2)


def test_per_message_facts_are_noted_once() -> None:
    answer = assistant(
        text("hi"),
        id="chatcmpl-1",
        model="gpt-4o",
        finish_reason="stop",
        extra={OC: {"$response": True}},
    )
    _, warnings = convert(user(text("q")), answer)
    assert warnings == [
        ("content-dropped", "info", "messages", ["finish_reason", "id", "model"], None)
    ]


# --------------------------------------------------------------------------- parameters


def test_parameters() -> None:
    parameters = Parameters(
        model="gpt-4o",
        temperature=2.5,
        top_p=0.9,
        top_k=5,
        max_tokens=300,
        stop=["a", "b", "c", "d", "e", "f"],
        seed=3,
        frequency_penalty=0.5,
        presence_penalty=-0.2,
        user="u1",
        stream=True,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = convert(user(text("hi")), parameters=parameters)
    assert payload["generationConfig"] == {
        "temperature": 2.0,
        "topP": 0.9,
        "topK": 5,
        "maxOutputTokens": 300,
        "stopSequences": ["a", "b", "c", "d", "e"],
        "seed": 3,
        "presencePenalty": -0.2,
        "frequencyPenalty": 0.5,
    }
    assert warnings == [
        ("parameter-clamped", "warning", "parameters.temperature", 2.5, 2.0),
        (
            "stop-sequences-truncated",
            "warning",
            "parameters.stop",
            ["a", "b", "c", "d", "e", "f"],
            ["a", "b", "c", "d", "e"],
        ),
        ("parameter-unsupported", "warning", "parameters.user", "u1", None),
        ("parameter-unsupported", "info", "parameters.stream", True, None),
        ("parameter-unsupported", "info", "parameters.model", "gpt-4o", None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_user_text_right_after_a_tool_result_joins_its_turn() -> None:
    payload, warnings = convert(
        user(text("go")), assistant(call("c1", "f")), tool("c1", "{}"), user(text("and then?"))
    )
    assert parts_of(payload, 2) == [
        {"functionResponse": {"name": "f", "response": {}}},
        {"text": "and then?"},
    ]
    assert warnings[-2:] == [
        ("role-merged", "warning", "messages[3]", "user", "user"),
        ("parameter-defaulted", "info", "messages[1].content[0]", None, SIGNATURE_PLACEHOLDER),
    ]
