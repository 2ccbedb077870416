"""The ``openai-chat`` format rendering conversations read from other formats.

Every rendered request must be one OpenAI accepts (the SDK's request types, plus the tool
pairing rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.openai_chat import DEFAULT_MODEL
from providers.formats.openai_chat._sequence import ORPHAN_CALL_RESULT
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
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
)

OPENAI_CHAT = formats.get("openai-chat")
FIXTURES = Path(__file__).parents[2] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD"
    + "hgGAWjR9awAAAABJRU5ErkJggg=="
)
LONG_ID = "fc_68309c2e5b7c8191a2b3c4d5e6f708190a1b2c3d4e5f60718293a4b5c6d7e8f9"


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that OpenAI would take it, and give back payload and warnings."""
    rendered = OPENAI_CHAT.render(conversation)
    validate_openai_chat_request(rendered.payload)
    check_openai_chat_tool_pairing(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
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


def rewritten(call_id: str) -> str:
    """The id ToolIdMap gives a call id OpenAI refuses (documented: call_ + sha256 prefix)."""
    return "call_" + hashlib.sha256(call_id.encode()).hexdigest()[:24]


def png(url: str | None = None) -> ImageBlock:
    if url:
        return ImageBlock(source=MediaSource(type="url", url=url))
    return ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))


# --------------------------------------------------------------------------- an Anthropic import


def anthropic_import() -> Conversation:
    """A conversation as the anthropic format reads one: top-level system as a leading
    system message, results inside user messages, signed and redacted thinking."""
    paris, rome, wind = "toolu_01A09q90qw90lq917835lq9", LONG_ID, "toolu_01CwzZ3k7gQ2Hh8L"
    return Conversation(
        messages=[
            Message(role="system", content=[TextBlock(text="You are terse.")]),
            Message(role="user", content=[TextBlock(text="Weather in Paris and Rome?"), png()]),
            Message(
                role="assistant",
                model="claude-sonnet-4-5",
                content=[
                    ThinkingBlock(
                        text="Need both cities.", signature="EqQBCkgIARAB", provider="anthropic"
                    ),
                    TextBlock(text="Checking both."),
                    ToolUseBlock(id=paris, name="get_weather", input={"city": "Paris"}),
                    ToolUseBlock(id=rome, name="get_weather", input={"city": "Rome"}),
                ],
            ),
            Message(
                role="user",
                content=[
                    ToolResultBlock(
                        tool_use_id=paris,
                        content=[
                            TextBlock(text="18 °C, sunny"),
                            png("https://maps.example/radar.png"),
                        ],
                    ),
                    TextBlock(text="Also, is it windy?"),
                    ToolResultBlock(tool_use_id=rome, content="upstream timeout", is_error=True),
                ],
            ),
            Message(
                role="assistant",
                content=[
                    ThinkingBlock(redacted=True, data="EmwKAhgBEgy3va", provider="anthropic"),
                    ToolUseBlock(id=wind, name="get_wind", input={"city": "Paris"}),
                ],
            ),
        ],
        tools=[
            Tool(
                name="get_weather",
                description="Weather by city",
                parameters={"type": "object", "properties": {"city": {"type": "string"}}},
                extra={"anthropic": {"cache_control": {"type": "ephemeral"}}},
            ),
            Tool(name="get_wind", parameters={"type": "object"}),
        ],
        tool_choice=ToolChoice(
            type="auto", extra={"anthropic": {"disable_parallel_tool_use": True}}
        ),
        parameters=Parameters(max_tokens=1024, top_k=40, temperature=0.7, stop=["\n\nHuman:"]),
        extra={"anthropic": {"metadata": {"user_id": "u-1"}, "$system": "string"}},
    )


def test_anthropic_import_renders_the_exact_request() -> None:
    payload, _ = render(anthropic_import())
    rome = rewritten(LONG_ID)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 0.7,
        "max_completion_tokens": 1024,
        "stop": ["\n\nHuman:"],
        "messages": [
            {"role": "system", "content": "You are terse."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Weather in Paris and Rome?"},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                ],
            },
            {
                "role": "assistant",
                "content": "Checking both.",
                "tool_calls": [
                    {
                        "id": "toolu_01A09q90qw90lq917835lq9",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    },
                    {
                        "id": rome,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
                    },
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "toolu_01A09q90qw90lq917835lq9",
                "content": "18 °C, sunny",
            },
            {"role": "tool", "tool_call_id": rome, "content": "Error: upstream timeout"},
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "https://maps.example/radar.png"}}
                ],
            },
            {"role": "user", "content": "Also, is it windy?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "toolu_01CwzZ3k7gQ2Hh8L",
                        "type": "function",
                        "function": {"name": "get_wind", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "toolu_01CwzZ3k7gQ2Hh8L",
                "content": ORPHAN_CALL_RESULT,
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Weather by city",
                    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                },
            },
            {
                "type": "function",
                "function": {"name": "get_wind", "parameters": {"type": "object"}},
            },
        ],
        "tool_choice": "auto",
    }


