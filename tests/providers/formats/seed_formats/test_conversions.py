"""Conversions into the seed formats: other formats' fixtures and each other's, every block
in every role, and random conversations render valid payloads with a warning for each
loss; other branches and citations are dropped with warnings.
"""

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
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from tests.providers.formats.seed_formats._conversion_sources import anthropic_import, openai_import
from tests.providers.formats.seed_formats._helpers import (
    CASES,
    FIXTURES,
    PNG,
    SEED_FORMATS,
    _case_id,
    assert_renders,
    load,
    parse_one,
    stored,
    summary,
)

# --------------------------------------------------------------------------- conversions

# The request around the messages of the two imports (seed_formats._conversion_sources),
# as a format with no place for tools or parameters warns for it: appam, art and forge
# alike (each format's own tests pin the warnings about the messages).
REQUEST_WARNINGS = {
    "anthropic": [
        ("tool-unsupported", "tools", ["get_weather", "get_wind"], None),
        ("parameter-unsupported", "tool_choice", {"type": "auto"}, None),
        ("parameter-unsupported", "parameters.model", "claude-sonnet-4-5", None),
        ("parameter-unsupported", "parameters.temperature", 0.7, None),
        ("parameter-unsupported", "parameters.max_tokens", 1024, None),
        ("parameter-unsupported", "parameters.top_k", 40, None),
        ("parameter-unsupported", "parameters.stop", ["\n\nHuman:"], None),
        ("parameter-unsupported", "parameters.user", "u-1", None),
    ],
    "openai-chat": [
        ("tool-unsupported", "tools", ["describe", "transcribe"], None),
        ("parameter-unsupported", "tool_choice", {"type": "tool", "name": "describe"}, None),
        ("parameter-unsupported", "parameters.model", "gpt-4o", None),
        ("parameter-unsupported", "parameters.temperature", 1.2, None),
        ("parameter-unsupported", "parameters.max_tokens", 500, None),
        ("parameter-unsupported", "parameters.stop", ["END"], None),
        ("parameter-unsupported", "parameters.seed", 7, None),
        ("parameter-unsupported", "parameters.parallel_tool_calls", True, None),
    ],
}
IMPORTS = {"anthropic": anthropic_import, "openai-chat": openai_import}


@pytest.mark.parametrize("format_id", ["appam", "art", "forge"])
@pytest.mark.parametrize("source", IMPORTS)
def test_the_request_around_the_messages_is_warned_for_first(format_id: str, source: str) -> None:
    rendered = assert_renders(format_id, IMPORTS[source]())
    expected = REQUEST_WARNINGS[source]
    assert summary(rendered.warnings[: len(expected)]) == expected
    assert all((w.field or "").startswith("messages") for w in rendered.warnings[len(expected) :])


