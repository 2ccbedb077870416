"""The ``ollama`` registration. Its fixtures are tested with the whole family's, in
``chat_completions/test_fixtures.py``."""

from __future__ import annotations

from providers import formats
from providers.formats.ollama import FORMAT


def test_registered_under_its_contract_id() -> None:
    assert formats.get("ollama") is FORMAT
    assert (FORMAT.provider, FORMAT.kind) == ("ollama", "json")
