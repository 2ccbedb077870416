"""The ``bedrock-converse`` format: its registration, and detection of its own and other
formats' fixtures."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from providers.formats import all_formats, get
from providers.formats import detect as detect_format
from providers.formats.bedrock_converse import FORMAT, detect
from tests.providers.formats.bedrock_converse._helpers import (
    FIXTURE_NAMES,
    FIXTURES,
    USER,
    _request,
    _user,
    load,
)

# --------------------------------------------------------------------------- registry, detect


def test_registered_under_its_contract_id() -> None:
    assert get("bedrock-converse") is FORMAT
    assert FORMAT.provider == "bedrock"
    assert FORMAT.capabilities.reasoning_signatures
    assert "tool" not in FORMAT.capabilities.roles


@pytest.mark.parametrize(
    ("payload", "score"),
    [
        (_request(USER), 2),
        ({"messages": [USER], "inferenceConfig": {"maxTokens": 5}}, 2),
        ({"messages": [USER]}, 2),
        ({"messages": [_user({"futureBlock": {}})]}, 1),
        ({"messages": [{"role": "user", "content": "hi"}]}, 0),
        ({"messages": [_user({"type": "text", "text": "hi"})]}, 0),
        ({"model": "m", "messages": [USER]}, 0),
        ({"messages": [USER], "parameters": {}}, 0),
        ([USER, {"role": "assistant", "content": [{"text": "hello"}]}], 2),
        ([{"role": "user", "parts": [{"text": "x"}]}], 0),
        ({"output": {"message": {"role": "assistant", "content": [{"text": "x"}]}}}, 2),
        ({"output": "x"}, 0),
        ({"from": "human", "value": "x"}, 0),
        ("text", 0),
        ([], 0),
    ],
)
def test_detect(payload: Any, score: int) -> None:
    assert detect(payload) == score


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_detect_is_sure_of_every_fixture(name: str) -> None:
    assert detect(load(name)) == 2


FOREIGN_FIXTURES = sorted(
    (directory.name, path.name)
    for directory in FIXTURES.iterdir()
    if directory.is_dir() and directory.name != "bedrock-converse"
    for path in directory.glob("*.json")
)


@pytest.mark.parametrize(("format_id", "name"), FOREIGN_FIXTURES)
def test_detect_is_never_sure_of_other_formats_fixtures(format_id: str, name: str) -> None:
    assert detect(orjson.loads((FIXTURES / format_id / name).read_bytes())) <= 1


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_no_other_format_is_sure_of_our_fixtures(name: str) -> None:
    payload = load(name)
    sure = [fmt.id for fmt in all_formats() if fmt is not FORMAT and fmt.detect(payload) == 2]
    assert sure == []


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_registry_detects_every_fixture_as_ours(name: str) -> None:
    assert detect_format(load(name)) is FORMAT