CONVERTIBLE = [
    path
    for name in ("openai-chat", "anthropic", "umf")
    for path in sorted((FIXTURES / name).glob("*.json"))
]


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@pytest.mark.parametrize("path", CONVERTIBLE, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_render_valid_payloads(path: Path, format_id: str) -> None:
    for item in formats.parse(path.parent.name, load(path)).items:
        assert_renders(format_id, stored(item.conversation))


@pytest.mark.parametrize("target", SEED_FORMATS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_seed_fixtures_convert_into_each_other(case: tuple[str, Path], target: str) -> None:
    format_id, path = case
    if format_id != target:
        assert_renders(target, stored(parse_one(format_id, load(path))))


BLOCKS: dict[str, Block] = {
    "text": TextBlock(text="plain words"),
    "text with citations": TextBlock(text="cited", citations=[{"type": "page_location"}]),
    "refusal": RefusalBlock(text="I won't"),
    "image base64": ImageBlock(source=MediaSource(type="base64", media_type="image/png", data=PNG)),
    "image url": ImageBlock(source=MediaSource(type="url", url="https://example.com/cat.png")),
    "image file": ImageBlock(source=MediaSource(type="file", file_id="file-img")),
    "pdf": DocumentBlock(
        source=MediaSource(type="base64", media_type="application/pdf", data="JVBERi0x"),
        filename="a.pdf",
    ),
    "document url": DocumentBlock(source=MediaSource(type="url", url="https://example.com/a.pdf")),
    "document text": DocumentBlock(source=MediaSource(type="text", data="doc words")),
    "audio": AudioBlock(source=MediaSource(type="base64", media_type="audio/wav", data="UklGRg==")),
    "tool use": ToolUseBlock(id="call_table", name="lookup", input={"q": "x"}),
    "tool result text": ToolResultBlock(tool_use_id="call_table", content="found it"),
    "tool result blocks": ToolResultBlock(
        tool_use_id="call_table",
        content=[TextBlock(text="rows"), ImageBlock(source=MediaSource(type="url", url="u"))],
    ),
    "tool result error": ToolResultBlock(tool_use_id="call_table", content="broke", is_error=True),
    "thinking signed": ThinkingBlock(text="let me think", signature="sig", provider="anthropic"),
    "thinking unsigned": ThinkingBlock(text="musing"),
    "thinking redacted": ThinkingBlock(redacted=True, data="opaque", provider="anthropic"),
}
ROLES = ("system", "developer", "user", "assistant", "tool")


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("block", BLOCKS.values(), ids=BLOCKS.keys())
def test_every_block_in_every_role_is_carried_or_warned(
    block: Block, role: str, format_id: str
) -> None:
    call = ToolUseBlock(id="call_table", name="lookup", input={})
    conversation = Conversation(
        messages=[
            Message(role="assistant", content=[call]),
            Message(
                role=role,  # type: ignore[arg-type]
                content=[block],
                tool_call_id="call_table" if role == "tool" else None,
            ),
        ],
    )
    assert_renders(format_id, conversation)


_IDS = st.sampled_from(["call_a", "toolu_01B", "fc_" + "9" * 60, "bad id!", ""])


def _blocks() -> st.SearchStrategy[Block]:
    simple = st.sampled_from([block for name, block in BLOCKS.items() if "tool" not in name])
    uses = st.builds(ToolUseBlock, id=_IDS, name=st.just("f"), input=st.just({"x": "1"}))
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
    name=st.one_of(st.none(), st.just("someone")),
)


@pytest.mark.parametrize("format_id", SEED_FORMATS)
@settings(max_examples=150, deadline=None)
@given(messages=st.lists(_MESSAGES, min_size=1, max_size=6))
def test_any_conversation_renders_a_valid_payload_and_warns_for_each_loss(
    format_id: str, messages: list[Message]
) -> None:
    assert_renders(format_id, Conversation(messages=messages))


@pytest.mark.parametrize("format_id", SEED_FORMATS)
def test_other_branches_and_citations_are_dropped_with_warnings(format_id: str) -> None:
    citations = [{"type": "char_location", "cited_text": "x", "document_index": 0}]
    conversation = Conversation(
        messages=[
            Message(id="a", role="user", content=[TextBlock(text="hi")]),
            Message(id="b", parent_id="a", role="assistant", content=[TextBlock(text="old")]),
            Message(
                id="c",
                parent_id="a",
                role="assistant",
                content=[TextBlock(text="new", citations=citations)],
            ),
        ]
    )
    rendered = assert_renders(format_id, conversation)
    assert "old" not in orjson.dumps(rendered.payload).decode()
    # Appam messages hold their ids; the others say they left them out, in one note.
    ids = [] if format_id == "appam" else [("content-dropped", "messages", ["id"], None)]
    assert [w for w in summary(rendered.warnings) if w[0] == "content-dropped"] == [
        ("content-dropped", "messages[1]", "b", None),
        *ids,
        ("content-dropped", "messages[2].content[0].citations", citations, None),
    ]
