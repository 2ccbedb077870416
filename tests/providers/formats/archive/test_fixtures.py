"""What every archive format's fixtures hold to, parametrised over the four formats
(chatgpt-export, claude-export, sharegpt, otel-genai): enough of them, exact round trips,
valid in their format, and mutations that read or fail with a format error. Detection, for
every format's fixtures, is in ``test_detection.py``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from providers import formats
from tests.providers.formats.otel_genai.test_spans import assert_valid_otel
from tests.providers.sdk.archive import (
    assert_mutations_fail_cleanly,
    assert_round_trips,
    fixtures,
    load,
)
from tests.providers.sdk.chatgpt_export import check_chatgpt_conversation
from tests.providers.sdk.claude_export import check_claude_conversation
from tests.providers.sdk.sharegpt import check_sharegpt_entry

# Original ShareGPT dumps use role names LLaMA-Factory does not take.
SHAREGPT_DUMPS = {"role_name_variants"}


def _entries(payload: Any) -> list[Any]:
    return payload if isinstance(payload, list) else [payload]


def _assert_chatgpt(path: Path, payload: Any) -> None:
    for entry in payload:
        check_chatgpt_conversation(entry)


def _assert_claude(path: Path, payload: Any) -> None:
    for entry in _entries(payload):
        check_claude_conversation(entry)


def _assert_sharegpt(path: Path, payload: Any) -> None:
    for entry in _entries(payload):
        check_sharegpt_entry(entry, strict=path.stem not in SHAREGPT_DUMPS)


def _assert_otel(path: Path, payload: Any) -> None:
    assert_valid_otel(payload)


# Each format's validator of a whole fixture (what its consumers read).
ASSERT_VALID: dict[str, Callable[[Path, Any], None]] = {
    "chatgpt-export": _assert_chatgpt,
    "claude-export": _assert_claude,
    "sharegpt": _assert_sharegpt,
    "otel-genai": _assert_otel,
}
ARCHIVES = sorted(ASSERT_VALID)
FIXTURES = [
    pytest.param(format_id, path, id=f"{format_id}-{path.stem}")
    for format_id in ARCHIVES
    for path in fixtures(format_id)
]


@pytest.mark.parametrize("format_id", ARCHIVES)
def test_there_are_enough_fixtures(format_id: str) -> None:
    assert len(fixtures(format_id)) >= 6


@pytest.mark.parametrize(("format_id", "path"), FIXTURES)
def test_fixture_round_trips_exactly(format_id: str, path: Path) -> None:
    assert_round_trips(formats.get(format_id), load(path))


@pytest.mark.parametrize(("format_id", "path"), FIXTURES)
def test_fixture_is_valid_in_its_format(format_id: str, path: Path) -> None:
    ASSERT_VALID[format_id](path, load(path))


@pytest.mark.parametrize(("format_id", "path"), FIXTURES)
def test_mutated_fixtures_read_or_fail_with_a_format_error(format_id: str, path: Path) -> None:
    assert_mutations_fail_cleanly(formats.get(format_id), load(path), path.stem)
