"""The ``cohere`` format rendering every block in every role, other formats' fixtures, and
random conversations: each a valid request, with a warning for each loss.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers import formats
from providers.umf import (
    Block,
    Conversation,
    ImageBlock,
    Message,
    Parameters,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    BLOCKS,
    PNG,
    ROLES,
    assert_nothing_silently_dropped,
    foreign_fixtures,
    load,
    png,
    stored,
    summary,
)
from tests.providers.formats.cohere._helpers import (
    COHERE,
    assert_renders,
    one_user_message,
)

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
    assert_renders(conversation)  # valid, and nothing lost without a warning


def test_signed_thinking_of_other_providers_is_sent_unsigned() -> None:
    conversation = Conversation(
        parameters=Parameters(model="command-a-reasoning-08-2025"),
        messages=[
            Message(role="user", content=[TextBlock(text="go")]),
            Message(role="assistant", content=[BLOCKS["thinking signed"], TextBlock(text="ok")]),
        ],
    )
    payload, warnings = assert_renders(conversation)
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
        assert_renders(stored(item.conversation))


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
    assert_renders(conversation)


def test_image_data_is_sent_as_a_data_uri() -> None:
    payload, _ = assert_renders(one_user_message(ImageBlock.model_validate(png().model_dump())))
    assert (
        payload["messages"][0]["content"][0]["image_url"]["url"] == f"data:image/png;base64,{PNG}"
    )


def test_thinking_in_a_user_message_is_dropped() -> None:
    payload, warnings = assert_renders(
        one_user_message(TextBlock(text="a"), ThinkingBlock(text="b"))
    )
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
