"""The ``gemini`` renderer never drops anything silently and always writes a request the
API accepts: every UMF block type in every role, random conversations, and every fixture of
every other format."""

from __future__ import annotations

import base64
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats import parse as parse_as
from providers.formats.gemini import render
from providers.formats.gemini._render_parts import RENDERERS
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
from tests.providers.formats.gemini.test_convert_whole_fixtures import (
    FIXTURES,
    assert_valid_request,
    text,
    user,
)

# --------------------------------------------------------------------------- nothing silently lost

SAMPLES: dict[str, Block] = {
    "text": TextBlock(text="MARK-text"),
    "refusal": RefusalBlock(text="MARK-refusal"),
    "image": ImageBlock(source=MediaSource(type="url", url="https://x/MARK-image.png")),
    "document": DocumentBlock(source=MediaSource(type="url", url="https://x/MARK-doc.pdf")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="MARK")),
    "tool_use": ToolUseBlock(id="MARK-call", name="f", input={"MARK": 1}),
    "tool_result": ToolResultBlock(tool_use_id="MARK-result", content="MARK-result"),
    "thinking": ThinkingBlock(text="MARK-thinking", signature="s", provider="anthropic"),
}
MORE_SAMPLES: list[Block] = [
    ImageBlock(source=MediaSource(type="base64", media_type="image/png", data="MARK")),
    DocumentBlock(source=MediaSource(type="text", data="MARK-document")),
    ToolResultBlock(tool_use_id="MARK-result", content="MARK-error", is_error=True),
    ThinkingBlock(text="MARK-unsigned", provider="gemini"),
    ThinkingBlock(redacted=True, data="MARK-redacted", provider="anthropic"),
    ImageBlock(source=MediaSource(type="file", file_id="file-MARK")),
]


def _visible(payload: Any) -> str:
    """The payload as text, inline text documents decoded."""
    found = [str(payload)]
    for content in payload["contents"]:
        for part in content["parts"]:
            blob = part.get("inlineData", {})
            if blob.get("mimeType") == "text/plain":
                found.append(base64.b64decode(blob["data"]).decode())
    return "".join(found)


def test_every_block_type_has_a_renderer_and_a_sample() -> None:
    assert set(RENDERERS) == set(BLOCK_TYPES) == set(SAMPLES)


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
@pytest.mark.parametrize("block", [*SAMPLES.values(), *MORE_SAMPLES], ids=repr)
def test_no_block_is_dropped_silently(block: Block, role: str) -> None:
    message = Message(role=role, content=[block])  # type: ignore[arg-type]
    rendered = render(Conversation(messages=[user(text("q")), message]))
    assert_valid_request(rendered.payload)
    carried = "MARK" in _visible(rendered.payload)
    warned = [w for w in rendered.warnings if (w.field or "").startswith("messages[1]")]
    assert carried or warned


# --------------------------------------------------------------------------- any conversation

ID_POOL = ["call_1", "call.2", "toolu_3", "fc:4", ""]


def _blocks(role: str) -> st.SearchStrategy[list[Block]]:
    texts = st.sampled_from(["hi", "", " ", "text"]).map(lambda t: TextBlock(text=t))
    media = st.sampled_from([*list(SAMPLES.values())[2:5], *MORE_SAMPLES[:2], MORE_SAMPLES[5]])
    calls = st.builds(
        ToolUseBlock,
        id=st.sampled_from(ID_POOL),
        name=st.sampled_from(["f", "g"]),
        input=st.just({}),
        raw_arguments=st.sampled_from([None, "{bad"]),
    )
    results = st.builds(
        ToolResultBlock,
        tool_use_id=st.sampled_from(ID_POOL),
        content=st.sampled_from(["r", '{"a": 1}', "[1]"]),
        is_error=st.sampled_from([None, True, False]),
    )
    thinking = st.builds(
        ThinkingBlock,
        text=st.sampled_from(["", "t"]),
        signature=st.sampled_from([None, "c2ln"]),
        redacted=st.booleans(),
        data=st.sampled_from([None, "d"]),
        provider=st.sampled_from([None, "gemini", "anthropic"]),
    )
    kinds = {
        "assistant": texts | calls | thinking | st.just(RefusalBlock(text="no")) | media,
        "tool": results | texts,
    }.get(role, texts | media | results | calls)
    return st.lists(kinds, max_size=4)


ROLES = ["system", "developer", "user", "assistant", "tool"]
# Built once: hypothesis would otherwise rebuild the strategies for every message drawn.
BLOCKS = {role: _blocks(role) for role in ROLES}
_messages = st.sampled_from(ROLES).flatmap(
    lambda role: st.builds(
        Message,
        role=st.just(role),
        content=BLOCKS[role],
        tool_call_id=st.sampled_from([None, *ID_POOL]) if role == "tool" else st.none(),
        name=st.sampled_from([None, "f"]) if role == "tool" else st.none(),
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
    assert all(w.field and w.source == "gemini" for w in rendered.warnings)


# ------------------------------------------------------------------------- other formats' fixtures

FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "gemini"
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
        assert all(w.field and w.source == "gemini" for w in rendered.warnings)
