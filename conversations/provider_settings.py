"""The providers this server can call, from ``settings.UMF_PROVIDERS`` (read there from
the environment). Keys stay in the configs; nothing here ever returns them."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from providers.clients.base import ProviderConfig


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
        )
        configs[config.name] = config
    return configs


def public_description(config: ProviderConfig) -> dict[str, Any]:
    """What ``GET /api/v1/providers/`` shows of a provider: never its key or base URL
    (a private host name is nobody's business either)."""
    return {
        "name": config.name,
        "kind": config.kind,
        "models": list(config.models),
        "streaming": config.stream,
    }
