"""An empty model name is no model: every request format that requires one fills in its
default and says so, as when the model is missing (found by converting mutated fixtures:
the empty string was sent as it came, which Bedrock's SDK refuses before sending)."""

from __future__ import annotations

import pytest

from providers import formats
from providers.formats import (
    anthropic,
    bedrock_converse,
    cohere,
    mistral,
    ollama,
    openai_chat,
    openai_responses,
)

HI = {"model": "", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    ("target", "key", "default"),
    [
        ("anthropic", "model", anthropic.DEFAULT_MODEL),
        ("bedrock-converse", "modelId", bedrock_converse.DEFAULT_MODEL),
        ("cohere", "model", cohere.DEFAULT_MODEL),
        ("mistral", "model", mistral.DEFAULT_MODEL),
        ("ollama", "model", ollama.DEFAULT_MODEL),
        ("openai-chat", "model", openai_chat.DEFAULT_MODEL),
        ("openai-responses", "model", openai_responses.DEFAULT_MODEL),
    ],
)
def test_an_empty_model_name_gets_the_default(target: str, key: str, default: str) -> None:
    source = "anthropic" if target == "openai-chat" else "openai-chat"
    converted = formats.convert(source, target, HI)
    assert converted.payload[key] == default
    defaulted = [w for w in converted.warnings if w.field == "parameters.model"]
    assert [(w.category, w.original_value, w.transformed_value) for w in defaulted] == [
        ("parameter-defaulted", "", default)
    ]
