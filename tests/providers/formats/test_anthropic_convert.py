"""The ``anthropic`` renderer fed conversations from other formats: what it sends, and the
exact drift warning for every lossy step. The UMF values are built the way an
``openai-chat`` import looks (tool-role messages, argument strings, detail hints...)."""

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
from providers.formats.anthropic import DEFAULT_MAX_TOKENS, DEFAULT_MODEL, render
from providers.formats.anthropic._constants import BRIDGE_USER_TEXT, MISSING_RESULT_TEXT
from providers.formats.anthropic._render_blocks import RENDERERS
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
from tests.providers.sdk_validation import validate_anthropic_request

OC = "openai-chat"
# A 1x1 PNG.
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="claude-sonnet-4-5", max_tokens=1000)
TOOL_ID = re.compile(r"^[a-zA-Z0-9_-]+$")


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def convert(*messages: Message, **fields: Any) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render messages from another format; the payload must be a request the API takes."""
    fields.setdefault("parameters", PARAMS)
    rendered = render(Conversation(messages=list(messages), **fields))
    assert_valid_request(rendered.payload)
    assert all(w.source == "anthropic" for w in rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def blocks_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def assert_valid_request(payload: dict[str, Any]) -> None:
    """The SDK's request type, plus the rules a TypedDict cannot say."""
    validate_anthropic_request(payload)
    messages = payload["messages"]
    assert messages and messages[0]["role"] == "user"
    previous_calls: list[str] = []
    for index, message in enumerate(messages):
        assert message["role"] in ("user", "assistant")
        if index:
            assert message["role"] != messages[index - 1]["role"]
        blocks = blocks_of(message)
        assert blocks
        for block in blocks:
            assert block["type"] != "text" or block["text"].strip()
        types = [block["type"] for block in blocks]
        results = [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]
        assert types[: len(results)] == ["tool_result"] * len(results)
        assert sorted(results) == sorted(previous_calls)
        previous_calls = [b["id"] for b in blocks if b["type"] == "tool_use"]
        assert all(TOOL_ID.fullmatch(call) for call in previous_calls)
        assert message["role"] == "assistant" or not previous_calls
    assert not previous_calls
    system = payload.get("system")
    if isinstance(system, list):
        assert all(block["type"] == "text" and block["text"].strip() for block in system)


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


# --------------------------------------------------------------------------- a whole import


