"""``ollama`` edge-case payload shapes written back exactly, and a mutation fuzzer
that checks any payload is read exactly or refused with a format error."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats.base import FormatError
from providers.formats.ollama import FORMAT
from tests.providers.formats._mutations import draw_mutation
from tests.providers.formats.ollama._helpers import (
    _CALL,
    OLLAMA_FIXTURES,
    assert_round_trips,
    canonical,
    parse_one,
    stored,
)

# --------------------------------------------------------------------------- exact shapes


EDGE_PAYLOADS: dict[str, Any] = {
    "content absent": [{"role": "assistant", "tool_calls": [_CALL]}, {"role": "tool"}],
    "content null": [{"role": "user", "content": None}, {"role": "tool", "content": None}],
    "empty strings and lists": [
        {"role": "assistant", "content": "", "thinking": "", "images": [], "tool_calls": []}
    ],
    "tool_name null": [
        {"role": "assistant", "tool_calls": [_CALL]},
        {"role": "tool", "tool_name": None},
    ],
    "a result answering no call": [{"role": "tool", "tool_name": "f", "content": ""}],
    "ids given by a recent server": [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_x1", **_CALL}]},
        {"role": "tool", "tool_call_id": "call_x1", "tool_name": "f", "content": "ok"},
    ],
    "id null": [{"role": "assistant", "tool_calls": [{"id": None, **_CALL}]}],
    "unknown fields everywhere": {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi", "name": "ann", "tool_name": "stray"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "type": "function",
                        "function": {"name": "f", "arguments": {"a": 1}, "index": 3},
                    }
                ],
            },
        ],
        "tools": [{"function": {"name": "f", "strict": True}}],
        "logprobs": True,
        "top_logprobs": 2,
    },
    "nulls at the top": {
        "model": None,
        "messages": [{"role": "user", "content": "x"}],
        "tools": None,
        "options": None,
        "stream": None,
    },
    "empty tools and options": {"model": "m", "messages": [], "tools": [], "options": {}},
    "options of every kind": {
        "model": "m",
        "messages": [],
        "options": {
            "temperature": 1,
            "top_p": 2**53 + 1,
            "top_k": 40.0,
            "seed": 3,
            "num_predict": -1,
            "stop": [],
            "presence_penalty": None,
            "mirostat": 2,
        },
    },
    "response without metrics or reason": {
        "message": {"role": "assistant", "content": "a"},
        "done": False,
        "done_reason": None,
        "model": None,
    },
    "response with an empty reason": {
        "message": {"role": "assistant", "content": "a"},
        "done": True,
        "done_reason": "",
    },
    "response with odd metrics": {
        "message": {"role": "assistant", "content": "a"},
        "done": True,
        "done_reason": "load",
        "eval_count": "many",
        "prompt_eval_count": None,
        "created_at": "not a time",
    },
    "exchange with an envelope": {
        "request": {"model": "m", "messages": [{"role": "user", "content": "q"}]},
        "response": {"message": {"role": "assistant", "content": "a"}, "done": True},
        "latency_ms": 812,
    },
}


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


# --------------------------------------------------------------------------- fuzzing

_SEEDS = [orjson.loads(path.read_bytes()) for path in OLLAMA_FIXTURES] + list(
    EDGE_PAYLOADS.values()
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    payload = draw_mutation(data, _SEEDS)
    try:
        conversation = parse_one(payload)
    except FormatError:
        return
    rendered = FORMAT.render(stored(conversation))
    assert canonical(rendered.payload) == canonical(payload)
