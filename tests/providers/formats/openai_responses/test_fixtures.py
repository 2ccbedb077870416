"""The ``openai-responses`` fixtures: exact round trips, what the SDK accepts, the shape
recorded, and detection against the other formats' fixtures.

Conversions from other formats are in ``test_convert_*.py``.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers import formats
from providers.formats.openai_responses import render_request
from tests.providers.formats.openai_responses._helpers import (
    FIXTURES,
    FIXTURES_ROOT,
    FORMAT_ID,
    RESPONSES,
    assert_round_trips,
    load,
    parse_one,
    shape_of,
    stored,
)
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_items,
    validate_openai_responses_request,
    validate_openai_responses_response,
)

# --------------------------------------------------------------------------- fixtures


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
        validate_openai_responses_request(payload)
        check_openai_responses_rules(payload)
    elif shape == "messages":
        validate_openai_responses_items(payload)
        check_openai_responses_rules(payload)
    elif shape == "response":
        validate_openai_responses_response(payload)
    else:
        validate_openai_responses_request(payload["request"])
        validate_openai_responses_response(payload["response"])


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_the_api_accepts(path: Path) -> None:
    request = render_request(stored(parse_one(orjson.loads(path.read_bytes())))).payload
    validate_openai_responses_request(request)
    check_openai_responses_rules(request)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_detected_as_openai_responses(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    assert RESPONSES.detect(payload) == 2
    assert formats.detect(payload).id == FORMAT_ID


OTHER_FIXTURES = sorted(
    path
    for directory in FIXTURES_ROOT.iterdir()
    if directory.is_dir() and directory.name != FORMAT_ID
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_other_formats_fixtures_do_not_score_two_here(path: Path) -> None:
    assert RESPONSES.detect(orjson.loads(path.read_bytes())) < 2


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_no_other_format_scores_two_on_our_fixtures(path: Path) -> None:
    payload = orjson.loads(path.read_bytes())
    others = [fmt.id for fmt in formats.all_formats() if fmt.id != FORMAT_ID]
    assert [fmt for fmt in others if formats.get(fmt).detect(payload) == 2] == []


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tool_loop_parallel.json", "request"),
        ("bare_items_custom_tool.json", "messages"),
        ("exchange_reasoning_usage.json", "exchange"),
        ("bare_response_web_search.json", "response"),
    ],
)
def test_shape_is_recorded(name: str, shape: str) -> None:
    assert shape_of(parse_one(load(name))) == shape


def test_plain_text_messages_only_fit() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert RESPONSES.detect(plain) == 1
    assert RESPONSES.detect([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) == 0
    assert RESPONSES.detect({"messages": plain}) == 0
