"""Scripted answers, written in each provider's real wire format (plain JSON and stream).

:class:`Answer` says what the fake model answers (text, tool calls, thinking with its
signature, usage, finish reason); each provider's ``Wire`` writes it the way that provider
does, as one JSON body (``plain``) or as the frames of a stream (``frames``), and writes its
errors (``error_body``, ``error_frame``). A streamed answer and a plain one to the same
request carry the same ids and values, as the real providers' would, so a client that
reassembles streams correctly gets equal results from both.
"""

from __future__ import annotations

from typing import Any

from fakes.wire.answers import Answer, Call, Frame, ToolCall, ndjson, sse
from fakes.wire.anthropic import AnthropicWire
from fakes.wire.gemini import GeminiWire
from fakes.wire.ollama import OllamaWire
from fakes.wire.openai_chat import OpenAIChatWire
from fakes.wire.openai_responses import OpenAIResponsesWire

__all__ = ["WIRES", "Answer", "Call", "Frame", "ToolCall", "ndjson", "sse"]

# Provider kind -> its wire writer.
WIRES: dict[str, Any] = {
    "openai-chat": OpenAIChatWire(),
    "openai-responses": OpenAIResponsesWire(),
    "anthropic": AnthropicWire(),
    "gemini": GeminiWire(),
    "ollama": OllamaWire(),
}
