"""The seed formats' fixtures: exact round trips, what the seed types allow, and detection
(each fixture claimed by its own format only, other formats' fixtures by none).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from providers import formats
from providers.formats.base import FormatError
from tests.providers.formats.seed_formats._helpers import (
    CASES,
    FIXTURES,
    SEED_FORMATS,
    VALIDATORS,
    _case_id,
    assert_round_trips,
    fixtures,
    load,
)

# --------------------------------------------------------------------------- fixtures

OTHER_FIXTURES = [
    path
    for directory in sorted(FIXTURES.iterdir())
    if directory.is_dir() and directory.name not in SEED_FORMATS
    for path in sorted(directory.glob("*.json"))
]


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


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_is_detected_as_its_own_format(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload = load(path)
    assert formats.get(format_id).detect(payload) == 2
    assert formats.detect(payload).id == format_id


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_no_other_format_claims_a_fixture_for_sure(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload = load(path)
    for other in formats.all_formats():
        if other.id == format_id or other.detect(payload) < 2:
            continue
        # umf's detect counts ``timestamp``/``metadata`` keys as its own marks, which Appam
        # messages and IR requests carry too; it must then at least fail to read the
        # payload, so that auto-detection still lands here (see the report on umf.py).
        assert other.id == "umf", f"{other.id} claims {path.name}"
        with pytest.raises(FormatError):
            other.parse(payload)


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_seed_formats_do_not_claim_other_fixtures(path: Path) -> None:
    payload = load(path)
    for format_id in SEED_FORMATS:
        assert formats.get(format_id).detect(payload) < 2, format_id
