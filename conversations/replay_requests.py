"""A replay turn's request, stored as what it adds to an earlier turn's (issue 21).

In mode ``each`` turn k is sent the conversation up to its k-th assistant message, so its
request repeats the whole of turn k-1's and adds a few messages: stored whole, a run of n
turns would take space (and time to write) in n². A turn stores instead a reference to the
turn whose request it extends (``ReplayTurn.request_base``) and a delta, and the request is
rebuilt, exactly, where something shows it. The first turn stored in a run (and every turn
of mode ``last``) keeps its request whole.

A delta is a small JSON object, one of:

* ``{"value": v}``: the value is ``v`` (it changed, or the base had none);
* ``{"keep": n, "append": [...]}``: a list, the base's first ``n`` items then these;
* ``{"keys": {name: delta}, "drop": [name, ...]}``: an object, the base's with the keys
  named in ``keys`` rebuilt from their deltas and those in ``drop`` removed.

Pure JSON in, JSON out: no Django here, so that a migration can use it as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

JSON = Any


def request_delta(base: JSON, request: JSON) -> dict[str, Any]:
    """The delta that rebuilds ``request`` from ``base`` (see the module docstring)."""
    if isinstance(base, list) and isinstance(request, list):
        kept = _common_prefix(base, request)
        if kept:
            return {"keep": kept, "append": request[kept:]}
    elif isinstance(base, dict) and isinstance(request, dict):
        keys = {
            name: request_delta(base[name], value) if name in base else {"value": value}
            for name, value in request.items()
            if name not in base or base[name] != value
        }
        return {"keys": keys, "drop": [name for name in base if name not in request]}
    return {"value": request}


def request_rebuilt(base: JSON, delta: Mapping[str, Any]) -> JSON:
    """The request ``delta`` was made from, given its ``base`` (the inverse of
    :func:`request_delta`)."""
    if "value" in delta:
        return delta["value"]
    if "keep" in delta:
        return [*base[: delta["keep"]], *delta["append"]]
    rebuilt = {name: value for name, value in base.items() if name not in delta["drop"]}
    for name, inner in delta["keys"].items():
        rebuilt[name] = request_rebuilt(base.get(name), inner)
    return rebuilt


def _common_prefix(base: list[Any], request: list[Any]) -> int:
    count = 0
    for before, after in zip(base, request, strict=False):
        if before != after:
            break
        count += 1
    return count


class StoredRequest(Protocol):
    """What a turn row holds of its request (a ReplayTurn, or a migration's model)."""

    pk: Any
    request: JSON
    request_base_id: Any
    request_delta: JSON


def requests_rebuilt(turns: Iterable[StoredRequest]) -> dict[Any, JSON]:
    """Every request of ``turns`` (the turns of one run, each base among them), by turn
    id; None for a turn that stored none (it has not succeeded). Each delta is applied
    once, in order of the chain, so the cost is that of the requests rebuilt."""
    pending = {turn.pk: turn for turn in turns}
    rebuilt: dict[Any, JSON] = {}
    for turn_id in list(pending):
        chain = []
        while turn_id in pending and turn_id not in rebuilt:
            turn = pending[turn_id]
            chain.append(turn)
            turn_id = turn.request_base_id
        for turn in reversed(chain):
            if turn.request_delta is None or turn.request_base_id is None:
                rebuilt[turn.pk] = turn.request
            elif (base := rebuilt.get(turn.request_base_id)) is not None:
                rebuilt[turn.pk] = request_rebuilt(base, turn.request_delta)
            else:
                rebuilt[turn.pk] = None
    return rebuilt


def request_of(turns: Iterable[StoredRequest], turn_id: Any) -> JSON:
    """The request of the turn ``turn_id``, rebuilt along its chain of bases among
    ``turns`` (None when it stored none, or a base is missing); holds one request at a
    time."""
    by_id = {turn.pk: turn for turn in turns}
    chain = []
    while turn_id in by_id:
        turn = by_id[turn_id]
        chain.append(turn)
        if turn.request_delta is None or turn.request_base_id is None:
            break
        turn_id = turn.request_base_id
    else:
        return None
    request = chain[-1].request
    for turn in reversed(chain[:-1]):
        request = request_rebuilt(request, turn.request_delta)
    return request
