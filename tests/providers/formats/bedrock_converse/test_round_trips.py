"""The ``bedrock-converse`` format: every fixture is a valid Converse payload and round trips
exactly, directly and through storage."""

from __future__ import annotations

import copy

import pytest

from providers.formats.bedrock_converse import render
from tests.providers.formats.bedrock_converse._helpers import (
    FIXTURE_NAMES,
    canonical,
    load,
    read_without_warnings,
    stored,
    validate_payload,
)

# --------------------------------------------------------------------------- round trips


def test_at_least_six_realistic_fixtures() -> None:
    assert len(FIXTURE_NAMES) >= 6


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_is_a_valid_converse_payload(name: str) -> None:
    validate_payload(load(name))


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_exactly(name: str) -> None:
    payload = load(name)
    rendered = render(read_without_warnings(copy.deepcopy(payload)))
    assert rendered.payload == payload
    assert rendered.warnings == []
    validate_payload(rendered.payload)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_through_storage(name: str) -> None:
    payload = load(name)
    rendered = render(stored(read_without_warnings(payload)))
    assert canonical(rendered.payload) == canonical(payload)
    assert rendered.warnings == []


def test_every_fixture_records_its_shape() -> None:
    shapes = {
        name: read_without_warnings(load(name)).extra["bedrock-converse"]["$shape"]
        for name in FIXTURE_NAMES
    }
    assert shapes["bare_messages"] == "messages"
    assert shapes["bare_response"] == "response"
    assert shapes["thinking_exchange"] == "exchange"
    assert shapes["tool_loop_parallel"] == "request"
