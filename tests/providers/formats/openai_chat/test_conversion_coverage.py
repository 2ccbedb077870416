"""Every block in every role carried or warned, other formats' fixtures rendered as valid
``openai-chat`` requests, and random conversations warning for each loss."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from providers import formats
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    Parameters,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.openai_chat._conversion_helpers import (
    FIXTURES,
    LONG_ID,
    assert_renders_for_openai,
    pdf,
    png,
)

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
    assert_renders_for_openai(conversation)  # valid, and nothing lost without a warning


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
        assert_renders_for_openai(stored)


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
    assert_renders_for_openai(Conversation(messages=messages))
