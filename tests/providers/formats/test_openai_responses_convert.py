"""The ``openai-responses`` renderer fed conversations from other formats: what it sends,
and the exact drift warning for every lossy step of the reference's matrix (column OR).

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.openai_responses import DEFAULT_MODEL
from providers.formats.openai_responses._sequence import ORPHAN_CALL_OUTPUT
from providers.umf import (
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
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_request,
)

FORMAT_ID = "openai-responses"
RESPONSES = formats.get(FORMAT_ID)
FIXTURES = Path(__file__).parents[2] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD"
    + "hgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="gpt-5")
RS_ID = "rs_68a1f0c2d48191b6b2f7d0a35e2c6f0a"
FC_ID = "fc_68a1f3a7c08191b1d2e3f4a5b6c7d80a"


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that the API would take it, and give back payload and warnings."""
    rendered = RESPONSES.render(conversation)
    validate_openai_responses_request(rendered.payload)
    check_openai_responses_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    assert {w.source for w in rendered.warnings} <= {FORMAT_ID}
    return rendered.payload, rendered.warnings


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [(w.category, w.field, w.original_value, w.transformed_value) for w in warnings]


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text]
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        return [value for value in (source.data, source.url, source.file_id) if value]
    if isinstance(block, ToolUseBlock):
        return [block.name]
    if isinstance(block, ToolResultBlock) and isinstance(block.content, str):
        return [block.content]
    return []


def assert_nothing_silently_dropped(
    conversation: Conversation, payload: Any, warnings: list[DriftWarning]
) -> None:
    text = orjson.dumps(payload).decode()
    warned = [w.field or "" for w in warnings]

    def check(block: Block, path: str) -> None:
        # A warning on the block, inside it, or on its whole message accounts for it.
        message_path = path.split(".")[0]
        if any(
            field in (path, message_path) or field.startswith((f"{path}.", f"{path}["))
            for field in warned
        ):
            return
        for marker in _markers(block):
            assert orjson.dumps(marker).decode()[1:-1] in text, f"{path} lost {marker!r} silently"
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            for index, inner in enumerate(block.content):
                check(inner, f"{path}.content[{index}]")

    for index, message in enumerate(conversation.messages):
        for position, block in enumerate(message.content):
            check(block, f"messages[{index}].content[{position}]")


def from_fixture(format_id: str, name: str) -> tuple[Any, Conversation]:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.get(format_id).parse(payload)
    return payload, Conversation.model_validate_json(item.conversation.model_dump_json())


def rewritten(call_id: str) -> str:
    """The id ToolIdMap gives a call id OpenAI refuses (documented: call_ + sha256 prefix)."""
    return "call_" + hashlib.sha256(call_id.encode()).hexdigest()[:24]


def png(url: str | None = None) -> ImageBlock:
    if url:
        return ImageBlock(source=MediaSource(type="url", url=url))
    return ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))


def chat(*messages: Message, **fields: Any) -> Conversation:
    fields.setdefault("parameters", PARAMS)
    return Conversation(messages=list(messages), **fields)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def call(call_id: str, name: str = "get_weather", **extra: Any) -> ToolUseBlock:
    return ToolUseBlock(
        id=call_id, name=name, input={"city": "Paris"}, extra={FORMAT_ID: extra} if extra else {}
    )


def result(call_id: str, content: Any = "18 °C", **fields: Any) -> Message:
    block = ToolResultBlock(tool_use_id=call_id, content=content, **fields)
    return Message(role="tool", tool_call_id=call_id, content=[block])


def own_reasoning(text: str = "Need the weather.", **extra: Any) -> ThinkingBlock:
    return ThinkingBlock(text=text, data="gAAAAABo", provider=FORMAT_ID, extra={FORMAT_ID: extra})


# --------------------------------------------------------------------------- whole fixtures


