"""The seed formats' fixtures: exact round trips and what the seed types allow. Detection,
for every format's fixtures, is in ``test_detection.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.providers.formats.seed_formats._helpers import (
    CASES,
    SEED_FORMATS,
    VALIDATORS,
    _case_id,
    assert_round_trips,
    fixtures,
    load,
)

# --------------------------------------------------------------------------- fixtures


@pytest.mark.parametrize("format_id", SEED_FORMATS)
def test_there_are_enough_fixtures(format_id: str) -> None:
    assert len(fixtures(format_id)) >= 6


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_round_trips_exactly(case: tuple[str, Path]) -> None:
    format_id, path = case
    assert_round_trips(format_id, load(path))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_is_what_the_seed_types_allow(case: tuple[str, Path]) -> None:
    format_id, path = case
    VALIDATORS[format_id](load(path))
