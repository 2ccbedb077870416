"""Converting into ``openai-responses``: every block in every role, and random conversations,
render valid requests with a warning for each loss.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    RS_ID,
    assert_renders,
    assistant,
    chat,
    own_reasoning,
    pdf,
    png,
    user,
)

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
    assert_renders(conversation)  # valid, and nothing lost without a warning


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
    assert_renders(Conversation(messages=messages))
