"""The ``cohere`` format rendering conversations read from other formats.

Every rendered request must be one the cohere SDK's types accept (plus the rules they
cannot express), and everything it could not carry must be a warning: one test per lossy
cell of the Cohere column of the reference's conversion matrix.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats._chatlike import MISSING_RESULT_TEXT
from providers.formats.cohere import DEFAULT_MODEL
from providers.umf import (
    Block,
    Conversation,
    DriftWarning,
    ImageBlock,
    Message,
    Parameters,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.test_cohere_mistral import (
    BLOCKS,
    FIXTURES,
    PNG,
    ROLES,
    assert_nothing_silently_dropped,
    foreign_fixtures,
    load,
    png,
    stored,
    summary,
)
from tests.providers.sdk.cohere import check_cohere_rules, validate_cohere_request

COHERE = formats.get("cohere")


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that Cohere would take it, and give back payload and warnings."""
    rendered = COHERE.render(conversation)
    validate_cohere_request(rendered.payload)
    check_cohere_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def imported(format_id: str, name: str) -> Conversation:
    """A fixture of another format as storage gives it back after importing it."""
    [item] = formats.get(format_id).parse(load(FIXTURES / format_id / f"{name}.json"))
    return stored(item.conversation)


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[Message(role="user", content=list(blocks))],
    )


# --------------------------------------------------------------------------- realistic imports


