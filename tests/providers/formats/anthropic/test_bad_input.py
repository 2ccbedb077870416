"""The ``anthropic`` format: malformed payloads raise a FormatError naming the field, and
mutated fixtures are refused cleanly or round trip."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats.anthropic import parse, render
from tests.providers.formats.anthropic._helpers import (
    FIXTURE_NAMES,
    USER,
    _request,
    load,
    stored,
)

# --------------------------------------------------------------------------- bad input


MALFORMED: list[tuple[Any, str]] = [
    ("just a string", "payload"),
    (42, "payload"),
    ({"model": "m"}, "payload"),
    ({"messages": "hi"}, "messages"),
    (_request({"content": "hi"}), "messages[0].role"),
    (_request({"role": "tool", "content": "x"}), "messages[0].role"),
    (_request({"role": "developer", "content": "x"}), "messages[0].role"),
    (_request({"role": "user"}), "messages[0].content"),
    (_request({"role": "user", "content": None}), "messages[0].content"),
    (_request({"role": "user", "content": 5}), "messages[0].content"),
    (_request({"role": "user", "content": {"type": "text"}}), "messages[0].content"),
    (_request(USER, {"role": "user", "content": ["hi"]}), "messages[1].content[0]"),
    (_request({"role": "user", "content": [{"text": "x"}]}), "messages[0].content[0].type"),
    (_request({"role": "user", "content": [{"type": "text"}]}), "messages[0].content[0].text"),
    (
        _request({"role": "user", "content": [{"type": "text", "text": 3}]}),
        "messages[0].content[0].text",
    ),
    (
        _request({"role": "user", "content": [{"type": "text", "text": "a", "citations": {}}]}),
        "messages[0].content[0].citations",
    ),
    (_request({"role": "user", "content": [{"type": "image"}]}), "messages[0].content[0].source"),
    (
        _request({"role": "user", "content": [{"type": "image", "source": {"type": "text"}}]}),
        "messages[0].content[0].source.type",
    ),
    (
        _request(
            USER, USER, {"role": "user", "content": [{"type": "image", "source": {"type": "url"}}]}
        ),
        "messages[2].content[0].source.url",
    ),
    (
        _request({"role": "user", "content": [{"type": "document", "source": {"type": "base64"}}]}),
        "messages[0].content[0].source.media_type",
    ),
    (
        _request(
            {"role": "user", "content": [{"type": "document", "source": {"type": "content"}}]}
        ),
        "messages[0].content[0].source.content",
    ),
    (
        _request(
            {"role": "assistant", "content": [{"type": "tool_use", "name": "t", "input": {}}]}
        ),
        "messages[0].content[0].id",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "tool_use", "id": "x", "input": {}}]}),
        "messages[0].content[0].name",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "tool_use", "id": "x", "name": "t"}]}),
        "messages[0].content[0].input",
    ),
    (
        _request(
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "x", "name": "t", "input": "{}"}],
            }
        ),
        "messages[0].content[0].input",
    ),
    (
        _request({"role": "user", "content": [{"type": "tool_result"}]}),
        "messages[0].content[0].tool_use_id",
    ),
    (
        _request(
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": 1}]}
        ),
        "messages[0].content[0].content",
    ),
    (
        _request(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "x", "is_error": "yes"}],
            }
        ),
        "messages[0].content[0].is_error",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "thinking"}]}),
        "messages[0].content[0].thinking",
    ),
    (
        _request({"role": "assistant", "content": [{"type": "redacted_thinking"}]}),
        "messages[0].content[0].data",
    ),
    (_request(USER, system=5), "system"),
    (_request(USER, system=[{"type": "image", "source": {}}]), "system[0]"),
    (_request(USER, max_tokens="10"), "max_tokens"),
    (_request(USER, max_tokens=True), "max_tokens"),
    (_request(USER, model=["m"]), "model"),
    (_request(USER, temperature="hot"), "temperature"),
    (_request(USER, top_k=1.5), "top_k"),
    (_request(USER, stop_sequences="END"), "stop_sequences"),
    (_request(USER, stop_sequences=[1]), "stop_sequences[0]"),
    (_request(USER, stream="yes"), "stream"),
    (_request(USER, metadata="x"), "metadata"),
    (_request(USER, tools={}), "tools"),
    (_request(USER, tools=[{"description": "d"}]), "tools[0].name"),
    (_request(USER, tools=[{"name": "t", "input_schema": "{}"}]), "tools[0].input_schema"),
    (_request(USER, tool_choice={"type": "sometimes"}), "tool_choice.type"),
    (_request(USER, tool_choice={"type": "tool"}), "tool_choice.name"),
    (_request(USER, tool_choice={}), "tool_choice.type"),
    (_request(USER, tool_choice="auto"), "tool_choice"),
    (_request({"role": "user", "content": "x", "$hint": 1}), "messages[0].$hint"),
    (
        _request({"role": "user", "content": "x", "unmapped_blocks": []}),
        "messages[0].unmapped_blocks",
    ),
    ([USER, "hi"], "[1]"),
    ([{"role": "user", "content": [{"type": "image"}]}], "[0].content[0].source"),
    ({"request": _request(USER), "response": None}, "response"),
    ({"request": _request(USER), "response": {"role": "user", "content": []}}, "response.role"),
    (
        {"request": _request(USER), "response": {"role": "assistant", "content": "x"}},
        "response.content",
    ),
    (
        {"request": _request(USER), "response": {"role": "assistant", "content": [], "usage": []}},
        "response.usage",
    ),
    (
        {
            "request": _request(USER),
            "response": {"role": "assistant", "content": [], "usage": {"input_tokens": "3"}},
        },
        "response.usage.input_tokens",
    ),
    ({"request": {"messages": [{}]}, "response": {}}, "request.messages[0].role"),
    ({"type": "message", "role": "assistant"}, "content"),
    ({"type": "message", "role": "assistant", "content": [], "id": 7}, "id"),
    ({"type": "message", "role": "assistant", "content": [], "stop_reason": 1}, "stop_reason"),
]


@pytest.mark.parametrize(("payload", "field"), MALFORMED)
def test_malformed_payload_raises_format_error_with_field(payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as error:
        parse(payload)
    assert error.value.field == field


def _mutations(payload: Any) -> st.SearchStrategy[Any]:
    """``payload`` with one value somewhere replaced by random JSON, or one key removed."""
    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        children = (
            value.items()
            if isinstance(value, dict)
            else enumerate(value)
            if isinstance(value, list)
            else []
        )
        for key, child in children:
            walk(child, (*path, key))

    walk(payload, ())
    json_values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )

    def mutate(path: tuple[Any, ...], value: Any, delete: bool) -> Any:
        result = copy.deepcopy(payload)
        if not path:
            return value
        parent = result
        for key in path[:-1]:
            parent = parent[key]
        if delete and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
        return result

    return st.builds(mutate, st.sampled_from(paths), json_values, st.booleans())


@pytest.mark.parametrize("name", FIXTURE_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_payload_is_refused_cleanly_or_round_trips(name: str, data: st.DataObject) -> None:
    payload = data.draw(_mutations(load(name)))
    try:
        conversation = parse(copy.deepcopy(payload))[0].conversation
    except FormatError:
        return
    assert render(conversation).payload == payload
    assert render(stored(conversation)).payload == payload
