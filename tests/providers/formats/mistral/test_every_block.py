"""The ``mistral`` format rendering every block in every role, other formats' fixtures, and
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
    Message,
    Parameters,
    TextBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    BLOCKS,
    ROLES,
    assert_nothing_silently_dropped,
    foreign_fixtures,
    load,
    stored,
)
from tests.providers.formats.mistral._helpers import (
    MISTRAL,
    assert_renders,
)

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
    assert_renders(conversation)  # valid, and nothing lost without a warning


@pytest.mark.parametrize(
    "path", foreign_fixtures("mistral"), ids=lambda p: f"{p.parent.name}-{p.stem}"
)
def test_other_formats_fixtures_render_valid_requests(path: Path) -> None:
    parsed = formats.parse(path.parent.name, load(path))
    for item in parsed.items:
        assert_renders(stored(item.conversation))


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
    assert_renders(Conversation(messages=messages, tools=[Tool(name="f")]))


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