def test_anthropic_tool_loop_renders_the_exact_request() -> None:
    payload, _ = render(imported("anthropic", "tool_loop_parallel"))
    source = load(FIXTURES / "anthropic" / "tool_loop_parallel.json")
    paris, tokyo, time, retry = (
        "toolu_01A09q90qw90lq917835lq9",
        "toolu_01B2xKk5PnB4nqBwa9Ypc4Xj",
        "toolu_01C7Z3bJ2uLqTeKvQ9d8wM1r",
        "toolu_01D4mRrT6yWq8sVn2pXc5Hk",
    )

    def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
        return {
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }

    assert payload == {
        "model": "claude-sonnet-4-5-20250929",
        "max_tokens": 2048,
        "messages": [
            {"role": "system", "content": source["system"]},
            {"role": "user", "content": source["messages"][0]["content"]},
            {
                "role": "assistant",
                "tool_plan": "I'll look up both cities at once.",
                "tool_calls": [
                    call(paris, "get_weather", '{"city":"Paris","unit":"celsius"}'),
                    call(tokyo, "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                    call(time, "get_local_time", '{"city":"Paris"}'),
                ],
            },
            {
                "role": "tool",
                "tool_call_id": paris,
                "content": '{"temp_c": 18, "conditions": "cloudy"}',
            },
            {
                "role": "tool",
                "tool_call_id": tokyo,
                "content": [
                    {"type": "text", "text": "Error:"},
                    {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": time,
                "content": [{"type": "text", "text": "14:05 CEST (UTC+2)"}],
            },
            {
                "role": "assistant",
                "tool_plan": source["messages"][3]["content"][0]["text"],
                "tool_calls": [call(retry, "get_weather", '{"city":"Tokyo","unit":"celsius"}')],
            },
            {
                "role": "tool",
                "tool_call_id": retry,
                "content": '{"temp_c": 24, "conditions": "sunny"}',
            },
            {"role": "user", "content": "Thanks. And in Fahrenheit?"},
            {"role": "assistant", "content": source["messages"][5]["content"]},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": tool["name"],
                    "description": tool["description"],
                    "parameters": tool["input_schema"],
                },
            }
            for tool in source["tools"]
        ],
    }


def test_anthropic_tool_loop_warns_for_each_lossy_step() -> None:
    _, warnings = render(imported("anthropic", "tool_loop_parallel"))
    assert summary(warnings) == [
        (
            "field-unknown",
            "messages[5].content[0].extra.anthropic",
            {"cache_control": {"type": "ephemeral"}},
            None,
        ),
        (
            "capability-unsupported",
            "messages[3].content[1].is_error",
            True,
            [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        ),
        (
            "content-dropped",
            "messages[3].content[2].content[1]",
            {"type": "image", "source": {"type": "base64", "media_type": "image/png"}},
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
    assert {w.source for w in warnings} == {"cohere"}


def test_openai_refusals_render_the_exact_request_as_text() -> None:
    payload, warnings = render(imported("openai-chat", "refusal_exchange"))
    source = load(FIXTURES / "openai-chat" / "refusal_exchange.json")
    assert payload == {
        "model": "gpt-4o-2024-08-06",
        "messages": [
            source["request"]["messages"][0],
            {"role": "assistant", "content": "I can't help with getting into someone else's home."},
            source["request"]["messages"][2],
            {"role": "assistant", "content": "I'm sorry, I can't help with that."},
        ],
    }
    assert summary(warnings) == [
        (
            "field-unknown",
            "extra.openai-chat",
            {"response_format": source["request"]["response_format"]},
            None,
        ),
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
    ]


def test_anthropic_thinking_keeps_its_text_but_not_its_signature() -> None:
    payload, warnings = render(imported("anthropic", "thinking_tool_loop"))
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    thinking = source["messages"][1]["content"][0]
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": thinking["thinking"]}
    ]
    assert summary(warnings) == [
        (
            "field-unknown",
            "extra.anthropic",
            {"thinking": {"type": "enabled", "budget_tokens": 10000}},
            None,
        ),
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    text = orjson.dumps(payload).decode()
    assert thinking["signature"] not in text
    assert source["messages"][1]["content"][1]["data"] not in text


def test_documents_become_document_data_or_are_dropped() -> None:
    payload, warnings = render(imported("anthropic", "multimodal_documents"))
    source = load(FIXTURES / "anthropic" / "multimodal_documents.json")
    url = source["messages"][0]["content"][4]["source"]["url"]
    assert payload["documents"] == [
        {"data": {"url": url}},
        {
            "data": {
                "title": "Species notes",
                "text": source["messages"][0]["content"][5]["source"]["data"],
            }
        },
        {
            "data": {
                "title": "Field log",
                "text": "Observation 1: colony found under bark.\n\n"
                "Observation 2: nocturnal foraging.",
            }
        },
    ]
    lossy = [w for w in summary(warnings) if w[0] != "field-unknown"]
    assert lossy == [
        (
            "content-dropped",
            "messages[0].content[2]",
            {
                "type": "image",
                "source": {"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
            },
            None,
        ),
        (
            "content-dropped",
            "messages[0].content[3]",
            {
                "type": "document",
                "source": {"type": "base64", "media_type": "application/pdf"},
                "title": "Field guide, chapter 3",
            },
            None,
        ),
        (
            "content-type-unsupported",
            "messages[0].content[4]",
            {"type": "document", "source": {"type": "url", "url": url}},
            "documents[0]",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[5]",
            {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain"},
                "title": "Species notes",
            },
            "documents[1]",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": {"type": "text"}, "title": "Field log"},
            "documents[2]",
        ),
        (
            "content-dropped",
            "messages[1].content[1].citations",
            source["messages"][1]["content"][1]["citations"],
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[3].citations",
            source["messages"][1]["content"][3]["citations"],
            None,
        ),
        (
            "content-dropped",
            "messages[2].content[0]",
            {
                "type": "document",
                "source": {"type": "file", "file_id": "file_011CPMxVD3fHLUhvTqtsQA5w"},
                "title": "Appendix",
            },
            None,
        ),
    ]


def test_audio_and_pdf_bytes_are_dropped() -> None:
    _, warnings = render(imported("openai-chat", "multimodal_request"))
    assert summary(warnings)[1:] == [
        (
            "content-dropped",
            "messages[1].content[3]",
            {"type": "audio", "source": {"type": "base64", "media_type": "audio/wav"}},
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[4]",
            {
                "type": "document",
                "source": {"type": "base64", "media_type": "application/pdf"},
                "filename": "invoice.pdf",
            },
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[5]",
            {
                "type": "document",
                "source": {"type": "file", "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"},
            },
            None,
        ),
    ]


def test_a_late_system_message_joins_the_leading_one() -> None:
    payload, warnings = render(imported("anthropic", "search_results_system_message"))
    assert payload["messages"][0] == {
        "role": "system",
        "content": [
            {"type": "text", "text": "Answer with citations to the search results you are given."},
            {"type": "text", "text": "From now on, answer in at most two sentences."},
        ],
    }
    assert [(w.category, w.field) for w in warnings] == [
        ("field-unknown", "messages[1].extra.anthropic"),
        ("field-unknown", "messages[3].content[0].extra.anthropic"),
        ("system-message-transformed", "messages[4]"),
        ("content-dropped", "messages[5].content[0].citations"),
    ]
    assert summary(warnings)[2] == ("system-message-transformed", "messages[4]", 4, 0)
    assert [m["role"] for m in payload["messages"]].count("system") == 1


def test_developer_messages_names_and_ranges() -> None:
    _, warnings = render(imported("openai-chat", "developer_name_unknown_fields"))
    lossy = [w for w in summary(warnings) if w[0] != "field-unknown"]
    assert lossy == [
        ("content-dropped", "messages[0].name", "acme_app", None),
        ("system-message-transformed", "messages[0]", "developer", "system"),
        ("content-dropped", "messages[1].name", "maria_k", None),
        ("content-dropped", "messages[2].name", "coder", None),
        ("content-dropped", "messages[4].name", "maria_k", None),
        ("parameter-clamped", "parameters.top_p", 1.0, 0.99),
        ("parameter-unsupported", "parameters.user", "user-1234", None),
        ("parameter-defaulted", "tools[0].parameters", None, {"type": "object", "properties": {}}),
    ]


def test_citations_of_other_formats_are_dropped() -> None:
    conversation = imported("openai-chat", "web_search_annotations")
    payload, warnings = render(conversation)
    text = conversation.messages[1].content[0]
    assert isinstance(text, TextBlock)
    assert payload["messages"][1] == {"role": "assistant", "content": text.text}
    assert summary(warnings)[1:] == [
        ("content-dropped", "messages[1].content[0].citations", text.citations, None)
    ]


# --------------------------------------------------------------------------- tool choice

_OPENAI_TOOLS_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "Book the 08:12 to Paris."}],
    "tools": [
        {
            "type": "function",
            "function": {"name": "search_trains", "parameters": {"type": "object"}},
        },
        {"type": "function", "function": {"name": "book_seat", "parameters": {"type": "object"}}},
    ],
}


def test_forcing_one_tool_requires_a_tool_and_offers_only_that_one() -> None:
    request = {
        **_OPENAI_TOOLS_REQUEST,
        "tool_choice": {"type": "function", "function": {"name": "book_seat"}},
    }
    converted = formats.convert("openai-chat", "cohere", request)
    validate_cohere_request(converted.payload)
    assert converted.payload["tool_choice"] == "REQUIRED"
    assert converted.payload["tools"] == [request["tools"][1]]
    assert summary(converted.warnings) == [
        ("parameter-normalized", "tool_choice", {"type": "tool", "name": "book_seat"}, "REQUIRED")
    ]
    assert converted.warnings[0].details == {"tools_left_out": ["search_trains"]}


@pytest.mark.parametrize(
    ("choice", "wire"), [("auto", None), ("required", "REQUIRED"), ("none", "NONE")]
)
def test_tool_choice_modes(choice: str, wire: str | None) -> None:
    converted = formats.convert(
        "openai-chat", "cohere", {**_OPENAI_TOOLS_REQUEST, "tool_choice": choice}
    )
    assert converted.payload.get("tool_choice") == wire
    assert converted.warnings == []


def test_tool_choice_without_tools_is_left_out() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tool_choice = ToolChoice(type="required")
    payload, warnings = render(conversation)
    assert "tool_choice" not in payload
    assert summary(warnings) == [
        ("parameter-unsupported", "tool_choice", {"type": "required"}, None)
    ]


# --------------------------------------------------------------------------- one lossy step each


def test_images_outside_user_messages_are_dropped() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-vision-07-2025"),
        messages=[
            Message(role="system", content=[TextBlock(text="Describe charts."), png()]),
            Message(role="user", content=[TextBlock(text="Draw it."), png("https://x.test/a.png")]),
            Message(role="assistant", content=[TextBlock(text="Here:"), png()]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"] == [
        {"role": "system", "content": "Describe charts."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Draw it."},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
            ],
        },
        {"role": "assistant", "content": "Here:"},
    ]
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png"}}
    assert summary(warnings) == [
        ("content-dropped", "messages[0].content[1]", image, None),
        ("content-dropped", "messages[2].content[1]", image, None),
    ]


def test_a_call_without_a_result_gets_a_placeholder() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="Search.")]),
            Message(role="assistant", content=[ToolUseBlock(id="call 1", name="search", input={})]),
            Message(role="user", content=[TextBlock(text="Well?")]),
        ],
    )
    payload, warnings = render(conversation)
    new_id = payload["messages"][1]["tool_calls"][0]["id"]
    assert payload["messages"][2] == {
        "role": "tool",
        "tool_call_id": new_id,
        "content": MISSING_RESULT_TEXT,
    }
    assert summary(warnings) == [
        ("id-rewritten", "messages[1].content[0].id", "call 1", new_id),
        ("id-synthesized", "messages[1].content[0]", None, MISSING_RESULT_TEXT),
    ]


