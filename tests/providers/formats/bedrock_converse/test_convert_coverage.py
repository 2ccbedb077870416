"""The ``bedrock-converse`` renderer fed anything: no block is dropped silently, any
conversation renders as a request Converse accepts, and so do other formats' fixtures."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats import parse as parse_as
from providers.formats.bedrock_converse import render
from providers.formats.bedrock_converse._render_blocks import RENDERERS
from providers.umf import (
    BLOCK_TYPES,
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
    Tool,
    ToolChoice,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.bedrock_converse._convert_helpers import (
    FIXTURES,
    PARAMS,
    assert_valid_request,
    text,
    user,
)

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
MORE_SAMPLES: list[Block] = [
    ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="MARK")),
    DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="MARK"), title="d"
    ),
    ToolResultBlock(tool_use_id="MARK-error", content="MARK-error", is_error=True),
    ThinkingBlock(text="MARK-unsigned", provider="anthropic"),
    ThinkingBlock(redacted=True, data="MARK-redacted", provider="anthropic"),
    ThinkingBlock(redacted=True, data="MARK", provider="bedrock-converse"),
    ThinkingBlock(text="MARK-signed", signature="MARK", provider="bedrock-converse"),
]


def test_every_block_type_has_a_renderer_and_a_sample() -> None:
    assert set(RENDERERS) == set(BLOCK_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
@pytest.mark.parametrize("block", [*SAMPLES.values(), *MORE_SAMPLES], ids=repr)
def test_no_block_is_dropped_silently(block: Block, role: str) -> None:
    message = Message(role=role, content=[block])  # type: ignore[arg-type]
    rendered = render(Conversation(messages=[user(text("q")), message], parameters=PARAMS))
    assert_valid_request(rendered.payload)
    carried = "MARK" in str(rendered.payload)
    warned = [w for w in rendered.warnings if (w.field or "").startswith("messages[1]")]
    assert carried or warned


# --------------------------------------------------------------------------- any conversation

ID_POOL = ["call_1", "call.2", "toolu_3", "fc:4", "", "with space", "x" * 80]


def _blocks(role: str) -> st.SearchStrategy[list[Block]]:
    texts = st.sampled_from(["hi", "", " ", "text"]).map(lambda t: TextBlock(text=t))
    media = st.sampled_from([*list(SAMPLES.values())[2:5], *MORE_SAMPLES[:2]])
    calls = st.builds(
        lambda i, n: ToolUseBlock(id=i, name=n, input={}),
        st.sampled_from(ID_POOL),
        st.sampled_from(["f", "g.h", ""]),
    )
    results = st.builds(
        lambda i, e: ToolResultBlock(tool_use_id=i, content="r", is_error=e),
        st.sampled_from(ID_POOL),
        st.sampled_from([None, True, False]),
    )
    thinking = st.builds(
        ThinkingBlock,
        text=st.sampled_from(["", "t"]),
        signature=st.sampled_from([None, "sig"]),
        redacted=st.booleans(),
        data=st.sampled_from([None, "ZA=="]),
        provider=st.sampled_from([None, "bedrock-converse", "anthropic"]),
    )
    refusals = st.just(RefusalBlock(text="no"))
    kinds = {
        "assistant": texts | calls | thinking | refusals | media,
        "tool": results | texts,
    }.get(role, texts | media | results | calls)
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
@given(
    messages=st.lists(_messages, max_size=8),
    tools=st.booleans(),
    choice=st.sampled_from([None, "auto", "required", "none", "tool"]),
)
def test_any_conversation_renders_as_a_request_converse_accepts(
    messages: list[Message], tools: bool, choice: str | None
) -> None:
    conversation = Conversation(
        messages=messages,
        tools=[Tool(name="f", parameters={"type": "object"})] if tools else [],
        tool_choice=ToolChoice(type=choice, name="f" if choice == "tool" else None)  # type: ignore[arg-type]
        if choice
        else None,
    )
    rendered = render(conversation)
    assert_valid_request(rendered.payload)


# ------------------------------------------------------------------------- other formats' fixtures

FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "bedrock-converse"
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
        assert all(w.field and w.source == "bedrock-converse" for w in rendered.warnings)
