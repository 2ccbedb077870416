"""The ``gemini`` format reading request fields: tools and their schemas, generation config,
function calling config as tool choice, and unknown fields and nulls at every level.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from providers.formats.gemini import render
from tests.providers.formats.gemini._helpers import (
    load,
    read_without_warnings_but_ids,
    stored,
)
from tests.providers.sdk.gemini import validate_gemini_request

# --------------------------------------------------------------------------- request fields


def test_tools_schemas_and_layout() -> None:
    conversation = read_without_warnings_but_ids(load("tool_loop_parallel"))
    weather = conversation.tools[0]
    assert weather.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name, e.g. Paris"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        },
        "required": ["city"],
    }
    assert weather.extra["gemini"]["$parameters"]["type"] == "OBJECT"
    assert conversation.tools[1].extra == {}
    json_schema = read_without_warnings_but_ids(load("forced_tool_json_schema")).tools[1]
    assert json_schema.extra["gemini"] == {"behavior": "BLOCKING", "$schema": "json"}
    layout = read_without_warnings_but_ids(load("code_execution_grounding_exchange")).extra[
        "gemini"
    ]["$tools"]
    assert layout == [{"codeExecution": {}}, {"googleSearch": {}}]


def test_generation_config_and_top_level_fields() -> None:
    conversation = read_without_warnings_but_ids(load("long_conversation"))
    params = conversation.parameters
    assert (params.temperature, params.top_k, params.top_p, params.max_tokens) == (
        0.4,
        40,
        0.9,
        400,
    )
    assert (params.stop, params.seed) == (["\n\nUser:"], 1234)
    assert (params.presence_penalty, params.frequency_penalty) == (0.3, 0.1)
    assert conversation.extra["gemini"]["generationConfig"] == {"responseMimeType": "text/plain"}
    assert conversation.extra["gemini"]["labels"] == {"team": "garden-bot", "env": "staging"}
    system = conversation.messages[0]
    assert system.role == "system" and len(system.content) == 2


TOOL = {"functionDeclarations": [{"name": "f"}, {"name": "g"}]}


@pytest.mark.parametrize(
    ("calling", "kind", "name"),
    [
        ({"mode": "AUTO"}, "auto", None),
        ({"mode": "NONE"}, "none", None),
        ({"mode": "ANY"}, "required", None),
        ({"mode": "ANY", "allowedFunctionNames": ["f"]}, "tool", "f"),
        ({"mode": "ANY", "allowedFunctionNames": ["f", "g"]}, "required", None),
        ({"mode": "VALIDATED"}, "auto", None),
        ({"mode": "MODE_UNSPECIFIED"}, None, None),
        ({"allowedFunctionNames": ["f"]}, None, None),
    ],
)
def test_function_calling_config_as_tool_choice(
    calling: dict[str, Any], kind: str | None, name: str | None
) -> None:
    payload = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [TOOL],
        "toolConfig": {"functionCallingConfig": calling, "retrievalConfig": {"languageCode": "fr"}},
    }
    conversation = read_without_warnings_but_ids(copy.deepcopy(payload))
    choice = conversation.tool_choice
    assert (choice.type if choice else None, choice.name if choice else None) == (kind, name)
    assert render(stored(conversation)).payload == payload
    validate_gemini_request(payload)


UNKNOWN_EVERYWHERE = {
    "request": {
        "contents": [
            {
                "role": "user",
                "futureContentField": 1,
                "parts": [
                    {"text": "hi", "futurePartField": [1]},
                    {
                        "inlineData": {
                            "mimeType": "image/png",
                            "data": "iVBORw==",
                            "displayName": "a",
                        }
                    },
                    {"fileData": {"fileUri": "gs://bucket/doc.pdf", "mimeType": None}},
                    {"text": "t", "thought": True, "thoughtSignature": None},
                    {"thoughtSignature": "c2ln"},
                    {"text": "", "thoughtSignature": "c2ln", "thought": False},
                    {"futureData": {"x": 1}},
                    {},
                ],
            },
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "f", "args": None, "willContinue": False}},
                    {"functionCall": {"name": "f"}, "thoughtSignature": "c2ln"},
                ],
            },
            {
                "parts": [
                    {"functionResponse": {"name": "f", "response": {}, "scheduling": "SILENT"}},
                    {"functionResponse": {"name": "f", "response": {"output": "{}"}, "parts": []}},
                ]
            },
            {"role": "model"},
        ],
        "systemInstruction": {"role": "user", "parts": [{"text": "s"}], "future": True},
        "tools": [{"functionDeclarations": [], "googleMaps": {}}, {"functionDeclarations": None}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": []}},
        "generationConfig": {"temperature": None, "futureKnob": 3},
        "model": "models/gemini-2.5-flash",
    },
    "response": {
        "candidates": [{"content": None, "finishReason": None}, {"index": 1}],
        "usageMetadata": {},
        "futureResponseField": "x",
    },
    "trace": [1, 2],
}


def test_unknown_fields_and_nulls_survive_at_every_level() -> None:
    payload = copy.deepcopy(UNKNOWN_EVERYWHERE)
    conversation = read_without_warnings_but_ids(payload)
    assert render(conversation).payload == UNKNOWN_EVERYWHERE
    assert render(stored(conversation)).payload == UNKNOWN_EVERYWHERE
    assert conversation.parameters.model == "models/gemini-2.5-flash"
