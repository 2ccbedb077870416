"""Two renders share no dict or list: whoever gets a payload may change it (a client adds
its stream options, a caller fills in a schema), and a change must not reach the next
payload. Once, a tool without parameters got one module-level empty schema in every
openai-chat and openai-responses payload, and Bedrock's copies shared their inner
``properties``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from providers import formats
from providers.umf import Conversation, Message, TextBlock, Tool, ToolUseBlock


def conversation() -> Conversation:
    """A conversation built afresh, with a tool that has no parameters and a call to it
    (Bedrock then makes a spec from the call too)."""
    return Conversation(
        messages=[
            Message(role="user", content=[TextBlock(text="What time is it?")]),
            Message(
                role="assistant",
                content=[ToolUseBlock(id="call_1", name="clock", input={})],
            ),
        ],
        tools=[Tool(name="clock", description="The time now.")],
    )


def containers(value: Any) -> Iterator[Any]:
    """Every dict and list in ``value``, itself included."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from containers(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from containers(item)


@pytest.mark.parametrize("format_id", sorted(f.id for f in formats.all_formats()))
def test_two_renders_share_no_dict_or_list(format_id: str) -> None:
    fmt = formats.get(format_id)
    first, second = fmt.render(conversation()), fmt.render(conversation())
    shared = {id(c) for c in containers(first.payload)} & {
        id(c) for c in containers(second.payload)
    }
    assert not shared, [c for c in containers(first.payload) if id(c) in shared]