def test_openai_chat_import_converts_with_exact_payload_and_warnings() -> None:
    conversation = Conversation(
        messages=[
            Message(role="system", content=[text("You are a travel agent.")]),
            user(text("Book me a trip to Paris."), name="alice"),
            Message(role="developer", content=[text("Prices in EUR.")]),
            assistant(
                ToolUseBlock(
                    id="call_9f.x",
                    name="search",
                    input={"q": "Paris"},
                    raw_arguments='{"q": "Paris"}',
                ),
                ToolUseBlock(id="call_b", name="book", input={}, raw_arguments='{"q": "Par'),
                reasoning="Two calls.",
                extra={OC: {"refusal": None, "annotations": [], "audio": {"id": "a1"}}},
            ),
            tool("call_9f.x", "3 flights"),
            tool("call_b", "booked", is_error=True),
            user(text("Thanks")),
        ],
        tools=[
            Tool(name="search", parameters={"type": "object"}, extra={OC: {"strict": True}}),
            Tool(name="book", description="Book a flight"),
        ],
        tool_choice=ToolChoice(type="required"),
        parameters=Parameters(model="gpt-4o", temperature=0.2, seed=3, parallel_tool_calls=False),
        extra={OC: {"$shape": "request", "n": 1}},
    )
    rendered = render(conversation)
    rewritten = [w for w in rendered.warnings if w.category == "id-rewritten"]
    assert len(rewritten) == 1
    new_id = rewritten[0].transformed_value
    assert re.fullmatch(r"toolu_[0-9a-f]{24}", new_id)
    assert rendered.payload == {
        "model": "gpt-4o",
        "max_tokens": DEFAULT_MAX_TOKENS,
        "system": [
            {"type": "text", "text": "You are a travel agent."},
            {"type": "text", "text": "Prices in EUR."},
        ],
        "messages": [
            {"role": "user", "content": "Book me a trip to Paris."},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": new_id, "name": "search", "input": {"q": "Paris"}},
                    {"type": "tool_use", "id": "call_b", "name": "book", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": new_id, "content": "3 flights"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_b",
                        "content": "booked",
                        "is_error": True,
                    },
                    {"type": "text", "text": "Thanks"},
                ],
            },
        ],
        "tools": [
            {"name": "search", "input_schema": {"type": "object"}},
            {
                "name": "book",
                "description": "Book a flight",
                "input_schema": {"type": "object", "properties": {}},
            },
        ],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
    }
    assert summary(rendered.warnings) == [
        ("content-dropped", "warning", "messages[1].name", "alice", None),
        ("system-message-transformed", "warning", "messages[2]", "developer", "system"),
        ("reasoning-dropped", "warning", "messages[3].reasoning", "Two calls.", None),
        ("field-unknown", "info", "messages[3].extra.openai-chat", {"audio": {"id": "a1"}}, None),
        ("content-dropped", "warning", "messages[3].content[1].raw_arguments", '{"q": "Par', {}),
        ("id-rewritten", "info", "messages[3].content[0].id", "call_9f.x", new_id),
        ("role-merged", "warning", "messages[5]", "tool", "user"),
        ("role-merged", "warning", "messages[6]", "user", "user"),
        ("parameter-defaulted", "warning", "parameters.max_tokens", None, DEFAULT_MAX_TOKENS),
        ("parameter-unsupported", "warning", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "warning", "parameters.seed", 3, None),
        ("field-unknown", "info", "tools[0].extra.openai-chat", {"strict": True}, None),
        (
            "parameter-defaulted",
            "info",
            "tools[1].parameters",
            None,
            {"type": "object", "properties": {}},
        ),
        ("field-unknown", "info", "extra.openai-chat", {"n": 1}, None),
    ]
    assert_valid_request(rendered.payload)


# --------------------------------------------------------------------------- one rule each


