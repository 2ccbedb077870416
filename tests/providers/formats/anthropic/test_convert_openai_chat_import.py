"""The ``anthropic`` renderer fed a whole ``openai-chat`` import: the exact payload it sends
and the exact drift warning for every lossy step."""

from __future__ import annotations

import re

from providers.formats.anthropic import DEFAULT_MAX_TOKENS, render
from providers.umf import (
    Conversation,
    Message,
    Parameters,
    Tool,
    ToolChoice,
    ToolUseBlock,
)
from tests.providers.formats.anthropic._convert_helpers import (
    OC,
    assert_valid_request,
    assistant,
    summary,
    text,
    tool,
    user,
)

# --------------------------------------------------------------------------- a whole import


def test_openai_chat_import_converts_with_exact_payload_and_warnings() -> None:
    conversation = Conversation(
        messages=[
            Message(role="system", content=[text("You are a travel agent.")]),
            user(text("Book me a trip to Paris."), name="alice"),
            Message(role="developer", content=[text("Prices in EUR.")]),
            assistant(
                ToolUseBlock(
                    id="call_9f.x",
                    name="search",
                    input={"q": "Paris"},
                    raw_arguments='{"q": "Paris"}',
                ),
                ToolUseBlock(id="call_b", name="book", input={}, raw_arguments='{"q": "Par'),
                reasoning="Two calls.",
                extra={OC: {"refusal": None, "annotations": [], "audio": {"id": "a1"}}},
            ),
            tool("call_9f.x", "3 flights"),
            tool("call_b", "booked", is_error=True),
            user(text("Thanks")),
        ],
        tools=[
            Tool(name="search", parameters={"type": "object"}, extra={OC: {"strict": True}}),
            Tool(name="book", description="Book a flight"),
        ],
        tool_choice=ToolChoice(type="required"),
        parameters=Parameters(model="gpt-4o", temperature=0.2, seed=3, parallel_tool_calls=False),
        extra={OC: {"$shape": "request", "n": 1}},
    )
    rendered = render(conversation)
    rewritten = [w for w in rendered.warnings if w.category == "id-rewritten"]
    assert len(rewritten) == 1
    new_id = rewritten[0].transformed_value
    assert re.fullmatch(r"toolu_[0-9a-f]{24}", new_id)
    assert rendered.payload == {
        "model": "gpt-4o",
        "max_tokens": DEFAULT_MAX_TOKENS,
        "system": [
            {"type": "text", "text": "You are a travel agent."},
            {"type": "text", "text": "Prices in EUR."},
        ],
        "messages": [
            {"role": "user", "content": "Book me a trip to Paris."},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": new_id, "name": "search", "input": {"q": "Paris"}},
                    {"type": "tool_use", "id": "call_b", "name": "book", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": new_id, "content": "3 flights"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_b",
                        "content": "booked",
                        "is_error": True,
                    },
                    {"type": "text", "text": "Thanks"},
                ],
            },
        ],
        "tools": [
            {"name": "search", "input_schema": {"type": "object"}},
            {
                "name": "book",
                "description": "Book a flight",
                "input_schema": {"type": "object", "properties": {}},
            },
        ],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
    }
    assert summary(rendered.warnings) == [
        ("content-dropped", "warning", "messages[1].name", "alice", None),
        ("system-message-transformed", "warning", "messages[2]", "developer", "system"),
        ("reasoning-dropped", "warning", "messages[3].reasoning", "Two calls.", None),
        ("field-unknown", "info", "messages[3].extra.openai-chat", {"audio": {"id": "a1"}}, None),
        ("content-dropped", "warning", "messages[3].content[1].raw_arguments", '{"q": "Par', {}),
        ("id-rewritten", "info", "messages[3].content[0].id", "call_9f.x", new_id),
        ("role-merged", "warning", "messages[5]", "tool", "user"),
        ("role-merged", "warning", "messages[6]", "user", "user"),
        ("parameter-defaulted", "warning", "parameters.max_tokens", None, DEFAULT_MAX_TOKENS),
        ("parameter-unsupported", "warning", "parameters.temperature", 0.2, None),
        ("parameter-unsupported", "warning", "parameters.seed", 3, None),
        ("field-unknown", "info", "tools[0].extra.openai-chat", {"strict": True}, None),
        (
            "parameter-defaulted",
            "info",
            "tools[1].parameters",
            None,
            {"type": "object", "properties": {}},
        ),
        ("field-unknown", "info", "extra.openai-chat", {"n": 1}, None),
    ]
    assert_valid_request(rendered.payload)
