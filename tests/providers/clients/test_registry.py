"""``providers.clients.build`` and ``KINDS``."""

from __future__ import annotations

import pytest

from providers import formats
from providers.clients import KINDS, PermanentProviderError, build
from providers.clients.base import ProviderConfig


def test_every_kind_builds_a_client_with_its_config() -> None:
    for kind in KINDS:
        config = ProviderConfig(
            allow_private_network=True, name=f"p-{kind}", kind=kind, base_url="http://localhost:1"
        )
        client = build(config)
        assert client.config is config


def test_every_http_kind_is_a_registered_provider_format() -> None:
    for kind in set(KINDS) - {"echo"}:
        assert formats.get(kind).id == kind


def test_an_unknown_kind_is_a_permanent_error() -> None:
    with pytest.raises(PermanentProviderError, match=r"known kinds: .*openai-chat"):
        build(
            ProviderConfig(allow_private_network=True, name="x", kind="carrier-pigeon", base_url="")
        )


def test_the_key_stays_out_of_the_config_repr() -> None:
    config = ProviderConfig(
        allow_private_network=True, name="x", kind="anthropic", base_url="", api_key="sk-secret"
    )
    assert "sk-secret" not in repr(config)
