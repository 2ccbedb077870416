"""The ``ollama`` fixtures: exact round trips, SDK acceptance, detection and registration."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers import formats
from providers.formats.ollama import FORMAT, detect
from tests.providers.formats.ollama._helpers import (
    OLLAMA_FIXTURES,
    OTHER_FIXTURES,
    assert_round_trips,
    load,
    shape_of,
)
from tests.providers.sdk.ollama import validate_ollama_request, validate_ollama_response


def test_there_are_enough_fixtures() -> None:
    assert len(OLLAMA_FIXTURES) >= 6


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_exactly(path: Path) -> None:
    assert_round_trips(orjson.loads(path.read_bytes()))


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_what_the_sdk_accepts(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    shape = shape_of(payload)
    if shape == "request":
        validate_ollama_request(payload)
    elif shape == "messages":
        validate_ollama_request({"model": "llama3.2", "messages": payload})
    elif shape == "response":
        validate_ollama_response(payload)
    else:
        validate_ollama_request(payload["request"])
        validate_ollama_response(payload["response"])


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_ollama(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    assert formats.detect(payload).id == "ollama"
    assert detect(payload) == 2


@pytest.mark.parametrize("path", OLLAMA_FIXTURES, ids=lambda p: p.stem)
def test_no_other_format_claims_an_ollama_fixture(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    others = {fmt.id: fmt.detect(payload) for fmt in formats.all_formats() if fmt.id != "ollama"}
    assert max(others.values()) < 2, others


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_are_not_claimed(path: Path) -> None:
    assert detect(orjson.loads(path.read_bytes())) < 2


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_messages.json", "messages"),
        ("thinking_exchange.json", "exchange"),
        ("bare_response_tool_calls.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(load(name)) == shape


def test_registered_under_its_contract_id() -> None:
    assert formats.get("ollama") is FORMAT
    assert (FORMAT.provider, FORMAT.kind) == ("ollama", "json")