def test_anthropic_import_warns_for_each_lossy_step() -> None:
    _, warnings = render(anthropic_import())
    rome = rewritten(LONG_ID)
    assert summary(warnings) == [
        ("field-unknown", "extra.anthropic", {"metadata": {"user_id": "u-1"}}, None),
        ("reasoning-dropped", "messages[2].content[0]", "Need both cities.", None),
        ("id-rewritten", "messages[2].content[3].id", LONG_ID, rome),
        ("message-reordered", "messages[3].content[0].content[1]", "tool", "user"),
        (
            "capability-unsupported",
            "messages[3].content[2].is_error",
            True,
            "Error: upstream timeout",
        ),
        ("reasoning-dropped", "messages[4].content[0]", None, None),
        ("message-reordered", "messages[3].content[2]", 3, 4),
        ("id-synthesized", "messages[4].content[1]", None, ORPHAN_CALL_RESULT),
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "parameters.top_k", 40, None),
        (
            "field-unknown",
            "tools[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        ("field-unknown", "tool_choice.extra.anthropic", {"disable_parallel_tool_use": True}, None),
    ]
    assert warnings[5].details == {"redacted": True, "signed": True}
    assert {w.source for w in warnings} == {"openai-chat"}
    assert [w.severity for w in warnings if w.category in ("field-unknown", "id-rewritten")] == [
        "info"
    ] * 4


def test_signatures_and_redacted_data_never_travel() -> None:
    payload, _ = render(anthropic_import())
    text = orjson.dumps(payload).decode()
    assert "EqQBCkgIARAB" not in text and "EmwKAhgBEgy3va" not in text


# --------------------------------------------------------------------------- one lossy step each


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="gpt-4o"), messages=[Message(role="user", content=list(blocks))]
    )


def pdf(data: str, *, title: str | None = None, filename: str | None = None) -> DocumentBlock:
    return DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data=data),
        title=title,
        filename=filename,
    )


def test_documents_become_file_parts_or_text() -> None:
    payload, warnings = render(
        one_user_message(
            pdf("JVBERi0x"),
            pdf("JVBERi0y", title="Q3 report"),
            pdf("JVBERi0z", title="Q4", filename="q4.pdf"),
            DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
            DocumentBlock(
                source=MediaSource(type="text", media_type="text/plain", data="plain words")
            ),
            DocumentBlock(source=MediaSource(type="file", file_id="file-abc")),
        )
    )
    uri = "data:application/pdf;base64,"
    assert payload["messages"][0]["content"] == [
        {"type": "file", "file": {"file_data": uri + "JVBERi0x", "filename": "document.pdf"}},
        {"type": "file", "file": {"file_data": uri + "JVBERi0y", "filename": "Q3 report"}},
        {"type": "file", "file": {"file_data": uri + "JVBERi0z", "filename": "q4.pdf"}},
        {"type": "text", "text": "https://example.com/a.pdf"},
        {"type": "text", "text": "plain words"},
        {"type": "file", "file": {"file_id": "file-abc"}},
    ]
    assert summary(warnings) == [
        ("parameter-defaulted", "messages[0].content[0].filename", None, "document.pdf"),
        ("content-dropped", "messages[0].content[2].title", "Q4", None),
        (
            "content-type-unsupported",
            "messages[0].content[3]",
            {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}},
            "text",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[4]",
            {"type": "document", "source": {"type": "text", "media_type": "text/plain"}},
            "text",
        ),
    ]


def test_audio_goes_as_wav_or_mp3_or_not_at_all() -> None:
    payload, warnings = render(
        one_user_message(
            AudioBlock(source=MediaSource(type="base64", media_type="audio/mpeg", data="SUQz")),
            AudioBlock(source=MediaSource(type="base64", media_type="audio/x-wav", data="UklG")),
            AudioBlock(source=MediaSource(type="base64", media_type="audio/ogg", data="T2dn")),
            AudioBlock(source=MediaSource(type="url", url="https://example.com/a.wav")),
        )
    )
    assert payload["messages"][0]["content"] == [
        {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}},
        {"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}},
    ]
    assert [(w.category, w.field) for w in warnings] == [
        ("content-dropped", "messages[0].content[2]"),
        ("content-dropped", "messages[0].content[3]"),
    ]


