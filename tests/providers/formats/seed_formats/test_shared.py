"""What every seed message list (appam, art, forge, matey-ir) promises, asserted once over
all of them with each format's own cases (``EDGE_PAYLOADS``, ``MALFORMED`` in its
``test_round_trips``): its edge shapes round-trip exactly, malformed input is a
:class:`FormatError` naming the field, and any mutation of a seed payload is read back
exactly or refused."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers import formats
from providers.formats.base import FormatError
from tests.providers.formats.appam import test_round_trips as appam
from tests.providers.formats.art import test_round_trips as art
from tests.providers.formats.forge import test_round_trips as forge
from tests.providers.formats.matey_ir import test_round_trips as matey_ir
from tests.providers.formats.seed_formats._helpers import (
    assert_round_trips,
    check_mutation,
    fixtures,
)

SEED_LISTS: dict[str, ModuleType] = {
    "appam": appam,
    "art": art,
    "forge": forge,
    "matey-ir": matey_ir,
}
EDGE_CASES = [
    pytest.param(format_id, payload, id=f"{format_id}-{name}")
    for format_id, cases in SEED_LISTS.items()
    for name, payload in cases.EDGE_PAYLOADS.items()
]
MALFORMED_CASES = [
    pytest.param(format_id, payload, field, id=f"{format_id}-{name}")
    for format_id, cases in SEED_LISTS.items()
    for name, (payload, field) in cases.MALFORMED.items()
]
SEEDS = {
    format_id: [orjson.loads(path.read_bytes()) for path in fixtures(format_id)]
    + list(cases.EDGE_PAYLOADS.values())
    for format_id, cases in SEED_LISTS.items()
}


@pytest.mark.parametrize(("format_id", "payload"), EDGE_CASES)
def test_edge_shapes_round_trip_exactly(format_id: str, payload: Any) -> None:
    assert_round_trips(format_id, payload)


@pytest.mark.parametrize(("format_id", "payload", "field"), MALFORMED_CASES)
def test_malformed_input_is_a_format_error_naming_the_field(
    format_id: str, payload: Any, field: str
) -> None:
    with pytest.raises(FormatError) as raised:
        formats.get(format_id).parse(payload)
    assert raised.value.field == field


@pytest.mark.parametrize("format_id", SEED_LISTS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(
    format_id: str, data: st.DataObject
) -> None:
    check_mutation(format_id, SEEDS[format_id], data)
