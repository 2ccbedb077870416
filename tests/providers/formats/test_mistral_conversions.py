"""The ``mistral`` format rendering conversations read from other formats.

Every rendered request must be one mistralai's request types accept (plus the ordering
and id rules the API enforces), and everything it could not carry must be a warning: one
test per lossy cell of the Mistral column of the reference's conversion matrix.
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
from providers.formats.mistral import BRIDGE_TEXT, DEFAULT_MODEL
from providers.formats.mistral._shared import make_tool_call_id
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    DriftWarning,
    MediaSource,
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
    pdf,
    png,
    stored,
    summary,
)
from tests.providers.sdk.mistral import check_mistral_rules, validate_mistral_request

MISTRAL = formats.get("mistral")
BRIDGE = {"role": "assistant", "content": BRIDGE_TEXT}


def render(conversation: Conversation) -> tuple[Any, list[DriftWarning]]:
    """Render, check that Mistral would take it, and give back payload and warnings."""
    rendered = MISTRAL.render(conversation)
    validate_mistral_request(rendered.payload)
    check_mistral_rules(rendered.payload)
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
    return rendered.payload, rendered.warnings


def imported(format_id: str, name: str) -> Conversation:
    """A fixture of another format as storage gives it back after importing it."""
    [item] = formats.get(format_id).parse(load(FIXTURES / format_id / f"{name}.json"))
    return stored(item.conversation)


def mistral_id(original: str) -> str:
    """The id a foreign call id becomes (documented: base 62 of its sha256, 9 characters)."""
    return make_tool_call_id(hashlib.sha256(original.encode()).hexdigest())


def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def one_user_message(*blocks: Block) -> Conversation:
    return Conversation(
        parameters=Parameters(model="mistral-medium-latest"),
        messages=[Message(role="user", content=list(blocks))],
    )


# --------------------------------------------------------------------------- realistic imports


def test_openai_tool_loop_renders_the_exact_request() -> None:
    payload, warnings = render(imported("openai-chat", "tool_loop_parallel"))
    source = load(FIXTURES / "openai-chat" / "tool_loop_parallel.json")
    messages = source["messages"]
    ids = [call["id"] for call in messages[2]["tool_calls"]] + [messages[8]["tool_calls"][0]["id"]]
    new = [mistral_id(original) for original in ids]
    assert payload == {
        "model": "gpt-4.1-2025-04-14",
        "temperature": 0.2,
        "parallel_tool_calls": True,
        "messages": [
            messages[0],
            messages[1],
            {
                "role": "assistant",
                "tool_calls": [
                    call(new[0], "get_weather", '{"city":"Paris","unit":"celsius"}'),
                    call(new[1], "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                    call(new[2], "get_time", '{"timezone": "Asia/Tokyo"}'),
                ],
            },
            {
                "role": "tool",
                "tool_call_id": new[0],
                "name": "get_weather",
                "content": messages[3]["content"],
            },
            {
                "role": "tool",
                "tool_call_id": new[1],
                "name": "get_weather",
                "content": messages[4]["content"],
            },
            {
                "role": "tool",
                "tool_call_id": new[2],
                "name": "get_time",
                "content": messages[5]["content"],
            },
            messages[6],
            messages[7],
            {
                "role": "assistant",
                "content": "Searching now.",
                "tool_calls": [
                    call(
                        new[3],
                        "search_restaurants",
                        messages[8]["tool_calls"][0]["function"]["arguments"],
                    )
                ],
            },
            {
                "role": "tool",
                "tool_call_id": new[3],
                "name": "search_restaurants",
                "content": messages[9]["content"],
            },
        ],
        "tools": [
            {
                "type": "function",
                "function": {k: v for k, v in tool["function"].items() if k != "strict"},
            }
            for tool in source["tools"]
        ],
        "tool_choice": "auto",
    }
    paths = ["messages[2].content[0]", "messages[2].content[1]", "messages[2].content[2]"]
    assert summary(warnings) == [
        *[
            ("id-rewritten", f"{path}.id", old, fresh)
            for path, old, fresh in zip(paths, ids, new, strict=False)
        ],
        ("id-rewritten", "messages[8].content[1].id", ids[3], new[3]),
        ("field-unknown", "tools[0].extra.openai-chat", {"strict": True}, None),
    ]


def test_anthropic_tool_loop_renders_the_exact_request() -> None:
    payload, _ = render(imported("anthropic", "tool_loop_parallel"))
    source = load(FIXTURES / "anthropic" / "tool_loop_parallel.json")
    paris, tokyo, time, retry = (
        mistral_id(block["id"])
        for block in source["messages"][1]["content"][1:] + source["messages"][3]["content"][1:]
    )
    radar = source["messages"][2]["content"][2]["content"][1]["source"]["data"]
    assert payload["messages"] == [
        {"role": "system", "content": source["system"]},
        {"role": "user", "content": source["messages"][0]["content"]},
        {
            "role": "assistant",
            "content": "I'll look up both cities at once.",
            "tool_calls": [
                call(paris, "get_weather", '{"city":"Paris","unit":"celsius"}'),
                call(tokyo, "get_weather", '{"city":"Tokyo","unit":"celsius"}'),
                call(time, "get_local_time", '{"city":"Paris"}'),
            ],
        },
        {
            "role": "tool",
            "tool_call_id": paris,
            "name": "get_weather",
            "content": '{"temp_c": 18, "conditions": "cloudy"}',
        },
        {
            "role": "tool",
            "tool_call_id": tokyo,
            "name": "get_weather",
            "content": [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        },
        {
            "role": "tool",
            "tool_call_id": time,
            "name": "get_local_time",
            "content": [{"type": "text", "text": "14:05 CEST (UTC+2)"}],
        },
        BRIDGE,
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": f"data:image/png;base64,{radar}"}],
        },
        {
            "role": "assistant",
            "content": source["messages"][3]["content"][0]["text"],
            "tool_calls": [call(retry, "get_weather", '{"city":"Tokyo","unit":"celsius"}')],
        },
        {
            "role": "tool",
            "tool_call_id": retry,
            "name": "get_weather",
            "content": '{"temp_c": 24, "conditions": "sunny"}',
        },
        BRIDGE,
        {"role": "user", "content": "Thanks. And in Fahrenheit?"},
        {"role": "assistant", "content": source["messages"][5]["content"], "prefix": True},
    ]


def test_anthropic_tool_loop_warns_for_each_lossy_step() -> None:
    _, warnings = render(imported("anthropic", "tool_loop_parallel"))
    lossy = [w for w in summary(warnings) if w[0] not in ("field-unknown", "id-rewritten")]
    assert lossy == [
        (
            "capability-unsupported",
            "messages[3].content[1].is_error",
            True,
            [
                {"type": "text", "text": "Error:"},
                {"type": "text", "text": "WeatherServiceError: upstream timeout after 10s"},
            ],
        ),
        ("message-reordered", "messages[3].content[2].content[1]", "tool", "user"),
        ("message-reordered", "messages[3].content[2]", None, BRIDGE),
        ("message-reordered", "messages[5]", None, BRIDGE),
        ("parameter-defaulted", "messages[6]", None, {"prefix": True}),
    ]
    assert [w[1] for w in summary(warnings) if w[0] == "id-rewritten"] == [
        "messages[2].content[1].id",
        "messages[2].content[2].id",
        "messages[2].content[3].id",
        "messages[4].content[1].id",
    ]


def test_anthropic_thinking_keeps_its_text_but_not_its_signature() -> None:
    payload, warnings = render(imported("anthropic", "thinking_tool_loop"))
    source = load(FIXTURES / "anthropic" / "thinking_tool_loop.json")
    thinking = source["messages"][1]["content"][0]
    assert payload["messages"][1]["content"] == [
        {"type": "thinking", "thinking": [{"type": "text", "text": thinking["thinking"]}]}
    ]
    assert summary(warnings)[2:] == [
        ("signature-stripped", "messages[1].content[0]", "anthropic", None),
        ("reasoning-dropped", "messages[1].content[1]", None, None),
    ]
    text = orjson.dumps(payload).decode()
    assert thinking["signature"] not in text
    assert source["messages"][1]["content"][1]["data"] not in text


def test_mistral_signatures_go_back_to_mistral() -> None:
    signed = ThinkingBlock(text="Check units.", signature="bWlzdHJhbA==", provider="mistral")
    conversation = Conversation(
        parameters=Parameters(model="magistral-medium-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="5 km in miles?")]),
            Message(role="assistant", content=[signed, TextBlock(text="3.1 miles.")]),
            Message(role="user", content=[TextBlock(text="And 10 km?")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": [{"type": "text", "text": "Check units."}],
        "signature": "bWlzdHJhbA==",
    }
    assert warnings == []


def test_documents_by_url_travel_and_bytes_do_not() -> None:
    payload, warnings = render(imported("anthropic", "multimodal_documents"))
    source = load(FIXTURES / "anthropic" / "multimodal_documents.json")
    content = source["messages"][0]["content"]
    assert payload["messages"][0]["content"][2:5] == [
        {"type": "document_url", "document_url": content[4]["source"]["url"]},
        {"type": "text", "text": content[5]["source"]["data"]},
        {
            "type": "text",
            "text": "Observation 1: colony found under bark.\n\nObservation 2: nocturnal foraging.",
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
            "messages[0].content[5]",
            {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain"},
                "title": "Species notes",
            },
            "text",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": {"type": "text"}, "title": "Field log"},
            "text",
        ),
        ("content-dropped", "messages[1].content[1].citations", content_citations(source, 1), None),
        ("content-dropped", "messages[1].content[3].citations", content_citations(source, 3), None),
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


def content_citations(source: Any, index: int) -> Any:
    return source["messages"][1]["content"][index]["citations"]


def test_refusals_become_text_and_the_last_answer_a_prefix() -> None:
    payload, warnings = render(imported("openai-chat", "refusal_exchange"))
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": "I can't help with getting into someone else's home.",
    }
    assert payload["messages"][3] == {
        "role": "assistant",
        "content": "I'm sorry, I can't help with that.",
        "prefix": True,
    }
    assert summary(warnings)[1:] == [
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
        ("parameter-defaulted", "messages[3]", None, {"prefix": True}),
    ]


def test_citations_of_other_formats_are_dropped() -> None:
    conversation = imported("openai-chat", "web_search_annotations")
    payload, warnings = render(conversation)
    text = conversation.messages[1].content[0]
    assert isinstance(text, TextBlock)
    assert payload["messages"][1] == {"role": "assistant", "content": text.text, "prefix": True}
    assert summary(warnings)[1:] == [
        ("content-dropped", "messages[1].content[0].citations", text.citations, None),
        ("parameter-defaulted", "messages[1]", None, {"prefix": True}),
    ]


def test_a_late_system_message_joins_the_leading_one() -> None:
    payload, warnings = render(imported("anthropic", "search_results_system_message"))
    assert [m["role"] for m in payload["messages"]].count("system") == 1
    assert payload["messages"][0]["content"][1] == {
        "type": "text",
        "text": "From now on, answer in at most two sentences.",
    }
    assert [(w.category, w.field) for w in warnings] == [
        ("field-unknown", "messages[1].extra.anthropic"),
        ("field-unknown", "messages[3].content[0].extra.anthropic"),
        ("system-message-transformed", "messages[4]"),
        ("id-rewritten", "messages[2].content[0].id"),
        ("content-dropped", "messages[5].content[0].citations"),
    ]
    assert summary(warnings)[2] == ("system-message-transformed", "messages[4]", 4, 0)


def test_a_user_turn_left_alone_by_a_dropped_answer_is_merged() -> None:
    payload, warnings = render(imported("openai-chat", "audio_exchange"))
    assert [m["role"] for m in payload["messages"]] == ["user"]
    assert summary(warnings)[-1] == ("role-merged", "messages[2]", "user", "user")
    assert warnings[-1].details == {"merged_into": "messages[0]"}


# --------------------------------------------------------------------------- one lossy step each


def test_consecutive_messages_of_one_role_are_merged() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="Hello.")]),
            Message(role="user", content=[TextBlock(text="Are you there?")]),
            Message(role="assistant", content=[TextBlock(text="Yes.")]),
            Message(role="assistant", content=[TextBlock(text="How can I help?")]),
            Message(role="user", content=[TextBlock(text="Tell me a joke.")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Hello."},
                {"type": "text", "text": "Are you there?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Yes."},
                {"type": "text", "text": "How can I help?"},
            ],
        },
        {"role": "user", "content": "Tell me a joke."},
    ]
    assert summary(warnings) == [
        ("role-merged", "messages[1]", "user", "user"),
        ("role-merged", "messages[3]", "assistant", "assistant"),
    ]


def test_assistant_media_moves_to_a_user_message_after_the_group() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-medium-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="Draw a cat and save it.")]),
            Message(
                role="assistant",
                content=[png(), ToolUseBlock(id="abc123XYZ", name="save", input={})],
            ),
            Message(role="tool", tool_call_id="abc123XYZ", content=[TextBlock(text="saved")]),
            Message(role="user", content=[TextBlock(text="Thanks")]),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"][1:] == [
        {"role": "assistant", "tool_calls": [call("abc123XYZ", "save", "{}")]},
        {
            "role": "tool",
            "tool_call_id": "abc123XYZ",
            "name": "save",
            "content": [{"type": "text", "text": "saved"}],
        },
        BRIDGE,
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": f"data:image/png;base64,{PNG}"},
                {"type": "text", "text": "Thanks"},
            ],
        },
    ]
    assert summary(warnings) == [
        ("message-reordered", "messages[1].content[0]", "assistant", "user"),
        ("message-reordered", "messages[1]", None, BRIDGE),
    ]


def test_media_without_a_sendable_source_is_dropped() -> None:
    payload, warnings = render(
        one_user_message(
            TextBlock(text="see"),
            pdf(),
            AudioBlock(source=MediaSource(type="url", url="https://x.test/a.mp3")),
            DocumentBlock(source=MediaSource(type="file", file_id="file-abc")),
            DocumentBlock(source=MediaSource(type="url", url="https://x.test/a.pdf"), title="Q3"),
        )
    )
    assert payload["messages"][0]["content"] == [
        {"type": "text", "text": "see"},
        {"type": "document_url", "document_url": "https://x.test/a.pdf", "document_name": "Q3"},
    ]
    assert [(w.category, w.field) for w in warnings] == [
        ("content-dropped", "messages[0].content[1]"),
        ("content-dropped", "messages[0].content[2]"),
        ("content-dropped", "messages[0].content[3]"),
    ]


def test_tool_choice_forms() -> None:
    conversation = one_user_message(TextBlock(text="hi"))
    conversation.tools = [Tool(name="f", parameters={"type": "object"})]
    expected: list[tuple[ToolChoice, Any]] = [
        (ToolChoice(type="tool", name="f"), {"type": "function", "function": {"name": "f"}}),
        (ToolChoice(type="required"), "any"),
        (ToolChoice(type="none"), "none"),
        (ToolChoice(type="auto"), "auto"),
    ]
    for choice, wire in expected:
        conversation.tool_choice = choice
        payload, warnings = render(conversation)
        assert (payload["tool_choice"], warnings) == (wire, [])
    conversation.tool_choice = ToolChoice(type="tool")
    payload, warnings = render(conversation)
    assert payload["tool_choice"] == "any"
    assert summary(warnings) == [("parameter-normalized", "tool_choice", "tool", "any")]


def test_parameters_mistral_cannot_take() -> None:
    conversation = Conversation(
        messages=[Message(role="user", content=[TextBlock(text="hi")])],
        parameters=Parameters(temperature=1.8, top_k=20, seed=4, user="u-1", custom={"safe": 1}),
        tool_choice=ToolChoice(type="required"),
    )
    payload, warnings = render(conversation)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 1.5,
        "top_k": 20,
        "random_seed": 4,
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-clamped", "parameters.temperature", 1.8, 1.5),
        ("parameter-unsupported", "parameters.user", "u-1", None),
        ("parameter-unsupported", "parameters.custom.safe", 1, None),
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-unsupported", "tool_choice", {"type": "required"}, None),
    ]


def test_a_tree_exports_its_main_thread() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(id="c", parent_id="a", role="assistant", content=[TextBlock(text="new")]),
            Message(id="d", parent_id="c", role="user", content=[TextBlock(text="and?")]),
        ],
    )
    payload, warnings = render(conversation)
    assert [m["content"] for m in payload["messages"]] == ["hi", "new", "and?"]
    assert summary(warnings) == [("content-dropped", "messages[1]", "b", None)]


def test_a_result_without_its_call_becomes_user_text() -> None:
    conversation = Conversation(
        parameters=Parameters(model="mistral-small-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="hi")]),
            Message(
                role="tool",
                content=[ToolResultBlock(tool_use_id="gone", content="42", is_error=True)],
            ),
        ],
    )
    payload, warnings = render(conversation)
    assert payload["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "text", "text": "Error"},
                {"type": "text", "text": "42"},
            ],
        }
    ]
    assert [w.category for w in warnings] == [
        "content-type-unsupported",
        "capability-unsupported",
        "role-merged",
    ]


# ------------------------------------------------------------------------ every block, every role


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(block: Block, role: str) -> None:
    call_block = ToolUseBlock(id="call_table", name="lookup", input={})
    conversation = Conversation(
        parameters=Parameters(model="mistral-medium-latest"),
        messages=[
            Message(role="user", content=[TextBlock(text="go")]),
            Message(role="assistant", content=[call_block]),
            Message(
                role=role,  # type: ignore[arg-type]
                content=[block],
                tool_call_id="call_table" if role == "tool" else None,
            ),
        ],
    )
    render(conversation)  # valid, and nothing lost without a warning


@pytest.mark.parametrize(
    "path", foreign_fixtures("mistral"), ids=lambda p: f"{p.parent.name}-{p.stem}"
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    parsed = formats.parse(path.parent.name, load(path))
    for item in parsed.items:
        render(stored(item.conversation))


# --------------------------------------------------------------------------- random conversations

_IDS = st.sampled_from(["call_a", "abcDEF123", "toolu_01B", "bad id!", ""])


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
@given(messages=st.lists(_MESSAGES, min_size=1, max_size=6))
def test_any_conversation_renders_a_valid_request_and_warns_for_each_loss(
    messages: list[Message],
) -> None:
    render(Conversation(messages=messages, tools=[Tool(name="f")]))


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
    conversation = Conversation(messages=messages, extra={"mistral": {"$shape": shape}})
    rendered = MISTRAL.render(stored(conversation))
    assert_nothing_silently_dropped(conversation, rendered.payload, rendered.warnings)
