"""conversations.jsonb_text: JSON text whose numbers jsonb gives back as written."""

from __future__ import annotations

import json
import random
import struct

import orjson
import pytest
from django.db import connection

from conversations.jsonb_text import dumps


def random_floats(count: int) -> list[float]:
    chosen = random.Random(20250523)
    floats: list[float] = []
    while len(floats) < count:
        (number,) = struct.unpack("<d", chosen.getrandbits(64).to_bytes(8, "little"))
        if number == number and abs(number) != float("inf"):  # neither NaN nor infinite
            floats.append(number)
    return floats


def test_every_float_is_written_with_a_fraction_or_a_negative_exponent() -> None:
    numbers = [*random_floats(5000), 1e16, -1e17, 1e300, 1.7976931348623157e308]
    text = dumps(numbers)
    assert "e+" not in text
    assert orjson.loads(text) == numbers and json.loads(text) == numbers
    assert all(type(number) is float for number in json.loads(text))


@pytest.mark.parametrize(
    ("number", "written"),
    [
        (1e16, "10000000000000000.0"),
        (1.5e16, "15000000000000000.0"),
        (-1e17, "-1" + "0" * 17 + ".0"),
    ],
)
def test_a_large_float_is_its_shortest_decimal_spelled_out(number: float, written: str) -> None:
    assert dumps({"n": [number]}) == f'{{"n":[{written}]}}'


def test_other_values_are_orjsons_text() -> None:
    value = {"q": "1e+16 and the+weather", "n": [1, 1.0, 0.1, 1e-7, -0.0, 2**63], "t": True}
    assert dumps(value) == orjson.dumps(value).decode()


@pytest.mark.django_db
def test_postgresql_gives_every_float_back_as_a_float() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("jsonb is PostgreSQL's")
    numbers = [*random_floats(5000), 1e16, -1e17, 1e300, 5e-324, 1.0, 0.1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb::text", [dumps(numbers)])
        [(text,)] = cursor.fetchall()
    assert json.loads(text) == numbers
    assert all(type(number) is float for number in json.loads(text))
