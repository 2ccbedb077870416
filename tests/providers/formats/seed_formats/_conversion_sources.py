"""Payloads of other formats (an Anthropic and an OpenAI Chat request with every kind of
content) read into conversations, for the seed formats' conversion tests.
"""

from __future__ import annotations

from typing import Any

from providers.umf import (
    Conversation,
)
from tests.providers.formats.seed_formats._helpers import (
    PNG,
    parse_one,
    stored,
)

# --------------------------------------------------------------------------- imports to convert

ANTHROPIC_REQUEST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "temperature": 0.7,
    "top_k": 40,
    "stop_sequences": ["\n\nHuman:"],
    "system": "You are terse.",
    "metadata": {"user_id": "u-1"},
    "tools": [
        {
            "name": "get_weather",
            "description": "Weather by city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
            "cache_control": {"type": "ephemeral"},
        },
        {"name": "get_wind", "input_schema": {"type": "object"}},
    ],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Weather in Paris and Rome?"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
                },
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Need both cities.", "signature": "EqQBCkgIARAB"},
                {"type": "text", "text": "Checking both."},
                {
                    "type": "tool_use",
                    "id": "toolu_01Paris",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_01Rome",
                    "name": "get_weather",
                    "input": {"city": "Rome"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Paris",
                    "content": [
                        {"type": "text", "text": "18 °C, sunny"},
                        {
                            "type": "image",
                            "source": {"type": "url", "url": "https://maps.example/radar.png"},
                        },
                    ],
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01Rome",
                    "content": "upstream timeout",
                    "is_error": True,
                },
                {"type": "text", "text": "Also, is it windy?"},
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"},
                {
                    "type": "tool_use",
                    "id": "toolu_01Wind",
                    "name": "get_wind",
                    "input": {"city": "Paris"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01Wind", "content": "12 km/h"},
                {
                    "type": "document",
                    "source": {
                        "type": "base64",
                        "media_type": "application/pdf",
                        "data": "JVBERi0x",
                    },
                    "title": "Forecast",
                },
            ],
        },
    ],
}

OPENAI_REQUEST: dict[str, Any] = {
    "model": "gpt-4o",
    "temperature": 1.2,
    "max_completion_tokens": 500,
    "parallel_tool_calls": True,
    "seed": 7,
    "stop": ["END"],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "describe",
                "description": "Describe a picture",
                "parameters": {"type": "object", "properties": {"target": {"type": "string"}}},
                "strict": True,
            },
        },
        {"type": "function", "function": {"name": "transcribe", "parameters": {"type": "object"}}},
    ],
    "tool_choice": {"type": "function", "function": {"name": "describe"}},
    "messages": [
        {"role": "developer", "content": "Answer briefly.", "name": "acme"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in this photo and recording?"},
                {
                    "type": "image_url",
                    "image_url": {"url": "https://example.com/photo.jpg", "detail": "high"},
                },
                {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "describe", "arguments": '{"target":"photo"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "transcribe", "arguments": '{"target": "aud'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "A red bicycle leaning on a wall."},
        {"role": "tool", "tool_call_id": "call_2", "content": "unsupported codec"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "A red bicycle."},
                {"type": "refusal", "refusal": "I can't transcribe that audio."},
            ],
        },
        {"role": "user", "content": "Thanks!", "name": "maria"},
    ],
}


def anthropic_import() -> Conversation:
    """A conversation as the anthropic format reads ANTHROPIC_REQUEST."""
    return stored(parse_one("anthropic", ANTHROPIC_REQUEST))


def openai_import() -> Conversation:
    """A conversation as the openai-chat format reads OPENAI_REQUEST."""
    return stored(parse_one("openai-chat", OPENAI_REQUEST))


# --------------------------------------------------------------------------- what warnings hold

# The media of the two imports as a warning that leaves them out names them: by their
# summary (source, media type, size in bytes, a real URL), never by their bytes.
DROPPED_IMAGE = {"type": "image", "source": "base64", "media_type": "image/png", "size": 70}
DROPPED_RADAR = {"type": "image", "source": "url", "url": "https://maps.example/radar.png"}
DROPPED_PDF = {
    "type": "document",
    "source": "base64",
    "media_type": "application/pdf",
    "size": 6,
    "title": "Forecast",
}
DROPPED_PHOTO = {"type": "image", "source": "url", "url": "https://example.com/photo.jpg"}
DROPPED_AUDIO = {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 4}