def test_leading_system_becomes_a_string_and_developer_is_noted() -> None:
    payload, warnings = convert(
        Message(role="system", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == "Be brief."
    assert warnings == []
    payload, warnings = convert(
        Message(role="developer", content=[text("Be brief.")]), user(text("hi"))
    )
    assert payload["system"] == "Be brief."
    assert warnings == [
        ("system-message-transformed", "info", "messages[0]", "developer", "system")
    ]


def test_system_prompt_keeps_text_only() -> None:
    image = ImageBlock(source=MediaSource(type="url", url="https://x/y.png"))
    payload, warnings = convert(
        Message(role="system", content=[text("Rules"), image]), user(text("hi"))
    )
    assert payload["system"] == "Rules"
    assert warnings == [("content-dropped", "warning", "messages[0].content[1]", "image", None)]


def test_missing_model_and_max_tokens_are_defaulted() -> None:
    payload, warnings = convert(user(text("hi")), parameters=Parameters())
    assert (payload["model"], payload["max_tokens"]) == (DEFAULT_MODEL, DEFAULT_MAX_TOKENS)
    assert warnings == [
        ("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-defaulted", "warning", "parameters.max_tokens", None, DEFAULT_MAX_TOKENS),
    ]


def test_sampling_and_penalties_are_dropped_when_converting() -> None:
    parameters = Parameters(
        model="m",
        max_tokens=5,
        temperature=1.0,
        top_p=0.9,
        top_k=5,
        frequency_penalty=0.5,
        presence_penalty=0.1,
        stop=["###"],
        user="u1",
        stream=True,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = convert(user(text("hi")), parameters=parameters)
    assert payload == {
        "model": "m",
        "max_tokens": 5,
        "stop_sequences": ["###"],
        "stream": True,
        "metadata": {"user_id": "u1"},
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert warnings == [
        ("parameter-unsupported", "warning", "parameters.temperature", 1.0, None),
        ("parameter-unsupported", "warning", "parameters.top_p", 0.9, None),
        ("parameter-unsupported", "warning", "parameters.top_k", 5, None),
        ("parameter-unsupported", "warning", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "warning", "parameters.presence_penalty", 0.1, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_conversation_starting_with_assistant_gets_a_bridge_user_turn() -> None:
    payload, warnings = convert(assistant(text("Hello! How can I help?")), user(text("Hi")))
    assert payload["messages"][0] == {"role": "user", "content": BRIDGE_USER_TEXT}
    assert warnings == [
        (
            "message-reordered",
            "warning",
            "messages[0]",
            None,
            {"role": "user", "content": BRIDGE_USER_TEXT},
        )
    ]


def test_consecutive_same_role_messages_are_merged() -> None:
    payload, warnings = convert(user(text("one")), user(text("two")), assistant(text("ok")))
    assert payload["messages"][0] == {
        "role": "user",
        "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
    }
    assert warnings == [("role-merged", "warning", "messages[1]", "user", "user")]


def test_tool_results_move_before_user_text() -> None:
    call = ToolUseBlock(id="call_1", name="f", input={})
    payload, warnings = convert(
        user(text("go")), assistant(call), user(text("also this")), tool("call_1", "done")
    )
    assert [b["type"] for b in payload["messages"][2]["content"]] == ["tool_result", "text"]
    assert warnings == [
        ("role-merged", "warning", "messages[3]", "tool", "user"),
        ("message-reordered", "warning", "messages[3].content[0]", "after other content", "first"),
    ]


def test_unanswered_tool_call_gets_an_error_result() -> None:
    call = ToolUseBlock(id="call_1", name="f", input={"a": 1})
    payload, warnings = convert(user(text("go")), assistant(call))
    synthesized = {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": MISSING_RESULT_TEXT,
        "is_error": True,
    }
    assert payload["messages"][-1] == {"role": "user", "content": [synthesized]}
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[0]", None, synthesized)
    ]


def test_tool_result_answering_no_call_becomes_text() -> None:
    payload, warnings = convert(user(text("go")), assistant(text("ok")), tool("call_x", "late"))
    assert payload["messages"][-1] == {"role": "user", "content": "[tool result call_x]\nlate"}
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[2].content[0]", "tool_result", "text")
    ]


def test_tool_ids_are_rewritten_the_same_way_for_calls_and_results() -> None:
    call = ToolUseBlock(id="functions.lookup:0", name="lookup", input={})
    payload, warnings = convert(user(text("go")), assistant(call), tool("functions.lookup:0", "r"))
    call_id = payload["messages"][1]["content"][0]["id"]
    assert payload["messages"][2]["content"][0]["tool_use_id"] == call_id
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "functions.lookup:0", call_id)
    ]
    again, _ = convert(user(text("go")), assistant(call), tool("functions.lookup:0", "r"))
    assert again == payload


def test_invalid_argument_string_sends_an_empty_object() -> None:
    call = ToolUseBlock(id="c1", name="f", input={}, raw_arguments="{not json")
    valid = ToolUseBlock(id="c2", name="f", input={}, raw_arguments='{"a": [1]}')
    listed = ToolUseBlock(id="c3", name="f", input=[1, 2])
    payload, warnings = convert(
        user(text("go")),
        assistant(call, valid, listed),
        tool("c1", "x"),
        tool("c2", "y"),
        tool("c3", "z"),
    )
    assert [b["input"] for b in payload["messages"][1]["content"]] == [{}, {"a": [1]}, {}]
    assert warnings[:2] == [
        ("content-dropped", "warning", "messages[1].content[0].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]


def test_thinking_travels_only_back_to_anthropic() -> None:
    own = ThinkingBlock(text="mine", signature="sig-a", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    foreign = ThinkingBlock(text="theirs", signature="enc", provider="openai-responses")
    unknown = ThinkingBlock(text="whose?", signature="sig")
    unsigned = ThinkingBlock(text="no signature", provider="anthropic")
    payload, warnings = convert(
        user(text("q")), assistant(own, redacted, foreign, unknown, unsigned, text("answer"))
    )
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "mine", "signature": "sig-a"},
        {"type": "redacted_thinking", "data": "blob"},
        {"type": "text", "text": "answer"},
    ]
    assert [w[:5] for w in warnings] == [
        ("reasoning-dropped", "warning", "messages[1].content[2]", "theirs", None),
        ("reasoning-dropped", "warning", "messages[1].content[3]", "whose?", None),
        ("reasoning-dropped", "warning", "messages[1].content[4]", "no signature", None),
    ]
    assert "enc" not in str(payload) and "'sig'" not in str(payload)


def test_media_conversions() -> None:
    blocks: list[Block] = [
        ImageBlock(
            source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}"), detail="low"
        ),
        ImageBlock(source=MediaSource(type="url", url="https://x/cat.jpg"), detail="auto"),
        ImageBlock(source=MediaSource(type="base64", media_type="image/bmp", data="Qk0=")),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0="),
            filename="a.pdf",
        ),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/csv", data="YSxiCjEsMg==")
        ),
        DocumentBlock(source=MediaSource(type="text", data="plain"), title="T", filename="t.txt"),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
        text("describe"),
    ]
    payload, warnings = convert(user(*blocks))
    assert payload["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        {"type": "image", "source": {"type": "url", "url": "https://x/cat.jpg"}},
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
            "title": "a.pdf",
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "a,b\n1,2"},
        },
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "plain"},
            "title": "T",
        },
        {"type": "text", "text": "describe"},
    ]
    assert warnings == [
        ("field-unknown", "info", "messages[0].content[0].detail", "low", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"source": "base64", "media_type": "image/bmp"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"source": "file", "file_id": "file-abc"},
            None,
        ),
        ("field-unknown", "info", "messages[0].content[6].filename", "t.txt", None),
        (
            "content-dropped",
            "warning",
            "messages[0].content[7]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav"},
            None,
        ),
    ]


