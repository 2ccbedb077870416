"""The ``gemini`` format refusing bad input: malformed payloads raise a ``FormatError`` naming
the field, and random mutations of the fixtures are refused cleanly or round trip.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats.gemini import parse, render
from tests.providers.formats.gemini._helpers import (
    FIXTURE_NAMES,
    USER,
    _request,
    load,
    stored,
)

# --------------------------------------------------------------------------- bad input


def _part(part: Any) -> dict[str, Any]:
    return _request({"role": "user", "parts": [part]})


P0 = "contents[0].parts[0]"
MALFORMED: list[tuple[Any, str]] = [
    ("just a string", "payload"),
    (42, "payload"),
    ({"model": "m"}, "payload"),
    ({"contents": "hi"}, "contents"),
    (_request("hi"), "contents[0]"),
    (_request({"role": "system", "parts": []}), "contents[0].role"),
    (_request({"role": 1, "parts": []}), "contents[0].role"),
    (_request({"role": "user", "parts": "hi"}), "contents[0].parts"),
    (_request(USER, {"parts": ["hi"]}), "contents[1].parts[0]"),
    (_part({"text": 3}), f"{P0}.text"),
    (_part({"text": "t", "thought": True, "thoughtSignature": 5}), f"{P0}.thoughtSignature"),
    (_part({"inlineData": "x"}), f"{P0}.inlineData"),
    (_part({"inlineData": {"data": "AAAA"}}), f"{P0}.inlineData.mimeType"),
    (_part({"inlineData": {"mimeType": "image/png"}}), f"{P0}.inlineData.data"),
    (_part({"fileData": {"mimeType": "image/png"}}), f"{P0}.fileData.fileUri"),
    (_part({"functionCall": {"args": {}}}), f"{P0}.functionCall.name"),
    (_part({"functionCall": {"name": "f", "args": "{}"}}), f"{P0}.functionCall.args"),
    (_part({"functionCall": {"name": "f", "id": 7}}), f"{P0}.functionCall.id"),
    (_part({"functionResponse": {"name": "f"}}), f"{P0}.functionResponse.response"),
    (
        _part({"functionResponse": {"name": "f", "response": "ok"}}),
        f"{P0}.functionResponse.response",
    ),
    (_part({"functionResponse": {"response": {}}}), f"{P0}.functionResponse.name"),
    (
        _part({"functionResponse": {"name": "f", "response": {}, "parts": [{"text": "x"}]}}),
        f"{P0}.functionResponse.parts",
    ),
    (_part({"text": "x", "$hint": 1}), f"{P0}.$hint"),
    (_request(USER, systemInstruction="Be brief."), "systemInstruction"),
    (_request(USER, tools={}), "tools"),
    (_request(USER, tools=["googleSearch"]), "tools[0]"),
    (
        _request(USER, tools=[{"functionDeclarations": [{}]}]),
        "tools[0].functionDeclarations[0].name",
    ),
    (
        _request(USER, tools=[{"functionDeclarations": [{"name": "f", "parameters": "{}"}]}]),
        "tools[0].functionDeclarations[0].parameters",
    ),
    (_request(USER, toolConfig="AUTO"), "toolConfig"),
    (_request(USER, generationConfig=[]), "generationConfig"),
    (_request(USER, generationConfig={"temperature": "hot"}), "generationConfig.temperature"),
    (_request(USER, generationConfig={"topK": 1.5}), "generationConfig.topK"),
    (
        _request(USER, generationConfig={"maxOutputTokens": True}),
        "generationConfig.maxOutputTokens",
    ),
    (_request(USER, generationConfig={"stopSequences": "END"}), "generationConfig.stopSequences"),
    (_request(USER, generationConfig={"stopSequences": [1]}), "generationConfig.stopSequences[0]"),
    (_request(USER, model=5), "model"),
    (["hi"], "[0]"),
    ([{"role": "user", "parts": [{"inlineData": {}}]}], "[0].parts[0].inlineData.mimeType"),
    ({"request": _request(USER), "response": None}, "response"),
    ({"request": {}, "response": {}}, "request.contents"),
    ({"request": _request(USER), "response": {"candidates": {}}}, "response.candidates"),
    (
        {"request": _request(USER), "response": {"candidates": [{"content": USER}]}},
        "response.candidates[0].content.role",
    ),
    (
        {"request": _request(USER), "response": {"candidates": [], "usageMetadata": []}},
        "response.usageMetadata",
    ),
    (
        {
            "request": _request(USER),
            "response": {"candidates": [], "usageMetadata": {"promptTokenCount": "3"}},
        },
        "response.usageMetadata.promptTokenCount",
    ),
    ({"candidates": ["x"]}, "candidates[0]"),
    ({"candidates": [{"finishReason": 1}]}, "candidates[0].finishReason"),
    ({"candidates": [{"content": {"parts": {}}}]}, "candidates[0].content.parts"),
    ({"candidates": [], "responseId": 7}, "responseId"),
    ({"candidates": [], "modelVersion": ["m"]}, "modelVersion"),
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