def test_images_by_provider_file_id_are_dropped() -> None:
    image = ImageBlock(source=MediaSource(type="file", file_id="file_011CNha8"))
    payload, warnings = render(one_user_message(TextBlock(text="look"), image))
    assert payload["messages"] == [{"role": "user", "content": "look"}]
    assert summary(warnings) == [
        (
            "content-dropped",
            "messages[0].content[1]",
            {"type": "image", "source": {"type": "file", "file_id": "file_011CNha8"}},
            None,
        )
    ]


def test_foreign_citations_are_dropped_with_a_warning() -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    payload, warnings = render(one_user_message(TextBlock(text="quoted", citations=citations)))
    assert payload["messages"] == [{"role": "user", "content": "quoted"}]
    assert summary(warnings) == [
        ("content-dropped", "messages[0].content[0].citations", citations, None)
    ]


def test_refusals_outside_assistant_messages_become_text() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="user", content=[RefusalBlock(text="not that")]),
            Message(role="assistant", content=[RefusalBlock(text="I can't.")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"] == [
        {"role": "user", "content": "not that"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "I can't."}]},
    ]
    assert summary(warnings) == [
        ("content-type-unsupported", "messages[0].content[0]", "refusal", "text")
    ]


def test_assistant_media_moves_to_a_user_message_after_the_tool_results() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="user", content=[TextBlock(text="draw")]),
            Message(
                role="assistant",
                content=[png(), ToolUseBlock(id="call_1", name="save", input={})],
            ),
            Message(role="tool", tool_call_id="call_1", content=[TextBlock(text="saved")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "save", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "saved"},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}}
            ],
        },
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[1].content[0]", "assistant", "user")
    ]


def test_a_result_that_answers_nothing_becomes_a_user_message() -> None:
    conversation = one_user_message(ToolResultBlock(tool_use_id="toolu_gone", content="42"))
    payload, warnings = render(conversation)
    assert payload["messages"] == [{"role": "user", "content": "42"}]
    assert summary(warnings) == [
        ("content-type-unsupported", "messages[0].content[0]", "tool", "user")
    ]


def test_tool_messages_without_a_result_block() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(
                role="assistant", content=[ToolUseBlock(id="call_1", name="f", input={"a": 1})]
            ),
            Message(
                role="tool",
                tool_call_id="call_1",
                content=[TextBlock(text="4"), TextBlock(text="2")],
            ),
            Message(role="tool", content=[TextBlock(text="stray")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "4\n2"},
        {"role": "user", "content": "stray"},
    ]
    assert summary(warnings) == [("content-type-unsupported", "messages[2]", "tool", "user")]


def test_what_a_tool_result_cannot_hold() -> None:
    result = ToolResultBlock(
        tool_use_id="call_1",
        content=[
            ThinkingBlock(text="hmm"),
            ToolUseBlock(id="call_2", name="g", input={}),
            RefusalBlock(text="no"),
            TextBlock(text="done"),
        ],
        is_error=True,
    )
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="call_1", name="f", input={})]),
            Message(role="user", content=[result]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "Error: no\ndone",
    }
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[1].content[0].content[0]", "hmm", None),
        ("content-dropped", "messages[1].content[0].content[1]", "tool_use", None),
        ("content-type-unsupported", "messages[1].content[0].content[2]", "refusal", "text"),
        ("capability-unsupported", "messages[1].content[0].is_error", True, "Error: no\ndone"),
    ]


def test_parameters_openai_cannot_take() -> None:
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        parameters=Parameters(
            model="gpt-4o",
            temperature=2.5,
            stop=["a", "b", "c", "d", "e"],
            parallel_tool_calls=False,
            custom={"thinking_budget": 512},
        ),
        tool_choice=ToolChoice(type="tool", name="f"),
    )
    payload, warnings = render(conversation)
    assert payload == {
        "model": "gpt-4o",
        "temperature": 2.0,
        "stop": ["a", "b", "c", "d"],
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", 2.5, 2.0),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        (
            "stop-sequences-truncated",
            "parameters.stop",
            ["a", "b", "c", "d", "e"],
            ["a", "b", "c", "d"],
        ),
        ("parameter-unsupported", "parameters.custom.thinking_budget", 512, None),
        ("parameter-unsupported", "tool_choice", {"type": "tool", "name": "f"}, None),
    ]