def test_anthropic_thinking_loop_converts_with_exact_payload_and_warnings() -> None:
    source, conversation = from_fixture("anthropic", "thinking_tool_loop.json")
    payload, warnings = render(conversation)
    sql = source["messages"][1]["content"][2]
    assert payload == {
        "model": "claude-opus-4-1-20250805",
        "max_output_tokens": 16000,
        "input": [
            {"role": "user", "content": source["messages"][0]["content"]},
            {
                "type": "function_call",
                "call_id": sql["id"],
                "name": "run_sql",
                "arguments": orjson.dumps(sql["input"]).decode(),
            },
            {
                "type": "function_call_output",
                "call_id": sql["id"],
                "output": source["messages"][2]["content"][0]["content"],
            },
            {"role": "assistant", "content": source["messages"][3]["content"][0]["text"]},
            {"role": "user", "content": source["messages"][4]["content"]},
        ],
        "tools": [
            {
                "type": "function",
                "name": "run_sql",
                "description": source["tools"][0]["description"],
                "parameters": source["tools"][0]["input_schema"],
                "strict": False,
            }
        ],
        "tool_choice": "auto",
    }
    thinking = source["messages"][1]["content"][0]["thinking"]
    assert summary(warnings) == [
        ("field-unknown", "extra.anthropic", {"thinking": source["thinking"]}, None),
        ("reasoning-dropped", "messages[1].content[0]", thinking, None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    assert [w.details for w in warnings[1:]] == [
        {"provider": "anthropic", "redacted": False, "signed": True},
        {"provider": "anthropic", "redacted": True, "signed": True},
    ]


def test_anthropic_parallel_loop_warns_for_error_flag_and_anthropic_fields() -> None:
    _, conversation = from_fixture("anthropic", "tool_loop_parallel.json")
    payload, warnings = render(conversation)
    error_output = [
        {"type": "input_text", "text": "Error:"},
        {"type": "input_text", "text": ("WeatherServiceError: upstream timeout after 10s")},
    ]
    assert payload["input"][7]["output"] == error_output
    assert payload["input"][8]["output"][1]["type"] == "input_image"  # results hold images
    assert summary(warnings) == [
        ("capability-unsupported", "messages[3].content[1].is_error", True, error_output),
        (
            "field-unknown",
            "messages[5].content[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        (
            "field-unknown",
            "tools[1].extra.anthropic",
            {"strict": True, "cache_control": {"type": "ephemeral"}},
            None,
        ),
        (
            "field-unknown",
            "tool_choice.extra.anthropic",
            {"disable_parallel_tool_use": False},
            None,
        ),
    ]


def test_openai_chat_parallel_loop_converts_with_exact_payload() -> None:
    source, conversation = from_fixture("openai-chat", "tool_loop_parallel.json")
    payload, warnings = render(conversation)
    messages = source["messages"]

    def call_item(wire: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function_call", "call_id": wire["id"], **wire["function"]}

    def output_item(wire: dict[str, Any]) -> dict[str, Any]:
        content = wire["content"]
        if isinstance(content, list):
            content = [{"type": "input_text", "text": part["text"]} for part in content]
        return {"type": "function_call_output", "call_id": wire["tool_call_id"], "output": content}

    assert payload["input"] == [
        {"role": "system", "content": messages[0]["content"]},
        {"role": "user", "content": messages[1]["content"]},
        *[call_item(wire) for wire in messages[2]["tool_calls"]],
        *[output_item(wire) for wire in messages[3:6]],
        {"role": "assistant", "content": messages[6]["content"]},
        {"role": "user", "content": messages[7]["content"]},
        {"role": "assistant", "content": messages[8]["content"]},
        call_item(messages[8]["tool_calls"][0]),
        output_item(messages[9]),
    ]
    assert payload["tools"] == [
        {"type": "function", **tool["function"], "strict": False}
        if "parameters" in tool["function"]
        else {"type": "function", **tool["function"], "parameters": {}, "strict": False}
        for tool in source["tools"]
    ]
    assert {key: payload[key] for key in ("model", "temperature", "parallel_tool_calls")} == {
        key: source[key] for key in ("model", "temperature", "parallel_tool_calls")
    }
    assert summary(warnings) == [
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None)
    ]


def test_openai_chat_refusals_and_audio_are_warned() -> None:
    _, refusals = from_fixture("openai-chat", "refusal_exchange.json")
    payload, warnings = render(refusals)
    assert payload["input"][1] == {
        "role": "assistant",
        "content": "I can't help with getting into someone else's home.",
    }
    assert summary(warnings)[-2:] == [
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
    ]
    assert warnings[1].category == "content-dropped" and warnings[1].field == "messages"
    assert warnings[1].original_value == ["finish_reason", "id", "model", "timestamp", "usage"]
    _, media = from_fixture("openai-chat", "multimodal_request.json")
    _, warnings = render(media)
    assert summary(warnings) == [
        ("field-unknown", "extra.openai-chat", {"modalities": ["text"]}, None),
        (
            "content-dropped",
            "messages[1].content[3]",
            {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav"}},
            None,
        ),
    ]


@pytest.mark.parametrize(
    "path",
    sorted(
        path
        for directory in FIXTURES.iterdir()
        if directory.is_dir() and directory.name != FORMAT_ID
        for path in directory.glob("*.json")
    ),
    ids=lambda p: f"{p.parent.name}-{p.stem}",
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    try:
        fmt = formats.get(path.parent.name)
    except formats.FormatError:
        pytest.skip(f"{path.parent.name} is not a registered format")
    for item in fmt.parse(orjson.loads(path.read_bytes())):
        render(Conversation.model_validate_json(item.conversation.model_dump_json()))


# --------------------------------------------------------------------------- reasoning and ids


def test_foreign_reasoning_is_dropped_and_signatures_never_travel() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(
            ThinkingBlock(text="Signed.", signature="EqQBCkgIARAB", provider="anthropic"),
            ThinkingBlock(redacted=True, data="EmwKAhgBEgy3va", provider="anthropic"),
            ThinkingBlock(text="Gemini's", signature="CiQBVKhc", provider="gemini"),
            ThinkingBlock(text="no origin"),
            call("toolu_01A"),
        ),
        result("toolu_01A"),
    )
    payload, warnings = render(conversation)
    assert payload["input"][1] == {
        "type": "function_call",
        "call_id": "toolu_01A",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Signed.", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
        ("reasoning-dropped", "messages[1].content[2]", "Gemini's", None),
        ("reasoning-dropped", "messages[1].content[3]", "no origin", None),
    ]
    text = orjson.dumps(payload).decode()
    assert "EqQBCkgIARAB" not in text and "EmwKAhgBEgy3va" not in text and "CiQBVKhc" not in text


def test_own_reasoning_goes_back_with_the_item_that_followed_it() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(own_reasoning(id=RS_ID), call("call_1", id=FC_ID, status="completed")),
        result("call_1"),
    )
    payload, warnings = render(conversation)
    assert payload["input"][1:3] == [
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "Need the weather."}],
            "encrypted_content": "gAAAAABo",
            "id": RS_ID,
        },
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
            "id": FC_ID,
            "status": "completed",
        },
    ]
    assert warnings == []