def test_media_in_assistant_turn_moves_to_the_next_user_turn() -> None:
    image = ImageBlock(source=MediaSource(type="url", url="https://x/chart.png"))
    payload, warnings = convert(
        user(text("plot it")), assistant(text("Here:"), image), user(text("nice"))
    )
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": "Here:"},
        {
            "role": "user",
            "content": [
                {"type": "image", "source": {"type": "url", "url": "https://x/chart.png"}},
                {"type": "text", "text": "nice"},
            ],
        },
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_refusal_and_citations() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = convert(user(text("q")), assistant(RefusalBlock(text="I can't."), cited))
    assert payload["messages"][1]["content"] == [
        {"type": "text", "text": "I can't."},
        {"type": "text", "text": "Paris"},
    ]
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


def test_empty_text_and_empty_messages_are_left_out_with_a_note() -> None:
    payload, warnings = convert(user(text("q"), text("  ")), assistant(), user(text("again")))
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "q"}, {"type": "text", "text": "again"}],
        }
    ]
    assert warnings == [
        ("content-dropped", "info", "messages[0].content[1]", "  ", None),
        ("content-dropped", "info", "messages[1]", "assistant", None),
        ("role-merged", "warning", "messages[2]", "user", "user"),
    ]


def test_tool_result_with_blocks_keeps_text_and_images() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    result = ToolResultBlock(
        tool_use_id="c1", content=[text("chart"), image, text("")], is_error=False
    )
    call = ToolUseBlock(id="c1", name="plot", input={})
    payload, warnings = convert(user(text("plot")), assistant(call), user(result))
    assert payload["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "c1",
            "content": [
                {"type": "text", "text": "chart"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
            "is_error": False,
        }
    ]
    assert warnings == [("content-dropped", "info", "messages[2].content[0].content[2]", "", None)]


def test_tool_message_without_result_block_is_wrapped() -> None:
    call = ToolUseBlock(id="c1", name="f", input={})
    bare = Message(role="tool", tool_call_id="c1", content=[text("42")])
    payload, warnings = convert(user(text("q")), assistant(call), bare)
    assert payload["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "42"}]}
    ]
    assert warnings == []


def test_tool_choice_without_tools_is_left_out() -> None:
    payload, warnings = convert(user(text("q")), tool_choice=ToolChoice(type="auto"))
    assert "tool_choice" not in payload
    assert warnings == [("parameter-normalized", "info", "tool_choice", "auto", None)]


def test_named_tool_choice() -> None:
    tools = [Tool(name="f", parameters={"type": "object"})]
    payload, _ = convert(
        user(text("q")), tools=tools, tool_choice=ToolChoice(type="tool", name="f")
    )
    assert payload["tool_choice"] == {"type": "tool", "name": "f"}


def test_branches_are_reduced_to_the_main_thread() -> None:
    messages = [
        user(text("q"), id="1"),
        assistant(text("first try"), id="2", parent_id="1"),
        assistant(text("second try"), id="3", parent_id="1"),
    ]
    payload, warnings = convert(*messages)
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "second try"},
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
    assert payload["messages"][1] == {"role": "assistant", "content": "hi"}
    assert warnings == []


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