@pytest.mark.parametrize(
    ("choice", "wire", "warned"),
    [
        (ToolChoice(type="tool", name="f"), {"type": "function", "function": {"name": "f"}}, []),
        (
            ToolChoice(type="tool"),
            "required",
            [("parameter-normalized", "tool_choice", "tool", "required")],
        ),
        (ToolChoice(type="none"), "none", []),
    ],
)
def test_tool_choice(choice: ToolChoice, wire: Any, warned: list[tuple[Any, ...]]) -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tools = [Tool(name="f")]
    conversation.tool_choice = choice
    payload, warnings = render(conversation)
    assert payload["tool_choice"] == wire
    assert summary(warnings) == warned


def test_reasoning_fields_are_dropped_with_warnings() -> None:
    message = Message(
        role="assistant",
        content=[TextBlock(text="42")],
        reasoning="Six times seven.",
        reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
    )
    conversation = Conversation(parameters=Parameters(model="gpt-4o"), messages=[message])
    payload, warnings = render(conversation)
    assert payload["messages"] == [{"role": "assistant", "content": "42"}]
    assert summary(warnings) == [
        ("reasoning-dropped", "messages[0].reasoning", "Six times seven.", None),
        ("reasoning-dropped", "messages[0].reasoning_details", None, None),
    ]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
        ],
    )
    payload, warnings = render(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new"]
    assert summary(warnings) == [("content-dropped", "messages[1]", "b", None)]


def test_render_request_turns_an_exchange_into_the_next_request() -> None:
    from providers.formats.openai_chat import render_request

    payload = orjson.loads((FIXTURES / "openai-chat" / "exchange_usage.json").read_bytes())
    [item] = OPENAI_CHAT.parse(payload)
    request = render_request(item.conversation).payload
    validate_openai_chat_request(request)
    assert request["messages"] == [
        *payload["request"]["messages"],
        # The answer as the next turn's history; its null refusal needs no saying.
        {k: v for k, v in payload["response"]["choices"][0]["message"].items() if v is not None},
    ]
    assert request["reasoning_effort"] == "high"


# ------------------------------------------------------------------------ every block, every role

BLOCKS: dict[str, Block] = {
    "text": TextBlock(text="plain words"),
    "text with citations": TextBlock(text="cited", citations=[{"type": "page_location"}]),
    "refusal": RefusalBlock(text="I won't"),
    "image base64": png(),
    "image url": png("https://example.com/cat.png"),
    "image file": ImageBlock(source=MediaSource(type="file", file_id="file-img")),
    "pdf": pdf("JVBERi0x", filename="a.pdf"),
    "document url": DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
    "document text": DocumentBlock(source=MediaSource(type="text", data="doc words")),
    "document file": DocumentBlock(source=MediaSource(type="file", file_id="file-doc")),
    "audio wav": AudioBlock(
        source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")
    ),
    "audio flac": AudioBlock(
        source=MediaSource(type="base64", media_type="audio/flac", data="ZkxhQw==")
    ),
    "tool use": ToolUseBlock(id="call_table", name="lookup", input={"q": 1}),
    "tool result text": ToolResultBlock(tool_use_id="call_table", content="found it"),
    "tool result blocks": ToolResultBlock(
        tool_use_id="call_table", content=[TextBlock(text="rows"), png()]
    ),
    "tool result error": ToolResultBlock(tool_use_id="call_table", content="broke", is_error=True),
    "thinking": ThinkingBlock(text="let me think", signature="sig", provider="anthropic"),
    "redacted thinking": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}
ROLES = ("system", "developer", "user", "assistant", "tool")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(block: Block, role: str) -> None:
    call = ToolUseBlock(id="call_table", name="lookup", input={})
    conversation = Conversation(
        parameters=Parameters(model="gpt-4o"),
        messages=[
            Message(role="assistant", content=[call]),
            Message(
                role=role,  # type: ignore[arg-type]
                content=[block],
                tool_call_id="call_table" if role == "tool" else None,
            ),
        ],
    )
    render(conversation)  # valid, and nothing lost without a warning


# ------------------------------------------------------------------------ other formats' fixtures


@pytest.mark.parametrize(
    "path",
    sorted((FIXTURES / "umf").glob("*.json")) + sorted((FIXTURES / "anthropic").glob("*.json")),
    ids=lambda p: f"{p.parent.name}-{p.stem}",
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    parsed = formats.parse(path.parent.name, orjson.loads(path.read_bytes()))
    for item in parsed.items:
        stored = Conversation.model_validate_json(item.conversation.model_dump_json())
        render(stored)


# --------------------------------------------------------------------------- random conversations

_IDS = st.sampled_from(["call_a", "toolu_01B", LONG_ID, "bad id!", ""])


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


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(_MESSAGES, max_size=6))
def test_any_conversation_renders_a_valid_request_and_warns_for_each_loss(
    messages: list[Message],
) -> None:
    render(Conversation(messages=messages))
