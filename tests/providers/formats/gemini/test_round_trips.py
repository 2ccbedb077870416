"""The ``gemini`` format: exact same-format round trips of every fixture (directly, through
storage, and validated against the SDK), and how strict that SDK validation is.

Conversions from other formats are in ``test_convert_*.py``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from providers.formats.gemini import parse, render
from tests.providers.formats.gemini._helpers import (
    FIXTURE_NAMES,
    canonical,
    load,
    read_without_warnings_but_ids,
    request_of,
    response_of,
    stored,
)
from tests.providers.sdk.gemini import validate_gemini_request, validate_gemini_response

# --------------------------------------------------------------------------- round trips


def test_at_least_six_realistic_fixtures() -> None:
    assert len(FIXTURE_NAMES) >= 6


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_exactly(name: str) -> None:
    payload = load(name)
    rendered = render(read_without_warnings_but_ids(copy.deepcopy(payload)))
    assert rendered.payload == payload
    assert rendered.warnings == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_through_storage(name: str) -> None:
    payload = load(name)
    rendered = render(stored(read_without_warnings_but_ids(payload)))
    assert canonical(rendered.payload) == canonical(payload)
    assert rendered.warnings == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trip_validates_against_the_sdk(name: str) -> None:
    rendered = render(read_without_warnings_but_ids(load(name))).payload
    request, response = request_of(rendered), response_of(rendered)
    assert request is not None or response is not None
    if request is not None:
        validate_gemini_request(request)
    if response is not None:
        validate_gemini_response(response)


WRONG_REQUESTS = {
    "snake_case key": {"contents": [{"role": "user", "parts": [{"function_call": {"name": "f"}}]}]},
    "unknown part key": {"contents": [{"role": "user", "parts": [{"text": "x", "foo": 1}]}]},
    "model in the body": {"contents": [], "model": "gemini-2.5-flash"},
    "unknown enum": {"contents": [], "toolConfig": {"functionCallingConfig": {"mode": "AUTOO"}}},
    "Vertex-only field": {
        "contents": [],
        "safetySettings": [
            {
                "category": "HARM_CATEGORY_HARASSMENT",
                "threshold": "BLOCK_NONE",
                "method": "SEVERITY",
            }
        ],
    },
    "not base64": {
        "contents": [{"parts": [{"inlineData": {"mimeType": "image/png", "data": "not base64!"}}]}]
    },
    "JSON Schema in parameters": {
        "contents": [],
        "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"$defs": {}}}]}],
    },
}


@pytest.mark.parametrize("payload", WRONG_REQUESTS.values(), ids=list(WRONG_REQUESTS))
def test_sdk_validation_is_strict(payload: Any) -> None:
    with pytest.raises((AssertionError, ValueError, UserWarning)):
        validate_gemini_request(payload)


def test_every_fixture_records_its_shape() -> None:
    shapes = {
        name: read_without_warnings_but_ids(load(name)).extra["gemini"]["$shape"]
        for name in FIXTURE_NAMES
    }
    assert shapes["bare_contents"] == "messages"
    assert shapes["bare_response_function_call"] == "response"
    assert shapes["thinking_exchange"] == "exchange"
    assert shapes["tool_loop_parallel"] == "request"


def test_a_field_named_unmapped_blocks_is_kept_like_any_other() -> None:
    # Gemini once refused this name, which only Anthropic keeps for itself (a copy of
    # Anthropic's reader); here it is an unknown field like any other, and comes back.
    payload = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}], "unmapped_blocks": [1]}],
        "unmapped_blocks": {"a": 1},
    }
    (result,) = parse(copy.deepcopy(payload))
    assert render(result.conversation).payload == payload
