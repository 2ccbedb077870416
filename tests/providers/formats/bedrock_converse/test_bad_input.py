"""The ``bedrock-converse`` format: malformed payloads raise a FormatError naming the field,
and mutated fixtures are refused cleanly or round trip."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats import FormatError
from providers.formats.bedrock_converse import parse, render
from tests.providers.formats.bedrock_converse._helpers import (
    FIXTURE_NAMES,
    USER,
    _request,
    _user,
    load,
    stored,
)

# --------------------------------------------------------------------------- bad input


MALFORMED: list[tuple[Any, str]] = [
    ("just a string", "payload"),
    (42, "payload"),
    ({"modelId": "m"}, "payload"),
    ({"messages": "hi"}, "messages"),
    (_request({"content": []}), "messages[0].role"),
    (_request({"role": "tool", "content": []}), "messages[0].role"),
    (_request({"role": "user"}), "messages[0].content"),
    (_request({"role": "user", "content": "hi"}), "messages[0].content"),
    (_request(_user("hi")), "messages[0].content[0]"),
    (_request(_user({})), "messages[0].content[0]"),
    (_request(_user({"text": "a", "image": {}})), "messages[0].content[0]"),
    (_request(_user({"text": 3})), "messages[0].content[0].text"),
    (_request(_user({"json": {}})), "messages[0].content[0]"),
    (
        _request(_user({"image": {"source": {"bytes": "AA=="}}})),
        "messages[0].content[0].image.format",
    ),
    (_request(_user({"image": {"format": "png"}})), "messages[0].content[0].image.source"),
    (
        _request(_user({"image": {"format": "png", "source": {"url": "https://x"}}})),
        "messages[0].content[0].image.source.url",
    ),
    (
        _request(_user({"image": {"format": "png", "source": {"bytes": 1}}})),
        "messages[0].content[0].image.source.bytes",
    ),
    (
        _request(_user({"image": {"format": "png", "source": {"s3Location": {}}}})),
        "messages[0].content[0].image.source.s3Location.uri",
    ),
    (
        _request(_user({"document": {"source": {"text": "x"}}})),
        "messages[0].content[0].document.name",
    ),
    (
        _request(_user({"document": {"name": "n", "source": {"content": "x"}}})),
        "messages[0].content[0].document.source.content",
    ),
    (
        _request(_user({"toolUse": {"name": "t", "input": {}}})),
        "messages[0].content[0].toolUse.toolUseId",
    ),
    (
        _request(_user({"toolUse": {"toolUseId": "a", "input": {}}})),
        "messages[0].content[0].toolUse.name",
    ),
    (
        _request(_user({"toolUse": {"toolUseId": "a", "name": "t"}})),
        "messages[0].content[0].toolUse.input",
    ),
    (
        _request(_user({"toolResult": {"toolUseId": "a"}})),
        "messages[0].content[0].toolResult.content",
    ),
    (
        _request(_user({"toolResult": {"toolUseId": "a", "content": [], "status": "ok"}})),
        "messages[0].content[0].toolResult.status",
    ),
    (
        _request(_user({"toolResult": {"toolUseId": "a", "content": [{"toolUse": {}}]}})),
        "messages[0].content[0].toolResult.content[0]",
    ),
    (
        _request(_user({"reasoningContent": {"reasoningText": {}}})),
        "messages[0].content[0].reasoningContent.reasoningText.text",
    ),
    (
        _request(_user({"reasoningContent": {"redactedContent": 5}})),
        "messages[0].content[0].reasoningContent.redactedContent",
    ),
    (
        _request(_user({"reasoningContent": {"summary": "x"}})),
        "messages[0].content[0].reasoningContent.summary",
    ),
    (
        _request(_user({"citationsContent": {"content": [1]}})),
        "messages[0].content[0].citationsContent.content[0]",
    ),
    (
        _request(_user({"guardContent": {"text": {"qualifiers": []}}})),
        "messages[0].content[0].guardContent.text.text",
    ),
    (_request(USER, system="be brief"), "system"),
    (_request(USER, system=[{"image": {}}]), "system[0]"),
    (_request(USER, inferenceConfig={"maxTokens": "10"}), "inferenceConfig.maxTokens"),
    (_request(USER, inferenceConfig={"temperature": "hot"}), "inferenceConfig.temperature"),
    (_request(USER, inferenceConfig={"stopSequences": [1]}), "inferenceConfig.stopSequences[0]"),
    (_request(USER, inferenceConfig=[]), "inferenceConfig"),
    (_request(USER, modelId=7), "modelId"),
    (_request(USER, toolConfig={}), "toolConfig.tools"),
    (
        _request(USER, toolConfig={"tools": [{"toolSpec": {"name": "t"}}]}),
        "toolConfig.tools[0].toolSpec.inputSchema",
    ),
    (
        _request(
            USER, toolConfig={"tools": [{"toolSpec": {"name": "t", "inputSchema": {"json": 1}}}]}
        ),
        "toolConfig.tools[0].toolSpec.inputSchema",
    ),
    (
        _request(USER, toolConfig={"tools": [], "toolChoice": {"none": {}}}),
        "toolConfig.toolChoice.none",
    ),
    (
        _request(USER, toolConfig={"tools": [], "toolChoice": {"tool": {}}}),
        "toolConfig.toolChoice.tool.name",
    ),
    (_request(USER, toolConfig={"tools": [], "toolChoice": {}}), "toolConfig.toolChoice"),
    (_request({"role": "user", "content": [], "$hint": 1}), "messages[0].$hint"),
    ([USER, "hi"], "[1]"),
    ({"request": _request(USER), "response": None}, "response"),
    ({"request": _request(USER), "response": {}}, "response.output"),
    ({"request": _request(USER), "response": {"output": {}}}, "response.output.message"),
    (
        {"request": _request(USER), "response": {"output": {"message": USER}}},
        "response.output.message",
    ),
    (
        {
            "output": {"message": {"role": "assistant", "content": []}},
            "usage": {"inputTokens": "3"},
        },
        "usage.inputTokens",
    ),
    ({"output": {"message": {"role": "assistant", "content": []}}, "stopReason": 1}, "stopReason"),
    ({"request": {"messages": [{}]}, "response": {}}, "request.messages[0].role"),
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
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, (*path, key))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, (*path, index))

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
