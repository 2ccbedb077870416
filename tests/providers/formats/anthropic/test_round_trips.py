"""The ``anthropic`` format: exact same-format round trips of every fixture, directly and
through storage, and SDK validation of the requests they render."""

from __future__ import annotations

import copy

import orjson
import pytest

from providers.formats.anthropic import render
from providers.umf import ThinkingBlock
from tests.providers.formats.anthropic._helpers import (
    FIXTURE_NAMES,
    load,
    read_without_warnings,
    request_of,
    stored,
)
from tests.providers.sdk_validation import validate_anthropic_request

# --------------------------------------------------------------------------- round trips


def test_at_least_six_realistic_fixtures() -> None:
    assert len(FIXTURE_NAMES) >= 6


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_exactly(name: str) -> None:
    payload = load(name)
    rendered = render(read_without_warnings(copy.deepcopy(payload)))
    assert rendered.payload == payload
    assert rendered.warnings == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_round_trips_through_storage(name: str) -> None:
    payload = load(name)
    rendered = render(stored(read_without_warnings(payload)))
    assert orjson.dumps(rendered.payload, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        payload, option=orjson.OPT_SORT_KEYS
    )
    assert rendered.warnings == []


@pytest.mark.parametrize("name", [n for n in FIXTURE_NAMES if "response" not in n])
def test_fixture_requests_validate_against_the_sdk(name: str) -> None:
    payload = load(name)
    if isinstance(payload, dict) and "type" in payload:
        pytest.skip("a bare response holds no request")
    validate_anthropic_request(request_of(render(read_without_warnings(payload)).payload))


def test_thinking_signature_round_trips() -> None:
    payload = load("thinking_tool_loop")
    conversation = stored(read_without_warnings(payload))
    thinking = [b for b in conversation.messages[1].content if isinstance(b, ThinkingBlock)]
    assert [(b.redacted, b.provider) for b in thinking] == [
        (False, "anthropic"),
        (True, "anthropic"),
    ]
    original = payload["messages"][1]["content"]
    assert thinking[0].text == original[0]["thinking"]
    assert thinking[0].signature == original[0]["signature"]
    assert thinking[1].data == original[1]["data"]
    rendered = render(conversation).payload["messages"][1]["content"]
    assert orjson.dumps(rendered[:2]) == orjson.dumps(original[:2])
    assert [block["type"] for block in rendered] == ["thinking", "redacted_thinking", "tool_use"]


def test_every_fixture_records_its_shape() -> None:
    shapes = {
        name: read_without_warnings(load(name)).extra["anthropic"]["$shape"]
        for name in FIXTURE_NAMES
    }
    assert shapes["bare_messages"] == "messages"
    assert shapes["bare_response"] == "response"
    assert shapes["exchange_cache_usage"] == "exchange"
    assert shapes["tool_loop_parallel"] == "request"