def test_reasoning_that_cannot_go_back_takes_the_next_items_id_with_it() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(own_reasoning(), call("call_1", id=FC_ID)),
        result("call_1"),
    )
    payload, warnings = render(conversation)
    assert payload["input"][1] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Need the weather.", None),
        ("id-rewritten", "messages[1].content[1].id", FC_ID, None),
    ]


def test_item_ids_of_the_wrong_type_are_never_sent() -> None:
    # A Chat Completions call id kept as the item id would be refused ("Expected an ID
    # that begins with 'fc'"): only call_id carries it.
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call("call_9xQ", id="call_9xQ"), call("call_9xR", id="fc bad id")),
        result("call_9xQ"),
        result("call_9xR"),
    )
    payload, warnings = render(conversation)
    assert [item.get("id") for item in payload["input"][1:3]] == [None, None]
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", "call_9xQ", None),
        ("id-rewritten", "messages[1].content[1].id", "fc bad id", None),
    ]


def test_reasoning_with_nothing_after_it_is_not_sent() -> None:
    conversation = chat(user(TextBlock(text="Hi")), assistant(own_reasoning(id=RS_ID)))
    payload, warnings = render(conversation)
    assert payload["input"] == [{"role": "user", "content": "Hi"}]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0]", "Need the weather.", None)
    ]


def test_call_ids_the_api_refuses_are_rewritten_on_both_sides() -> None:
    long_id = "toolu_" + "x" * 70
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call(long_id), call("call_1")),
        result(long_id),
        result("call_1"),
        assistant(call("call_1")),
        result("call_1"),
    )
    payload, warnings = render(conversation)
    calls = [item["call_id"] for item in payload["input"] if item.get("type") == "function_call"]
    outputs = [i["call_id"] for i in payload["input"] if i.get("type") == "function_call_output"]
    fresh = "call_" + hashlib.sha256(b"call_1#1").hexdigest()[:24]
    assert calls == outputs == [rewritten(long_id), "call_1", fresh]
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", long_id, rewritten(long_id)),
        ("id-rewritten", "messages[4].content[0].id", "call_1", fresh),
    ]


# --------------------------------------------------------------------------- tool results


