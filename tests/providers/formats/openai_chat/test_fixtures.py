"""The ``openai-chat`` fixtures: round trips, SDK acceptance, rendered requests, detection."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers import formats
from providers.formats.openai_chat import render_request
from tests.providers.formats.openai_chat._helpers import (
    FIXTURES,
    assert_round_trips,
    load,
    parse_one,
    shape_of,
    stored,
)
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
    validate_openai_chat_response,
)


def test_there_are_enough_fixtures() -> None:
    assert len(FIXTURES) >= 6


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_round_trips_exactly(path: Path) -> None:
    assert_round_trips(orjson.loads(path.read_bytes()))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_what_the_sdk_accepts(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    shape = shape_of(parse_one(payload))
    if shape == "request":
        validate_openai_chat_request(payload)
    elif shape == "messages":
        validate_openai_chat_request({"model": "gpt-4o", "messages": payload})
    elif shape == "response":
        validate_openai_chat_response(payload)
    else:
        validate_openai_chat_request(payload["request"])
        validate_openai_chat_response(payload["response"])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_openai_accepts(path: Path) -> None:
    conversation = stored(parse_one(orjson.loads(path.read_bytes())))
    rendered = render_request(conversation)
    validate_openai_chat_request(rendered.payload)
    check_openai_chat_tool_pairing(rendered.payload)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_openai_chat(path: Path) -> None:
    assert formats.detect(orjson.loads(path.read_bytes())).id == "openai-chat"


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_messages.json", "messages"),
        ("exchange_usage.json", "exchange"),
        ("bare_response.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(parse_one(load(name))) == shape
