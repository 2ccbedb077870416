"""The ``chatml`` renderer fed anything: no block is dropped silently, other formats' fixtures
are written as ChatML, and so is any conversation."""

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
from tests.providers.formats.chatml._convert_helpers import (
    FIXTURES,
    PNG,
    assert_converts,
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
    assert_converts(Conversation(messages=[user(text("q")), message]))


# --------------------------------------------------------------------------- other formats

OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "chatml"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_are_written_as_chatml(path: Path) -> None:
    try:
        parsed = formats.parse(path.parent.name, orjson.loads(path.read_bytes()))
    except formats.FormatError:
        pytest.skip(f"no registered format reads {path.parent.name}")
    for item in parsed.items:
        assert_converts(Conversation.model_validate_json(item.conversation.model_dump_json()))


# --------------------------------------------------------------------------- any conversation

_IDS = st.sampled_from(["call_a", "toolu_01B", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([*SAMPLES.values(), *EXTRA_SAMPLES.values()])
    pieces = ["a", " ", "\n", "<", "|", ">", "im_end", "<|im_start|>", "<think>", "</think>"]
    words = st.lists(st.sampled_from(pieces), max_size=6).map("".join)
    texts = words.map(lambda value: TextBlock(text=value))
    uses = st.builds(ToolUseBlock, id=_IDS, name=st.just("f"), input=st.just({"x": "<|im_end|>"}))
    results = st.builds(
        ToolResultBlock,
        tool_use_id=_IDS,
        content=st.one_of(words, st.lists(simple, max_size=3)),
        is_error=st.sampled_from([None, True]),
    )
    return st.one_of(simple, texts, uses, results)


_MESSAGES = st.builds(
    Message,
    role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    content=st.lists(_blocks(), max_size=4),
    tool_call_id=st.one_of(st.none(), _IDS),
    name=st.sampled_from([None, "ann", "two words", "x\ny"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_MESSAGES, max_size=6), tools=st.booleans())
def test_any_conversation_is_written_as_chatml(items: list[Message], tools: bool) -> None:
    conversation = Conversation(
        messages=items, tools=[Tool(name="f", parameters={"type": "object"})] if tools else []
    )
    assert_converts(conversation)