def test_results_move_up_to_their_calls_and_orphans_are_handled() -> None:
    conversation = chat(
        user(TextBlock(text="Weather and time?")),
        assistant(call("toolu_A"), call("toolu_B", name="get_time")),
        user(
            TextBlock(text="Also: windy?"),
            ToolResultBlock(tool_use_id="toolu_A", content="18 °C"),
        ),
        user(ToolResultBlock(tool_use_id="toolu_gone", content="42")),
    )
    payload, warnings = render(conversation)
    assert payload["input"][1:] == [
        {
            "type": "function_call",
            "call_id": "toolu_A",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
        },
        {
            "type": "function_call",
            "call_id": "toolu_B",
            "name": "get_time",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "toolu_A", "output": "18 °C"},
        {"type": "function_call_output", "call_id": "toolu_B", "output": ORPHAN_CALL_OUTPUT},
        {"role": "user", "content": "Also: windy?"},
        {"role": "user", "content": "42"},
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[2].content[1]", 2, 3),
        ("id-synthesized", "messages[1].content[1]", None, ORPHAN_CALL_OUTPUT),
        ("content-type-unsupported", "messages[3].content[0]", "tool", "user"),
    ]


def test_tool_result_error_flag_is_said_in_the_text() -> None:
    conversation = chat(
        user(TextBlock(text="Weather?")),
        assistant(call("call_1"), call("call_2")),
        result("call_1", "upstream timeout", is_error=True),
        result("call_2", [TextBlock(text="partial"), png()], is_error=True),
    )
    payload, warnings = render(conversation)
    image = {"type": "input_image", "detail": "auto", "image_url": f"data:image/png;base64,{PNG}"}
    marked = [
        {"type": "input_text", "text": "Error:"},
        {"type": "input_text", "text": "partial"},
        image,
    ]
    assert [item["output"] for item in payload["input"][3:]] == ["Error: upstream timeout", marked]
    assert summary(warnings) == [
        (
            "capability-unsupported",
            "messages[2].content[0].is_error",
            True,
            "Error: upstream timeout",
        ),
        ("capability-unsupported", "messages[3].content[0].is_error", True, marked),
    ]


def test_what_a_tool_result_cannot_hold() -> None:
    conversation = chat(
        assistant(call("call_1")),
        result(
            "call_1",
            [
                ThinkingBlock(text="hmm"),
                ToolUseBlock(id="call_2", name="g", input={}),
                RefusalBlock(text="no"),
                AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklG")),
                TextBlock(text="done"),
            ],
        ),
    )
    payload, warnings = render(conversation)
    assert payload["input"][1]["output"] == [
        {"type": "input_text", "text": "no"},
        {"type": "input_text", "text": "done"},
    ]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0].content[0]", "hmm", None),
        ("content-dropped", "messages[1].content[0].content[1]", "tool_use", None),
        ("content-type-unsupported", "messages[1].content[0].content[2]", "refusal", "input_text"),
        (
            "content-dropped",
            "messages[1].content[0].content[3]",
            {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav"}},
            None,
        ),
    ]


# --------------------------------------------------------------------------- content


def pdf(data: str, title: str | None = None, filename: str | None = None) -> DocumentBlock:
    source = MediaSource(type="base64", media_type="application/pdf", data=data)
    return DocumentBlock(source=source, title=title, filename=filename)


def test_media_parts_and_their_losses() -> None:
    payload, warnings = render(
        chat(
            user(
                png("https://example.com/cat.png"),
                ImageBlock(source=MediaSource(type="file", file_id="file-AbC"), detail="high"),
                ImageBlock(source=MediaSource(type="file", file_id="file_011CNha8")),
                pdf("JVBERi0x"),
                pdf("JVBERi0y", title="Q3 report"),
                DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
                DocumentBlock(
                    source=MediaSource(type="text", media_type="text/plain", data="notes")
                ),
                AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
            )
        )
    )
    uri = "data:application/pdf;base64,"
    assert payload["input"][0]["content"] == [
        {"type": "input_image", "detail": "auto", "image_url": "https://example.com/cat.png"},
        {"type": "input_image", "detail": "high", "file_id": "file-AbC"},
        {"type": "input_file", "file_data": uri + "JVBERi0x", "filename": "document.pdf"},
        {"type": "input_file", "file_data": uri + "JVBERi0y", "filename": "Q3 report"},
        {"type": "input_file", "file_url": "https://example.com/a.pdf"},
        {"type": "input_text", "text": "notes"},
    ]
    assert summary(warnings) == [
        (
            "content-dropped",
            "messages[0].content[2]",
            {"type": "image", "source": {"type": "file", "file_id": "file_011CNha8"}},
            None,
        ),
        ("parameter-defaulted", "messages[0].content[3].filename", None, "document.pdf"),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": {"type": "text", "media_type": "text/plain"}},
            "input_text",
        ),
        (
            "content-dropped",
            "messages[0].content[7]",
            {"type": "audio", "source": {"type": "base64", "media_type": "audio/mpeg"}},
            None,
        ),
    ]


