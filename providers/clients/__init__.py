"""HTTP clients that send a rendered request to a provider and parse its answer.

``build(config)`` gives the client for a :class:`ProviderConfig`; ``KINDS`` names the
provider kinds there is a client for. Every client has the call surface of
:class:`providers.clients.base.Client` and raises only
:class:`TransientProviderError` / :class:`PermanentProviderError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from providers.clients.anthropic import AnthropicClient
from providers.clients.base import (
    Client,
    Exchange,
    PermanentProviderError,
    ProviderConfig,
    ProviderError,
    TransientProviderError,
)
from providers.clients.echo import EchoClient
from providers.clients.gemini import GeminiClient
from providers.clients.ollama import OllamaClient
from providers.clients.openai_chat import OpenAIChatClient
from providers.clients.openai_responses import OpenAIResponsesClient

__all__ = [
    "KINDS",
    "Client",
    "Exchange",
    "PermanentProviderError",
    "ProviderConfig",
    "ProviderError",
    "TransientProviderError",
    "build",
]

# Provider kind -> the client class for it (a kind is also the id of its wire format).
KINDS: Mapping[str, Callable[[ProviderConfig], Client]] = MappingProxyType(
    {
        "anthropic": AnthropicClient,
        "echo": EchoClient,
        "gemini": GeminiClient,
        "ollama": OllamaClient,
        "openai-chat": OpenAIChatClient,
        "openai-responses": OpenAIResponsesClient,
    }
)


def build(config: ProviderConfig) -> Client:
    """The client for ``config.kind``; :class:`PermanentProviderError` for a kind there is
    no client for (a configuration mistake no retry can fix)."""
    try:
        factory = KINDS[config.kind]
    except KeyError:
        known = ", ".join(sorted(KINDS))
        raise PermanentProviderError(
            f"no client for provider kind {config.kind!r}; known kinds: {known}"
        ) from None
    return factory(config)
