"""Validate OpenAI fine-tuning JSONL lines against the ``openai`` SDK's chat types.

The SDK has no type for a training line, so each part is validated as what it is: every
message as ``ChatCompletionMessageParam``, tools as ``ChatCompletionToolParam`` (legacy
``functions`` as ``FunctionDefinition``), ``parallel_tool_calls`` as a boolean. TypedDicts
ignore unknown keys, so :func:`check_finetune_rules` asserts what the fine-tuning guide
says beyond that: the keys a line may have, ``weight`` only 0 or 1 and only on assistant
messages, an assistant message to train on, every tool call answered, and for preference
lines assistant outputs.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
import pydantic

from tests.providers.sdk_validation import _materialize, check_openai_chat_tool_pairing

LINE_KEYS = {"messages", "tools", "parallel_tool_calls", "functions"}
PREFERENCE_KEYS = {"input", "preferred_output", "non_preferred_output"}


@cache
def _adapter(kind: str) -> pydantic.TypeAdapter[Any]:
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam
    from openai.types.shared_params import FunctionDefinition

    types: dict[str, Any] = {
        "message": ChatCompletionMessageParam,
        "tool": ChatCompletionToolParam,
        "function": FunctionDefinition,
    }
    return pydantic.TypeAdapter(types[kind])


def validate_finetune_text(text: str) -> list[dict[str, Any]]:
    """Validate every non-blank line of a JSONL text; the decoded lines."""
    lines = [orjson.loads(line) for line in text.split("\n") if line.strip()]
    assert lines, "no lines"
    for line in lines:
        validate_finetune_line(line)
    return lines


def validate_finetune_line(line: dict[str, Any]) -> None:
    """Raise unless ``line`` is a supervised or preference example."""
    if "input" in line:
        assert set(line) <= PREFERENCE_KEYS, set(line) - PREFERENCE_KEYS
        validate_finetune_line(line["input"])
        for key in ("preferred_output", "non_preferred_output"):
            for message in line[key]:
                assert message["role"] == "assistant"
                _validate("message", message)
        return
    assert set(line) <= LINE_KEYS, set(line) - LINE_KEYS
    for message in line["messages"]:
        _validate("message", message)
    for tool in line.get("tools") or []:
        _validate("tool", tool)
    for function in line.get("functions") or []:
        _validate("function", function)
    if "parallel_tool_calls" in line:
        assert isinstance(line["parallel_tool_calls"], bool)
    check_finetune_rules(line)


def check_finetune_rules(line: dict[str, Any]) -> None:
    """What the fine-tuning guide requires beyond the message types."""
    messages = line["messages"]
    if any(message.get("tool_calls") for message in messages):
        check_openai_chat_tool_pairing(messages)
    for message in messages:
        if "weight" in message:
            assert message["role"] == "assistant" and message["weight"] in (0, 1)
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            # Fine-tuning takes text and images; no audio or file inputs.
            assert part["type"] in ("text", "image_url", "refusal"), part["type"]


def _validate(kind: str, value: Any) -> Any:
    return _materialize(_adapter(kind).validate_python(value))
