"""Every block in every role carried or warned, other formats' fixtures rendered as valid
``ollama`` requests, and any generated conversation rendering a valid request."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
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
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.ollama._convert_helpers import (
    FIXTURES,
    PNG,
    assert_converts,
    messages,
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
    assert_converts(messages(user(text("q")), message))


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
        assert_converts(Conversation.model_validate_json(item.conversation.model_dump_json()))


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
    assert_converts(conversation)
