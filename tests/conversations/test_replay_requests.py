"""A replay turn's request as a delta from the turn before: rebuilt exactly, and small."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import pytest

from conversations.replay_requests import (
    request_delta,
    request_of,
    request_rebuilt,
    requests_rebuilt,
)


def messages(count: int) -> list[dict[str, Any]]:
    return [{"role": ("user", "assistant")[i % 2], "content": f"message {i}"} for i in range(count)]


@pytest.mark.parametrize(
    ("base", "sent"),
    [
        ({"model": "m", "messages": messages(4)}, {"model": "m", "messages": messages(7)}),
        # The last message merged with the new ones (a renderer joining tool results).
        ({"messages": messages(3)}, {"messages": [*messages(2), {"role": "user", "x": 1}]}),
        ({"messages": messages(3), "stop": ["a"]}, {"messages": messages(4), "temperature": 0}),
        ({"system": "a", "contents": messages(2)}, {"system": "b", "contents": messages(1)}),
        (messages(2), messages(5)),
        ({"nested": {"a": 1, "b": [1, 2]}}, {"nested": {"b": [1, 2, 3], "c": None}}),
        ({"messages": messages(2)}, "a text request"),
        ("a text request", {"messages": messages(2)}),
    ],
)
def test_a_delta_rebuilds_the_request_exactly(base: Any, sent: Any) -> None:
    delta = request_delta(base, sent)
    rebuilt = request_rebuilt(orjson.loads(orjson.dumps(base)), orjson.loads(orjson.dumps(delta)))
    assert rebuilt == sent
    assert orjson.dumps(rebuilt, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        sent, option=orjson.OPT_SORT_KEYS
    )


def test_a_grown_prefix_stores_only_what_it_adds() -> None:
    base = {"model": "m", "messages": messages(1_000)}
    delta = request_delta(base, {"model": "m", "messages": messages(1_002)})
    assert delta == {
        "keys": {"messages": {"keep": 1_000, "append": messages(1_002)[1_000:]}},
        "drop": [],
    }


@dataclass
class Row:
    pk: int
    request: Any
    request_base_id: int | None
    request_delta: Any


def chain(requests: list[Any]) -> list[Row]:
    """Turns stored as the worker stores them: the first whole, each next a delta."""
    rows = [Row(1, requests[0], None, None)]
    for number, request in enumerate(requests[1:], start=2):
        rows.append(Row(number, None, number - 1, request_delta(requests[number - 2], request)))
    return rows


def test_every_request_of_a_run_is_rebuilt_in_any_order() -> None:
    sent = [{"messages": messages(2 * n + 1)} for n in range(6)]
    rows = chain(sent)
    rows.append(Row(7, None, None, None))  # pending: sent nothing yet
    rebuilt = requests_rebuilt(reversed(rows))
    assert [rebuilt[row.pk] for row in rows] == [*sent, None]
    assert request_of(rows, 5) == sent[4]
    assert request_of(rows, 7) is None


def test_a_turn_whose_base_is_missing_rebuilds_as_none() -> None:
    rows = chain([{"messages": messages(n)} for n in (1, 2, 3)])[1:]
    assert requests_rebuilt(rows) == {2: None, 3: None}
    assert request_of(rows, 3) is None
