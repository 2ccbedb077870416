"""Validate Gemini ``generateContent`` REST bodies against the ``google-genai`` SDK's types.

The SDK has no type for the REST body (its ``GenerateContentConfig`` is the Python-side
config that its mappers spread over ``systemInstruction``, ``tools``... in the body), so
:class:`GenerateContentBody` rebuilds the body from the SDK's own models: ``Content``,
``Tool``, ``ToolConfig``, ``GenerationConfig``, ``SafetySetting``. They forbid unknown keys
and know the camelCase aliases; validation goes through JSON, so bytes fields (inline data,
thought signatures) must be base64.

Three holes are closed by hand: the SDK also accepts snake_case names (so the validated
value, dumped back by alias, must have exactly the payload's keys); it accepts an unknown
enum value with a mere warning (warnings are errors here); and it types Vertex-only fields
too (the SDK's own request mappers for the Gemini Developer API run on the result, and they
refuse those). :func:`check_gemini_rules` asserts the rules of reference section 2.4 that
no type can say (turn order, call/response counts, one data field per part...).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from typing import Any

import orjson
from google.genai import models as genai_models
from google.genai import types
from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

DATA_FIELDS = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
)
FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$")


class GenerateContentBody(BaseModel):
    """The body of ``POST /v1beta/models/{model}:generateContent`` (the model is in the
    URL), made of the SDK's types."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=False)

    contents: list[types.Content]
    system_instruction: types.Content | None = None
    tools: list[types.Tool] | None = None
    tool_config: types.ToolConfig | None = None
    generation_config: types.GenerationConfig | None = None
    safety_settings: list[types.SafetySetting] | None = None
    cached_content: str | None = None
    labels: dict[str, str] | None = None


def validate_gemini_request(payload: Any) -> GenerateContentBody:
    """Raise unless ``payload`` is a generateContent body the SDK's types and its Gemini
    Developer API mappers accept, spelled exactly with the REST (camelCase) names."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # unknown enum values only warn in the SDK
        body = GenerateContentBody.model_validate_json(orjson.dumps(payload))
    dumped = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert key_paths(dumped) == key_paths(payload), (
        f"keys the SDK does not spell this way: {key_paths(payload) - key_paths(dumped)}"
    )
    for content in [
        *body.contents,
        *([body.system_instruction] if body.system_instruction else []),
    ]:
        genai_models._Content_to_mldev(content)
    for tool in body.tools or []:
        genai_models._Tool_to_mldev(tool)
    if body.tool_config is not None:
        genai_models._ToolConfig_to_mldev(body.tool_config)
    for setting in body.safety_settings or []:
        genai_models._SafetySetting_to_mldev(setting)
    return body


def validate_gemini_response(payload: Any) -> types.GenerateContentResponse:
    """Raise unless ``payload`` is a GenerateContentResponse the SDK reads."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return types.GenerateContentResponse.model_validate_json(orjson.dumps(payload))


def key_paths(value: Any, path: str = "") -> set[str]:
    """Every object key in ``value``, as a path (``contents[0].parts[1].inlineData``)."""
    paths: set[str] = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            paths.add(f"{path}.{key}")
            paths |= key_paths(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths |= key_paths(item, f"{path}[{index}]")
    return paths


def check_gemini_rules(payload: Any) -> None:
    """Assert the structural rules of a request built from another format: contents
    alternate user/model starting with the user; every part holds one data field; a model
    turn with function calls is answered by the next turn with exactly as many function
    responses (object responses, first in the turn); no empty text; valid names."""
    contents = payload["contents"]
    assert contents and contents[0]["role"] == "user", "the first turn is the user's"
    open_calls: list[str] = []
    for index, content in enumerate(contents):
        role, parts = content["role"], content["parts"]
        assert role in ("user", "model"), f"contents[{index}].role"
        assert not index or role != contents[index - 1]["role"], f"contents[{index}] alternates"
        assert parts, f"contents[{index}] has parts"
        kinds = [_data_field(part, f"contents[{index}].parts[{n}]") for n, part in enumerate(parts)]
        responses = [part["functionResponse"] for part in parts if "functionResponse" in part]
        assert kinds[: len(responses)] == ["functionResponse"] * len(responses), (
            f"contents[{index}]: function responses come first"
        )
        assert [response["name"] for response in responses] == open_calls, (
            f"contents[{index}] answers {open_calls}"
        )
        assert all(isinstance(response["response"], dict) for response in responses)
        calls = [part["functionCall"] for part in parts if "functionCall" in part]
        assert role == "model" or not calls, f"contents[{index}]: calls come from the model"
        assert role == "user" or not responses, f"contents[{index}]: responses come from the user"
        assert all(FUNCTION_NAME.fullmatch(call["name"]) for call in calls)
        if calls:
            first = next(part for part in parts if "functionCall" in part)
            assert first.get("thoughtSignature"), f"contents[{index}]: first call is signed"
        open_calls = [call["name"] for call in calls]
    assert not open_calls, f"calls {open_calls} are never answered"
    _check_tools(payload)


def _data_field(part: Any, path: str) -> str:
    present = [key for key in DATA_FIELDS if key in part]
    assert len(present) == 1, f"{path} holds exactly one data field, not {present}"
    # Gemini itself sends a signature on an empty text part; a bare empty text is refused.
    assert part.get("text") != "" or "thoughtSignature" in part, f"{path} is an empty text part"
    return present[0]


def _check_tools(payload: Any) -> None:
    for tool in payload.get("tools") or []:
        for declaration in tool.get("functionDeclarations") or []:
            assert FUNCTION_NAME.fullmatch(declaration["name"]), declaration["name"]
            assert not {"parameters", "parametersJsonSchema"} <= declaration.keys()
    calling = (payload.get("toolConfig") or {}).get("functionCallingConfig") or {}
    if "allowedFunctionNames" in calling:
        assert calling["mode"] in ("ANY", "VALIDATED"), "allowedFunctionNames needs ANY"
    stop = (payload.get("generationConfig") or {}).get("stopSequences") or []
    assert len(stop) <= 5, "at most five stop sequences"