def test_parameters_cohere_cannot_take() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.parameters = Parameters(
        model="command-a-03-2025",
        temperature=-0.5,
        top_p=1.0,
        top_k=900,
        frequency_penalty=1.5,
        stop=["a", "b", "c", "d", "e", "f"],
        user="u-1",
        parallel_tool_calls=False,
        custom={"logit_bias": {}},
    )
    payload, warnings = render(conversation)
    assert payload == {
        "model": "command-a-03-2025",
        "temperature": 0.0,
        "p": 0.99,
        "k": 500,
        "frequency_penalty": 1.0,
        "stop_sequences": ["a", "b", "c", "d", "e"],
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", -0.5, 0.0),
        ("parameter-clamped", "parameters.top_p", 1.0, 0.99),
        ("parameter-clamped", "parameters.top_k", 900, 500),
        (
            "stop-sequences-truncated",
            "parameters.stop",
            ["a", "b", "c", "d", "e", "f"],
            ["a", "b", "c", "d", "e"],
        ),
        ("parameter-clamped", "parameters.frequency_penalty", 1.5, 1.0),
        ("parameter-unsupported", "parameters.user", "u-1", None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "parameters.custom.logit_bias", {}, None),
    ]


def test_no_model_gets_the_default() -> None:
    conversation = Conversation(messages=[Message(role="user", content=[TextBlock(text="hi")])])
    payload, warnings = render(conversation)
    assert payload["model"] == DEFAULT_MODEL
    assert summary(warnings) == [("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL)]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
        ],
    )
    payload, warnings = render(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new"]
    assert summary(warnings) == [("content-dropped", "messages[1]", "b", None)]


def test_a_reasoning_field_becomes_thinking() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-reasoning-08-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="6 x 7?")]),
            Message(role="assistant", content=[TextBlock(text="42")], reasoning="Six sevens."),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Six sevens."},
            {"type": "text", "text": "42"},
        ],
    }
    assert warnings == []


