"""Converting into ``openai-responses``: parameters the API cannot take, tools and tool choice.

Every rendered request must be one the API accepts (the SDK's request types, plus the
rules they cannot express), and everything it could not carry must be a warning.
"""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.openai_responses import DEFAULT_MODEL
from providers.umf import (
    Conversation,
    Parameters,
    TextBlock,
    Tool,
    ToolChoice,
)
from tests.providers.formats.openai_responses._convert_helpers import (
    assert_renders,
    chat,
    summary,
    user,
)

# --------------------------------------------------------------------------- request fields


def test_parameters_the_api_cannot_take() -> None:
    conversation = Conversation(
        messages=[user(TextBlock(text="hi"))],
        parameters=Parameters(
            temperature=2.5,
            top_p=0.9,
            max_tokens=8,
            top_k=40,
            stop=["\n\nHuman:"],
            seed=7,
            frequency_penalty=0.5,
            presence_penalty=-0.5,
            parallel_tool_calls=False,
            user="u-1",
            custom={"thinking_budget": 512},
        ),
    )
    payload, warnings = assert_renders(conversation)
    assert payload == {
        "model": DEFAULT_MODEL,
        "temperature": 2.0,
        "top_p": 0.9,
        "max_output_tokens": 16,
        "user": "u-1",
        "input": [{"role": "user", "content": "hi"}],
    }
    assert summary(warnings) == [
        ("parameter-defaulted", "parameters.model", None, DEFAULT_MODEL),
        ("parameter-clamped", "parameters.temperature", 2.5, 2.0),
        ("parameter-clamped", "parameters.max_tokens", 8, 16),
        ("parameter-unsupported", "parameters.parallel_tool_calls", False, None),
        ("parameter-unsupported", "parameters.top_k", 40, None),
        ("parameter-unsupported", "parameters.stop", ["\n\nHuman:"], None),
        ("parameter-unsupported", "parameters.seed", 7, None),
        ("parameter-unsupported", "parameters.frequency_penalty", 0.5, None),
        ("parameter-unsupported", "parameters.presence_penalty", -0.5, None),
        ("parameter-unsupported", "parameters.custom.thinking_budget", 512, None),
    ]


def test_tools_are_flat_and_loose() -> None:
    conversation = chat(
        user(TextBlock(text="hi")),
        tools=[
            Tool(name="f", description="Does f.", parameters={"type": "object"}),
            Tool(name="g"),
        ],
        tool_choice=ToolChoice(type="tool", name="g"),
    )
    payload, warnings = assert_renders(conversation)
    assert payload["tools"] == [
        {
            "type": "function",
            "name": "f",
            "description": "Does f.",
            "parameters": {"type": "object"},
            "strict": False,
        },
        {
            "type": "function",
            "name": "g",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        },
    ]
    assert payload["tool_choice"] == {"type": "function", "name": "g"}
    assert summary(warnings) == [
        ("parameter-defaulted", "tools[1].parameters", None, {"type": "object", "properties": {}})
    ]


@pytest.mark.parametrize(
    ("choice", "with_tools", "wire", "warned"),
    [
        (ToolChoice(type="auto"), True, "auto", []),
        (ToolChoice(type="none"), True, "none", []),
        (ToolChoice(type="required"), True, "required", []),
        (
            ToolChoice(type="tool"),
            True,
            "required",
            [("parameter-normalized", "tool_choice", "tool", "required")],
        ),
        (
            ToolChoice(type="tool", name="f"),
            False,
            None,
            [("parameter-unsupported", "tool_choice", {"type": "tool", "name": "f"}, None)],
        ),
    ],
)
def test_tool_choice(
    choice: ToolChoice, with_tools: bool, wire: Any, warned: list[tuple[Any, ...]]
) -> None:
    conversation = chat(user(TextBlock(text="hi")), tool_choice=choice)
    if with_tools:
        conversation.tools = [Tool(name="f", parameters={"type": "object"})]
    payload, warnings = assert_renders(conversation)
    assert payload.get("tool_choice") == wire
    assert summary(warnings) == warned