def test_every_block_type_has_a_renderer_and_a_sample() -> None:
    assert set(RENDERERS) == set(BLOCK_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
@pytest.mark.parametrize("block_type", BLOCK_TYPES)
def test_no_block_is_dropped_silently(block_type: str, role: str) -> None:
    message = Message(role=role, content=[SAMPLES[block_type]])  # type: ignore[arg-type]
    rendered = render(Conversation(messages=[user(text("q")), message], parameters=PARAMS))
    assert_valid_request(rendered.payload)
    carried = "MARK" in str(rendered.payload)
    warned = [w for w in rendered.warnings if (w.field or "").startswith("messages[1]")]
    assert carried or warned


# --------------------------------------------------------------------------- any conversation

ID_POOL = ["call_1", "call.2", "toolu_3", "fc:4", ""]


def _blocks(role: str) -> st.SearchStrategy[list[Block]]:
    texts = st.sampled_from(["hi", "", " ", "text"]).map(lambda t: TextBlock(text=t))
    media = st.sampled_from(list(SAMPLES.values())[2:5])
    calls = st.sampled_from(ID_POOL).map(
        lambda i: ToolUseBlock(id=i, name="f", input={}, raw_arguments=None)
    )
    results = st.sampled_from(ID_POOL).map(lambda i: ToolResultBlock(tool_use_id=i, content="r"))
    thinking = st.builds(
        ThinkingBlock,
        text=st.sampled_from(["", "t"]),
        signature=st.sampled_from([None, "sig"]),
        redacted=st.booleans(),
        data=st.sampled_from([None, "d"]),
        provider=st.sampled_from([None, "anthropic", "openai"]),
    )
    refusals = st.just(RefusalBlock(text="no"))
    kinds = {
        "assistant": texts | calls | thinking | refusals | media,
        "tool": results | texts,
    }.get(role, texts | media | results)
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
@given(messages=st.lists(_messages, max_size=8), tools=st.booleans())
def test_any_conversation_renders_as_a_request_the_api_accepts(
    messages: list[Message], tools: bool
) -> None:
    conversation = Conversation(
        messages=messages,
        tools=[Tool(name="f", parameters={"type": "object"})] if tools else [],
        tool_choice=ToolChoice(type="required"),
    )
    rendered = render(conversation)
    assert_valid_request(rendered.payload)


# ------------------------------------------------------------------------- other formats' fixtures

FIXTURES = Path(__file__).parents[2] / "fixtures"
FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "anthropic"
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
        assert all(w.field and w.source == "anthropic" for w in rendered.warnings)