def test_media_a_role_cannot_hold_moves_to_a_user_message_after_it() -> None:
    conversation = chat(
        Message(role="system", content=[TextBlock(text="Be brief."), png("https://x/logo.png")]),
        user(TextBlock(text="Draw a cat")),
        assistant(png(), TextBlock(text="Here."), call("call_1", name="save")),
        result("call_1", "saved"),
    )
    payload, warnings = render(conversation)
    image = {"type": "input_image", "detail": "auto", "image_url": f"data:image/png;base64,{PNG}"}
    assert payload["input"] == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": [
                {"type": "input_image", "detail": "auto", "image_url": "https://x/logo.png"}
            ],
        },
        {"role": "user", "content": "Draw a cat"},
        {"role": "assistant", "content": "Here."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "save",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "saved"},
        {"role": "user", "content": [image]},
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[0].content[1]", "system", "user"),
        ("message-reordered", "messages[2].content[0]", "assistant", "user"),
    ]


def test_refusals_citations_and_names() -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    conversation = chat(
        user(RefusalBlock(text="not that"), name="maria"),
        assistant(RefusalBlock(text="I can't."), TextBlock(text="quoted", citations=citations)),
    )
    payload, warnings = render(conversation)
    assert payload["input"] == [
        {"role": "user", "content": "not that"},
        {"role": "assistant", "content": "I can't."},
        {"role": "assistant", "content": "quoted"},
    ]
    assert summary(warnings) == [
        ("content-dropped", "messages[0].name", "maria", None),
        ("content-type-unsupported", "messages[0].content[0]", "refusal", "input_text"),
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-dropped", "messages[1].content[1].citations", citations, None),
    ]


def test_reasoning_fields_and_branches_are_dropped_with_warnings() -> None:
    conversation = chat(
        Message(id="a", role="user", content=[TextBlock(text="hi")]),
        Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
        Message(
            id="c",
            parent_id="a",
            role="assistant",
            content=[TextBlock(text="new")],
            reasoning="Six times seven.",
            reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
        ),
    )
    payload, warnings = render(conversation)
    assert payload["input"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "new"},
    ]
    assert summary(warnings) == [
        ("content-dropped", "messages[1]", "b", None),
        ("content-dropped", "messages", ["id"], None),
        ("reasoning-dropped", "messages[2].reasoning", "Six times seven.", None),
        ("reasoning-dropped", "messages[2].reasoning_details", None, None),
    ]


# --------------------------------------------------------------------------- request fields


def test_parameters_the_api_cannot_take() -> None:
    conversation = Conversation(
        messages=[user(TextBlock(text="hi"))],
        parameters=Parameters(
            temperature=2.5,
            top_p=0.9,
            max_tokens=8,
            top_k=40,
            stop=["\n\nHuman:"],
            seed=7,
            frequency_penalty=0.5,
            presence_penalty=-0.5,
            parallel_tool_calls=False,
            user="u-1",
            custom={"thinking_budget": 512},
        ),
    )
    payload, warnings = render(conversation)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 2.0,
        "top_p": 0.9,
        "max_output_tokens": 16,
        "user": "u-1",
        "input": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-clamped", "parameters.temperature", 2.5, 2.0),
        ("parameter-clamped", "parameters.max_tokens", 8, 16),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "parameters.top_k", 40, None),
        ("parameter-unsupported", "parameters.stop", ["\n\nHuman:"], None),
        ("parameter-unsupported", "parameters.seed", 7, None),
        ("parameter-unsupported", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "parameters.presence_penalty", -0.5, None),
        ("parameter-unsupported", "parameters.custom.thinking_budget", 512, None),
    ]


