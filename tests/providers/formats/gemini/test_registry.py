"""The ``gemini`` format in the registry: its contract id, detection scores, and detection of
its own fixtures and of other formats' fixtures.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers import formats
from providers.formats import get
from providers.formats.gemini import FORMAT, detect
from tests.providers.formats.gemini._helpers import (
    ALL_FIXTURES,
    FIXTURE_NAMES,
    USER,
    _request,
    load,
)

# --------------------------------------------------------------------------- registry


def test_registered_under_its_contract_id() -> None:
    assert get("gemini") is FORMAT
    assert FORMAT.provider == "gemini"
    assert FORMAT.capabilities.reasoning_signatures
    assert "tool" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        (_request(USER), 2),
        ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, 0),
        ({"contents": [{"role": "user", "content": "x"}]}, 0),
        ([USER, {"role": "model", "parts": [{"functionCall": {"name": "f"}}]}], 2),
        ([{"role": "user", "content": "x"}], 0),
        ([{"role": "user", "parts": [{"type": "text", "content": "x"}]}], 0),
        ({"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}}]}, 2),
        ({"candidates": [{"finishReason": "SAFETY", "content": {"role": "model"}}]}, 2),
        ({"promptFeedback": {"blockReason": "SAFETY"}}, 2),
        ({"request": _request(USER), "response": {"candidates": []}}, 2),
        ({"request": {"messages": []}, "response": {"candidates": []}}, 0),
        ({"messages": [{"role": "user", "content": "x"}]}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_registry_detects_every_fixture_as_gemini(name: str) -> None:
    payload = load(name)
    assert detect(payload) == 2
    assert formats.detect(payload) is FORMAT


OTHER_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in ALL_FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "gemini"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize(("format_id", "name"), OTHER_FIXTURES)
def test_other_formats_fixtures_are_not_surely_gemini(format_id: str, name: str) -> None:
    assert detect(orjson.loads((ALL_FIXTURES / format_id / name).read_bytes())) < 2


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_no_other_format_is_sure_of_our_fixtures(name: str) -> None:
    payload = load(name)
    sure = [
        fmt.id for fmt in formats.all_formats() if fmt is not FORMAT and fmt.detect(payload) >= 2
    ]
    assert sure == []
