"""The ``anthropic`` renderer fed anything: no block is dropped silently, any conversation
renders as a request the API accepts, and so do other formats' fixtures."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats import parse as parse_as
from providers.formats.anthropic import render
from providers.formats.anthropic._render_blocks import RENDERERS
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
from tests.providers.formats.anthropic._convert_helpers import (
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


def test_every_block_type_has_a_renderer_and_a_sample() -> None:
    assert set(RENDERERS) == set(BLOCK_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
@pytest.mark.parametrize("block_type", BLOCK_TYPES)
def test_no_block_is_dropped_silently(block_type: str, role: str) -> None:
    message = Message(role=role, content=[SAMPLES[block_type]])  # type: ignore[arg-type]
    rendered = render(Conversation(messages=[user(text("q")), message], parameters=PARAMS))
    assert_valid_request(rendered.payload)
    carried = "MARK" in str(rendered.payload)
    warned = [w for w in rendered.warnings if (w.field or "").startswith("messages[1]")]
    assert carried or warned


# --------------------------------------------------------------------------- any conversation

ID_POOL = ["call_1", "call.2", "toolu_3", "fc:4", ""]


def _blocks(role: str) -> st.SearchStrategy[list[Block]]:
    texts = st.sampled_from(["hi", "", " ", "text"]).map(lambda t: TextBlock(text=t))
    media = st.sampled_from(list(SAMPLES.values())[2:5])
    calls = st.sampled_from(ID_POOL).map(
        lambda i: ToolUseBlock(id=i, name="f", input={}, raw_arguments=None)
    )
    results = st.sampled_from(ID_POOL).map(lambda i: ToolResultBlock(tool_use_id=i, content="r"))
    thinking = st.builds(
        ThinkingBlock,
        text=st.sampled_from(["", "t"]),
        signature=st.sampled_from([None, "sig"]),
        redacted=st.booleans(),
        data=st.sampled_from([None, "d"]),
        provider=st.sampled_from([None, "anthropic", "openai"]),
    )
    refusals = st.just(RefusalBlock(text="no"))
    kinds = {
        "assistant": texts | calls | thinking | refusals | media,
        "tool": results | texts,
    }.get(role, texts | media | results)
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
@given(messages=st.lists(_messages, max_size=8), tools=st.booleans())
def test_any_conversation_renders_as_a_request_the_api_accepts(
    messages: list[Message], tools: bool
) -> None:
    conversation = Conversation(
        messages=messages,
        tools=[Tool(name="f", parameters={"type": "object"})] if tools else [],
        tool_choice=ToolChoice(type="required"),
    )
    rendered = render(conversation)
    assert_valid_request(rendered.payload)


# ------------------------------------------------------------------------- other formats' fixtures

FIXTURES = Path(__file__).parents[3] / "fixtures"
FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "anthropic"
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
        assert all(w.field and w.source == "anthropic" for w in rendered.warnings)
