"""Conversations and constants the client tests share."""

from __future__ import annotations

from providers import umf

API_KEY = "sk-test-secret-0123456789"
# The provider kinds that speak HTTP (every kind but echo).
HTTP_KINDS = ("openai-chat", "openai-responses", "anthropic", "gemini", "ollama")


def weather_tools() -> list[umf.Tool]:
    """Two tools, as a conversation offers them."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    return [
        umf.Tool(name="get_weather", description="Weather by city", parameters=schema),
        umf.Tool(name="get_time", parameters={"type": "object", "properties": {}}),
    ]


def question(
    text: str = "What is the weather in Paris?", *, tools: bool = False
) -> umf.Conversation:
    """A short conversation ending with a user question."""
    return umf.Conversation(
        messages=[umf.system("Answer briefly."), umf.user(text)],
        tools=weather_tools() if tools else [],
    )
