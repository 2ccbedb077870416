"""The ``ollama`` renderer fed conversations from other formats: what it sends, and the
exact drift warning for every lossy cell of the reference's conversion matrix (column OL).

Every rendered request is checked against the ``ollama`` SDK types and the message rules
they cannot express, and for content lost without a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats._common import parse_data_uri
from providers.formats.ollama import DEFAULT_MODEL, render
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
from tests.providers.sdk.ollama import validate_ollama_request

FIXTURES = Path(__file__).parents[2] / "fixtures"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN"
    "k+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
PARAMS = Parameters(model="qwen3")


def summary(warnings: list[DriftWarning]) -> list[tuple[Any, ...]]:
    return [
        (w.category, w.severity, w.field, w.original_value, w.transformed_value) for w in warnings
    ]


def _markers(block: Block) -> list[str]:
    """Strings of a block that must show up in the payload unless a warning says why."""
    if isinstance(block, TextBlock | RefusalBlock | ThinkingBlock):
        return [block.text] if block.text else []
    if isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        source = block.source
        inline = parse_data_uri(source.url) if source.url else None
        url = inline[1] if inline else source.url
        return [value for value in (source.data, url, source.file_id) if value]
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


def convert(conversation: Conversation) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """Render a conversation from another format: a valid request, nothing lost silently."""
    rendered = render(conversation)
    validate_ollama_request(rendered.payload)
    assert all(w.source == "ollama" for w in rendered.warnings)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, summary(rendered.warnings)


def messages(*items: Message, **fields: Any) -> Conversation:
    fields.setdefault("parameters", PARAMS)
    return Conversation(messages=list(items), **fields)


def user(*blocks: Block, **fields: Any) -> Message:
    return Message(role="user", content=list(blocks), **fields)


def assistant(*blocks: Block, **fields: Any) -> Message:
    return Message(role="assistant", content=list(blocks), **fields)


def text(value: str) -> TextBlock:
    return TextBlock(text=value)


def imported(format_id: str, name: str) -> Conversation:
    payload = orjson.loads((FIXTURES / format_id / name).read_bytes())
    [item] = formats.parse(format_id, payload).items
    return Conversation.model_validate_json(item.conversation.model_dump_json())


# --------------------------------------------------------------------------- whole imports


def test_anthropic_thinking_tool_loop_converts_exactly() -> None:
    payload, warnings = convert(imported("anthropic", "thinking_tool_loop.json"))
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
    payload, warnings = convert(imported("openai-chat", "multimodal_request.json"))
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
            {"type": "audio", "source": "base64", "media_type": "audio/wav"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[1].content[4]",
            {"type": "document", "source": "base64", "media_type": "application/pdf"},
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
    payload, warnings = convert(imported("openai-chat", "tool_loop_parallel.json"))
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


# --------------------------------------------------------------------------- matrix cells


def test_system_messages_after_the_start_stay_with_a_note() -> None:
    conversation = messages(
        Message(role="system", content=[text("Be brief.")]),
        user(text("hi")),
        Message(role="developer", content=[text("Prices in EUR.")]),
        Message(role="system", content=[text("Now in French.")]),
    )
    payload, warnings = convert(conversation)
    assert [m["role"] for m in payload["messages"]] == ["system", "user", "system", "system"]
    assert warnings == [
        ("system-message-transformed", "info", "messages[2]", "developer", "system"),
        ("system-message-transformed", "info", "messages[3]", "system", "system"),
    ]


def test_image_sources() -> None:
    blocks: list[Block] = [
        ImageBlock(source=MediaSource(type="url", url=f"data:image/png;base64,{PNG}")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
        ImageBlock(source=MediaSource(type="file", file_id="file-abc")),
        ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="not base64!")),
        text("what is it?"),
    ]
    payload, warnings = convert(messages(user(*blocks)))
    assert payload["messages"] == [{"role": "user", "content": "what is it?", "images": [PNG, PNG]}]
    assert warnings == [
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "image", "source": "file", "file_id": "file-abc"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
    ]


def test_images_in_assistant_turns_move_to_a_user_message() -> None:
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    payload, warnings = convert(messages(user(text("plot it")), assistant(text("Here:"), image)))
    assert payload["messages"][1:] == [
        {"role": "assistant", "content": "Here:"},
        {"role": "user", "content": "", "images": [PNG]},
    ]
    assert warnings == [
        ("message-reordered", "warning", "messages[1].content[1]", "assistant", "user")
    ]


def test_documents_and_audio() -> None:
    blocks: list[Block] = [
        DocumentBlock(source=MediaSource(type="text", data="Clause 4: payment in 30 days.")),
        DocumentBlock(
            source=MediaSource(type="base64", media_type="text/csv", data="YSxiCjEsMg==")
        ),
        DocumentBlock(source=MediaSource(type="url", url="https://x/contract.pdf")),
        AudioBlock(source=MediaSource(type="base64", media_type="audio/mp3", data="SUQz")),
    ]
    payload, warnings = convert(messages(user(*blocks)))
    assert payload["messages"] == [
        {"role": "user", "content": "Clause 4: payment in 30 days.\na,b\n1,2"}
    ]
    assert warnings == [
        ("content-type-unsupported", "warning", "messages[0].content[0]", "document", "text"),
        ("content-type-unsupported", "warning", "messages[0].content[1]", "document", "text"),
        (
            "content-dropped",
            "warning",
            "messages[0].content[2]",
            {"type": "document", "source": "url", "url": "https://x/contract.pdf"},
            None,
        ),
        (
            "content-dropped",
            "warning",
            "messages[0].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/mp3"},
            None,
        ),
        ("content-type-unsupported", "info", "messages[0].content", 2, "string"),
    ]


@pytest.mark.parametrize(
    ("choice", "has_tools", "expected"),
    [
        (
            ToolChoice(type="auto"),
            True,
            ("parameter-normalized", "info", "tool_choice", "auto", None),
        ),
        (
            ToolChoice(type="none"),
            False,
            ("parameter-normalized", "warning", "tool_choice", "none", {"tools": None}),
        ),
        (
            ToolChoice(type="required"),
            True,
            ("tool-unsupported", "warning", "tool_choice", "required", None),
        ),
        (
            ToolChoice(type="tool", name="f"),
            True,
            ("tool-unsupported", "warning", "tool_choice", "f", None),
        ),
    ],
)
def test_tool_choice_has_no_ollama_equivalent(
    choice: ToolChoice, has_tools: bool, expected: tuple[Any, ...]
) -> None:
    conversation = messages(user(text("q")), tools=[Tool(name="f")], tool_choice=choice)
    payload, warnings = convert(conversation)
    assert ("tools" in payload) is has_tools
    assert warnings == [expected]


def test_tool_results_become_tool_messages_before_the_user_text() -> None:
    call = ToolUseBlock(id="toolu_1", name="lookup", input={"q": "x"})
    results = user(
        text("also this"),
        ToolResultBlock(tool_use_id="toolu_1", content="found"),
    )
    payload, warnings = convert(messages(user(text("go")), assistant(call), results))
    assert payload["messages"][2:] == [
        {"role": "tool", "content": "found", "tool_name": "lookup"},
        {"role": "user", "content": "also this"},
    ]
    assert warnings == [
        ("id-rewritten", "info", "messages[1].content[0].id", "toolu_1", None),
        ("id-rewritten", "info", "messages[2].content[1].tool_use_id", "toolu_1", None),
        ("message-reordered", "warning", "messages[2].content", "after other content", "first"),
    ]


def test_tool_errors_and_media_in_results() -> None:
    call = ToolUseBlock(id="c", name="plot", input={})
    image = ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG))
    failed = ToolResultBlock(tool_use_id="c", content="timeout", is_error=True)
    chart = ToolResultBlock(tool_use_id="c", content=[text("chart"), image])
    payload, warnings = convert(
        messages(user(text("go")), assistant(call), Message(role="tool", content=[failed, chart]))
    )
    assert payload["messages"][2:] == [
        {"role": "tool", "content": "Error: timeout", "tool_name": "plot"},
        {"role": "tool", "content": "chart", "tool_name": "plot"},
    ]
    assert warnings[1:] == [
        (
            "capability-unsupported",
            "warning",
            "messages[2].content[0].is_error",
            True,
            "Error: timeout",
        ),
        ("id-rewritten", "info", "messages[2].content[0].tool_use_id", "c", None),
        (
            "content-dropped",
            "warning",
            "messages[2].content[1].content[1]",
            {"type": "image", "source": "base64", "media_type": "image/png"},
            None,
        ),
        ("id-rewritten", "info", "messages[2].content[1].tool_use_id", "c", None),
    ]


def test_reasoning_travels_as_thinking_without_signatures() -> None:
    unsigned = ThinkingBlock(text="plain", provider="openai-responses")
    signed = ThinkingBlock(text="signed", signature="sig", provider="anthropic")
    redacted = ThinkingBlock(redacted=True, data="blob", provider="anthropic")
    payload, warnings = convert(
        messages(
            user(text("q"), ThinkingBlock(text="user thought")),
            assistant(unsigned, signed, redacted, text("a")),
        )
    )
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a", "thinking": "plain\nsigned"},
    ]
    assert "blob" not in str(payload)
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[0].content[1]", "user thought", None),
        (
            "signature-stripped",
            "warning",
            "messages[1].content[1]",
            {"provider": "anthropic", "signed": True},
            "thinking",
        ),
        ("reasoning-dropped", "warning", "messages[1].content[2]", None, None),
        ("content-type-unsupported", "info", "messages[1].content", 2, "string"),
    ]


def test_reasoning_fields_beside_blocks() -> None:
    answer = assistant(
        text("42"),
        reasoning="Six times seven.",
        reasoning_details=[{"type": "reasoning.encrypted", "data": "gAAAA"}],
    )
    payload, warnings = convert(messages(user(text("q")), answer))
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": "42",
        "thinking": "Six times seven.",
    }
    assert warnings == [
        ("reasoning-dropped", "warning", "messages[1].reasoning_details", None, None)
    ]


def test_refusal_citations_and_names() -> None:
    cited = TextBlock(text="Paris", citations=[{"type": "url_citation", "url": "https://x"}])
    payload, warnings = convert(
        messages(user(text("q"), name="alice"), assistant(RefusalBlock(text="I can't."), cited))
    )
    assert payload["messages"] == [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "I can't.\nParis"},
    ]
    assert warnings == [
        ("content-dropped", "warning", "messages[0].name", "alice", None),
        ("content-type-unsupported", "warning", "messages[1].content[0]", "refusal", "text"),
        (
            "content-dropped",
            "warning",
            "messages[1].content[1].citations",
            [{"type": "url_citation", "url": "https://x"}],
            None,
        ),
        ("content-type-unsupported", "info", "messages[1].content", 2, "string"),
    ]


def test_argument_strings_become_objects() -> None:
    calls = [
        ToolUseBlock(id="a", name="f", input={}, raw_arguments='{"x": 1}'),
        ToolUseBlock(id="b", name="f", input={}, raw_arguments="{not json"),
        ToolUseBlock(id="c", name="f", input=[1, 2]),
    ]
    payload, warnings = convert(messages(user(text("go")), assistant(*calls)))
    assert [c["function"]["arguments"] for c in payload["messages"][1]["tool_calls"]] == [
        {"x": 1},
        {},
        {},
    ]
    assert [w for w in warnings if w[0] == "content-dropped"] == [
        ("content-dropped", "warning", "messages[1].content[1].raw_arguments", "{not json", {}),
        ("content-dropped", "warning", "messages[1].content[2].input", [1, 2], {}),
    ]


def test_parameters_move_into_options() -> None:
    parameters = Parameters(
        temperature=0.3,
        top_p=0.9,
        top_k=40,
        max_tokens=256,
        stop=["###"],
        seed=1,
        frequency_penalty=0.1,
        presence_penalty=0.2,
        stream=False,
        user="u-1",
        parallel_tool_calls=False,
        custom={"logit_bias": {"1": 2}},
    )
    payload, warnings = convert(messages(user(text("hi")), parameters=parameters))
    assert payload == {
        "model": DEFAULT_MODEL,
        "messages": [{"role": "user", "content": "hi"}],
        "stream": False,
        "options": {
            "temperature": 0.3,
            "top_p": 0.9,
            "top_k": 40,
            "num_predict": 256,
            "stop": ["###"],
            "seed": 1,
            "frequency_penalty": 0.1,
            "presence_penalty": 0.2,
        },
    }
    assert warnings == [
        ("parameter-defaulted", "warning", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "warning", "parameters.user", "u-1", None),
        ("parameter-unsupported", "warning", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "warning", "parameters.custom.logit_bias", {"1": 2}, None),
    ]


def test_branches_are_reduced_to_the_main_thread() -> None:
    payload, warnings = convert(
        messages(
            user(text("q"), id="1"),
            assistant(text("first try"), id="2", parent_id="1"),
            assistant(text("second try"), id="3", parent_id="1"),
        )
    )
    assert [m["content"] for m in payload["messages"]] == ["q", "second try"]
    assert warnings == [("content-dropped", "warning", "messages[1]", "first try", None)]


def test_response_fields_stay_out_of_a_converted_request() -> None:
    answer = assistant(text("hi"), id="msg_1", model="claude", finish_reason="stop")
    payload, warnings = convert(messages(user(text("q")), answer))
    assert payload["messages"][1] == {"role": "assistant", "content": "hi"}
    assert warnings == []


# --------------------------------------------------------------------------- nothing silently lost

SAMPLES: dict[str, Block] = {
    "text": TextBlock(text="MARK-text"),
    "refusal": RefusalBlock(text="MARK-refusal"),
    "image": ImageBlock(source=MediaSource(type="url", url="https://x/MARK-image.png")),
    "document": DocumentBlock(source=MediaSource(type="text", data="MARK-document")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="MARK")),
    "tool_use": ToolUseBlock(id="MARK-call", name="MARK_f", input={}),
    "tool_result": ToolResultBlock(tool_use_id="MARK-result", content="MARK-result"),
    "thinking": ThinkingBlock(text="MARK-thinking", signature="s", provider="gemini"),
}
EXTRA_SAMPLES: dict[str, Block] = {
    "image base64": ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
    "tool error": ToolResultBlock(tool_use_id="c", content="MARK-error", is_error=True),
    "tool result blocks": ToolResultBlock(
        tool_use_id="c", content=[TextBlock(text="MARK-rows"), SAMPLES["image"], SAMPLES["audio"]]
    ),
    "thinking unsigned": ThinkingBlock(text="MARK-plain"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}


def test_every_block_type_has_a_sample() -> None:
    assert set(SAMPLES) == set(BLOCK_TYPES)


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant", "tool"])
@pytest.mark.parametrize(
    "block", [*SAMPLES.values(), *EXTRA_SAMPLES.values()], ids=[*SAMPLES, *EXTRA_SAMPLES]
)
def test_no_block_is_dropped_silently(block: Block, role: str) -> None:
    message = Message(role=role, content=[block])  # type: ignore[arg-type]
    convert(messages(user(text("q")), message))


# --------------------------------------------------------------------------- other formats

OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name not in ("ollama", "chatml")
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    try:
        parsed = formats.parse(path.parent.name, orjson.loads(path.read_bytes()))
    except formats.FormatError:
        pytest.skip(f"no registered format reads {path.parent.name}")
    for item in parsed.items:
        convert(Conversation.model_validate_json(item.conversation.model_dump_json()))


# --------------------------------------------------------------------------- any conversation

_IDS = st.sampled_from(["call_a", "toolu_01B", "fc:4", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([*SAMPLES.values(), *EXTRA_SAMPLES.values()])
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
    role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    content=st.lists(_blocks(), max_size=4),
    tool_call_id=st.one_of(st.none(), _IDS),
    name=st.sampled_from([None, "ann"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_MESSAGES, max_size=6), tools=st.booleans())
def test_any_conversation_renders_a_valid_request(items: list[Message], tools: bool) -> None:
    conversation = Conversation(
        messages=items, tools=[Tool(name="f", parameters={"type": "object"})] if tools else []
    )
    convert(conversation)