def test_tools_are_flat_and_loose() -> None:
    conversation = chat(
        user(TextBlock(text="hi")),
        tools=[
            Tool(name="f", description="Does f.", parameters={"type": "object"}),
            Tool(name="g"),
        ],
        tool_choice=ToolChoice(type="tool", name="g"),
    )
    payload, warnings = render(conversation)
    assert payload["tools"] == [
        {
            "type": "function",
            "name": "f",
            "description": "Does f.",
            "parameters": {"type": "object"},
            "strict": False,
        },
        {
            "type": "function",
            "name": "g",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        },
    ]
    assert payload["tool_choice"] == {"type": "function", "name": "g"}
    assert summary(warnings) == [
        ("parameter-defaulted", "tools[1].parameters", None, {"type": "object", "properties": {}})
    ]


@pytest.mark.parametrize(
    ("choice", "with_tools", "wire", "warned"),
    [
        (ToolChoice(type="auto"), True, "auto", []),
        (ToolChoice(type="none"), True, "none", []),
        (ToolChoice(type="required"), True, "required", []),
        (
            ToolChoice(type="tool"),
            True,
            "required",
            [("parameter-normalized", "tool_choice", "tool", "required")],
        ),
        (
            ToolChoice(type="tool", name="f"),
            False,
            None,
            [("parameter-unsupported", "tool_choice", {"type": "tool", "name": "f"}, None)],
        ),
    ],
)
def test_tool_choice(
    choice: ToolChoice, with_tools: bool, wire: Any, warned: list[tuple[Any, ...]]
) -> None:
    conversation = chat(user(TextBlock(text="hi")), tool_choice=choice)
    if with_tools:
        conversation.tools = [Tool(name="f", parameters={"type": "object"})]
    payload, warnings = render(conversation)
    assert payload.get("tool_choice") == wire
    assert summary(warnings) == warned


# ------------------------------------------------------------------------ every block, every role

BLOCKS: dict[str, Block] = {
    "text": TextBlock(text="plain words"),
    "text with citations": TextBlock(text="cited", citations=[{"type": "page_location"}]),
    "refusal": RefusalBlock(text="I won't"),
    "image base64": png(),
    "image url": png("https://example.com/cat.png"),
    "image file": ImageBlock(source=MediaSource(type="file", file_id="file-img")),
    "image foreign file": ImageBlock(source=MediaSource(type="file", file_id="file_img")),
    "pdf": pdf("JVBERi0x", filename="a.pdf"),
    "document url": DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
    "document text": DocumentBlock(source=MediaSource(type="text", data="doc words")),
    "document file": DocumentBlock(source=MediaSource(type="file", file_id="file-doc")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
    "tool use": ToolUseBlock(id="call_table", name="lookup", input={"q": 1}),
    "tool result text": ToolResultBlock(tool_use_id="call_table", content="found it"),
    "tool result blocks": ToolResultBlock(
        tool_use_id="call_table", content=[TextBlock(text="rows"), png()]
    ),
    "tool result error": ToolResultBlock(tool_use_id="call_table", content="broke", is_error=True),
    "thinking signed": ThinkingBlock(text="let me think", signature="sig", provider="anthropic"),
    "thinking unsigned": ThinkingBlock(text="plain thoughts"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
    "thinking own": own_reasoning(id=RS_ID),
    "thinking own without id": own_reasoning(),
}
ROLES = ("system", "developer", "user", "assistant", "tool")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(block: Block, role: str) -> None:
    conversation = chat(
        assistant(ToolUseBlock(id="call_table", name="lookup", input={})),
        Message(
            role=role,  # type: ignore[arg-type]
            content=[block],
            tool_call_id="call_table" if role == "tool" else None,
        ),
        user(TextBlock(text="and then?")),
    )
    render(conversation)  # valid, and nothing lost without a warning


# --------------------------------------------------------------------------- random conversations

_IDS = st.sampled_from(["call_a", "toolu_01B", "x" * 80, "bad id!", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([block for name, block in BLOCKS.items() if "tool" not in name])
    uses = st.builds(ToolUseBlock, id=_IDS, name=st.just("f"), input=st.just({"x": 1}))
    results = st.builds(
        ToolResultBlock,
        tool_use_id=_IDS,
        content=st.one_of(st.text(max_size=5), st.lists(simple, max_size=3)),
        is_error=st.sampled_from([None, True]),
    )
    return st.one_of(simple, uses, results)


_MESSAGES = st.builds(
    Message,
    role=st.sampled_from(ROLES),
    content=st.lists(_blocks(), max_size=4),
    tool_call_id=st.one_of(st.none(), _IDS),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(_MESSAGES, max_size=6))
def test_any_conversation_renders_a_valid_request_and_warns_for_each_loss(
    messages: list[Message],
) -> None:
    render(Conversation(messages=messages))
