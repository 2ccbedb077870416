"""The providers this server can call, from ``settings.UMF_PROVIDERS`` (read there from
the environment). Keys stay in the configs; nothing here ever returns them."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings

from providers import clients
from providers.clients import limits
from providers.clients.base import Client, ProviderConfig


def configured_providers() -> dict[str, ProviderConfig]:
    """Every callable provider by name."""
    configs: dict[str, ProviderConfig] = {}
    entries: list[dict[str, Any]] = settings.UMF_PROVIDERS
    for entry in entries:
        config = ProviderConfig(
            name=str(entry["name"]),
            kind=str(entry["kind"]),
            base_url=str(entry.get("base_url") or ""),
            api_key=str(entry.get("api_key") or ""),
            models=tuple(entry.get("models") or ()),
            timeout=float(entry.get("timeout") or 60.0),
            stream=bool(entry.get("stream", False)),
            allow_private_network=bool(entry.get("allow_private_network", False)),
            parameters=frozenset(entry.get("parameters") or limits.DEFAULT_PARAMETERS),
            max_tokens=int(entry.get("max_tokens") or limits.DEFAULT_MAX_TOKENS),
            max_n=int(entry.get("max_n") or limits.DEFAULT_MAX_N),
        )
        configs[config.name] = config
    return configs


def provider_client(name: str) -> Client | None:
    """The client for the configured provider ``name``, or None when there is none.

    One client per process and configuration, shared by a worker's threads: its connection
    pool keeps the provider's connections (and TLS sessions) open from one replay to the
    next. A changed configuration (new key, new base URL) is a new client.
    """
    config = configured_providers().get(name)
    return None if config is None else _client_for(config)


@lru_cache(maxsize=32)
def _client_for(config: ProviderConfig) -> Client:
    return clients.build(config)


def public_description(config: ProviderConfig) -> dict[str, Any]:
    """What ``GET /api/v1/providers/`` shows of a provider: never its key or base URL
    (a private host name is nobody's business either)."""
    return {
        "name": config.name,
        "kind": config.kind,
        "models": list(config.models),
        "streaming": config.stream,
        "parameters": sorted(config.parameters),
        "max_tokens": config.max_tokens,
        "max_n": config.max_n,
    }