def test_result_documents_stay_documents() -> None:
    result = ToolResultBlock(
        tool_use_id="call_1",
        content=[BLOCKS["document text"], BLOCKS["pdf"], TextBlock(text="done")],
    )
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(role="assistant", content=[ToolUseBlock(id="call_1", name="fetch", input={})]),
            Message(role="tool", content=[result]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1]["content"] == [
        {"type": "document", "document": {"data": {"text": "doc words"}}},
        {"type": "text", "text": "done"},
    ]
    assert [(w.category, w.field, w.transformed_value) for w in warnings] == [
        ("content-type-unsupported", "messages[1].content[0].content[0]", "document"),
        ("content-dropped", "messages[1].content[0].content[1]", None),
    ]


# ------------------------------------------------------------------------ every block, every role


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(block: Block, role: str) -> None:
    call = ToolUseBlock(id="call_table", name="lookup", input={})
    conversation = Conversation(
        parameters=Parameters(model="command-a-03-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="go")]),
            Message(role="assistant", content=[call]),
            Message(
                role=role,  # type: ignore[arg-type]
                content=[block],
                tool_call_id="call_table" if role == "tool" else None,
            ),
        ],
    )
    render(conversation)  # valid, and nothing lost without a warning


def test_signed_thinking_of_other_providers_is_sent_unsigned() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-reasoning-08-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="go")]),
            Message(role="assistant", content=[BLOCKS["thinking signed"], TextBlock(text="ok")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "signed thought",
    }
    assert "signature" not in payload["messages"][1]["content"][0]
    assert summary(warnings) == [
        ("signature-stripped", "messages[1].content[0]", "anthropic", None)
    ]


# ------------------------------------------------------------------------ other formats' fixtures


@pytest.mark.parametrize(
    "path", foreign_fixtures("cohere"), ids=lambda p: f"{p.parent.name}-{p.stem}"
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    parsed = formats.parse(path.parent.name, load(path))
    for item in parsed.items:
        render(stored(item.conversation))


# --------------------------------------------------------------------------- random conversations

_IDS = st.sampled_from(["call_a", "toolu_01B", "fc_" + "9" * 60, "bad id!", ""])


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
    name=st.sampled_from([None, "ann"]),
)


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(_MESSAGES, min_size=1, max_size=6))
def test_any_conversation_renders_a_valid_request_and_warns_for_each_loss(
    messages: list[Message],
) -> None:
    conversation = Conversation(messages=messages, tools=[Tool(name="f")])
    render(conversation)


def test_image_data_is_sent_as_a_data_uri() -> None:
    payload, _ = render(one_user_message(ImageBlock.model_validate(png().model_dump())))
    assert (
        payload["messages"][0]["content"][0]["image_url"]["url"] == f"data:image/png;base64,{PNG}"
    )


def test_thinking_in_a_user_message_is_dropped() -> None:
    payload, warnings = render(one_user_message(TextBlock(text="a"), ThinkingBlock(text="b")))
    assert payload["messages"] == [{"role": "user", "content": "a"}]
    assert summary(warnings) == [("reasoning-dropped", "messages[0].content[1]", "b", None)]


@settings(max_examples=150, deadline=None)
@given(
    messages=st.lists(_MESSAGES, max_size=6),
    shape=st.sampled_from(["request", "messages", "exchange", "response"]),
)
def test_messages_added_after_an_import_are_written_or_warned(
    messages: list[Message], shape: str
) -> None:
    # A conversation read from this format and then extended elsewhere (a replay on another
    # provider adds its messages) is still written in its shape, losing nothing silently.
    conversation = Conversation(messages=messages, extra={"cohere": {"$shape": shape}})
    rendered = COHERE.render(stored(conversation))
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
