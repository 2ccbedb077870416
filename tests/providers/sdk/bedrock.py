"""Validate Bedrock Converse payloads against botocore's service model for
``bedrock-runtime`` (the types boto3 checks a ``converse`` call against), plus the rules
the model cannot express.

In JSON the blob members (``bytes``, ``redactedContent``) are base64 strings, while boto3
takes raw bytes: they are decoded (strictly) before validating, so bad base64 fails here.
botocore's ``ParamValidator`` checks required members, unknown members, types, tagged unions
and minimum lengths, but not patterns, enums or maximums: :func:`check_converse_rules`
asserts those, and the conversation rules (alternation, tool pairing, ``toolConfig``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import botocore.session
from botocore.model import OperationModel, Shape
from botocore.validate import ParamValidator

TOOL_ID = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
DOCUMENT_NAME = re.compile(r"[a-zA-Z0-9\-()\[\]]+( [a-zA-Z0-9\-()\[\]]+)*")
MEDIA = ("image", "document", "audio", "video")


@cache
def _operation() -> OperationModel:
    service = botocore.session.get_session().get_service_model("bedrock-runtime")
    return service.operation_model("Converse")


def _decode_blobs(value: Any, shape: Shape) -> Any:
    """``value`` with the base64 strings of blob members decoded to bytes."""
    kind = shape.type_name
    if kind == "blob" and isinstance(value, str):
        return base64.b64decode(value, validate=True)
    if kind == "structure" and isinstance(value, Mapping):
        members = shape.members
        return {
            key: _decode_blobs(item, members[key]) if key in members else item
            for key, item in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [_decode_blobs(item, shape.member) for item in value]
    if kind == "map" and isinstance(value, Mapping):
        return {key: _decode_blobs(item, shape.value) for key, item in value.items()}
    return value


def _validate(payload: Any, shape: Shape) -> None:
    report = ParamValidator().validate(_decode_blobs(payload, shape), shape)
    if report.has_errors():
        raise AssertionError(report.generate_report())


def validate_converse_request(payload: Any, *, model_id: str | None = None) -> None:
    """Raise ``AssertionError`` unless ``payload`` is a valid ``Converse`` request as boto3
    takes it. ``model_id`` stands in for the URL path's model when the payload is the HTTP
    body (which has no ``modelId`` member)."""
    if model_id is not None and "modelId" not in payload:
        payload = {"modelId": model_id, **payload}
    _validate(payload, _operation().input_shape)


def validate_converse_messages(messages: Any) -> None:
    """A bare message list, validated as the ``messages`` of a request."""
    validate_converse_request({"modelId": "m", "messages": messages})


def validate_converse_response(payload: Any) -> None:
    """Raise ``AssertionError`` unless ``payload`` has the shape of a ``Converse`` response
    (boto3's ``ResponseMetadata`` aside)."""
    body = {key: value for key, value in payload.items() if key != "ResponseMetadata"}
    _validate(body, _operation().output_shape)


def check_converse_rules(payload: Mapping[str, Any]) -> None:
    """Assert what botocore's model leaves to the service: the first turn is the user's,
    roles alternate, every ``toolUse`` is answered first thing in the next user turn, tool
    blocks need ``toolConfig``, media only from the user, ids/names/enums/ranges."""
    messages = payload["messages"]
    assert messages and messages[0]["role"] == "user", "the first message is the user's"
    previous_calls: list[str] = []
    for index, message in enumerate(messages):
        assert message["role"] in ("user", "assistant"), f"messages[{index}].role"
        if index:
            assert message["role"] != messages[index - 1]["role"], f"messages[{index}] repeats"
        previous_calls = _check_message(message, previous_calls, f"messages[{index}]")
    assert not previous_calls, f"calls {previous_calls} are never answered"
    for block in payload.get("system", []):
        assert "text" not in block or block["text"].strip(), "blank system text"
    _check_tool_config(payload)
    _check_inference(payload.get("inferenceConfig", {}))


def _check_message(message: Mapping[str, Any], calls: list[str], path: str) -> list[str]:
    blocks = message["content"]
    assert blocks, f"{path} is empty"
    members = [next(iter(block)) for block in blocks]
    results = [b["toolResult"]["toolUseId"] for b in blocks if "toolResult" in b]
    assert members[: len(results)] == ["toolResult"] * len(results), f"{path}: results first"
    assert sorted(results) == sorted(calls), f"{path} answers {results}, not {calls}"
    for block in blocks:
        _check_block(block, message["role"], path)
    if "document" in members:
        assert "text" in members, f"{path}: a document needs a text block beside it"
    return [b["toolUse"]["toolUseId"] for b in blocks if "toolUse" in b]


def _check_block(block: Mapping[str, Any], role: str, path: str) -> None:
    member, value = next(iter(block.items()))
    if member == "text":
        assert value.strip(), f"{path}: blank text"
    if member in MEDIA:
        assert role == "user", f"{path}: {member} in an assistant turn"
    if member == "toolUse":
        assert role == "assistant", f"{path}: toolUse in a user turn"
        assert TOOL_ID.fullmatch(value["toolUseId"]) and TOOL_NAME.fullmatch(value["name"])
        assert isinstance(value["input"], dict), f"{path}: tool input is not an object"
    if member == "toolResult":
        assert role == "user", f"{path}: toolResult in an assistant turn"
        assert value.get("status") in (None, "success", "error")
        for inner in value["content"]:
            _check_media(inner)
    _check_media(block)


def _check_media(block: Mapping[str, Any]) -> None:
    if "image" in block:
        assert block["image"]["format"] in ("png", "jpeg", "gif", "webp")
    if "document" in block:
        document = block["document"]
        assert DOCUMENT_NAME.fullmatch(document["name"]), document["name"]
        assert document.get("format", "pdf") in (
            *("pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"),
        )
    if "text" in block and isinstance(block["text"], str):
        assert block["text"].strip(), "blank text"


def _check_tool_config(payload: Mapping[str, Any]) -> None:
    has_tool_blocks = any(
        {"toolUse", "toolResult"} & block.keys()
        for message in payload["messages"]
        for block in message["content"]
    )
    config = payload.get("toolConfig")
    assert config is not None or not has_tool_blocks, "tool blocks without toolConfig"
    if config is None:
        return
    names = []
    for tool in config["tools"]:
        if "toolSpec" in tool:
            names.append(tool["toolSpec"]["name"])
            assert TOOL_NAME.fullmatch(names[-1]), names[-1]
    choice = config.get("toolChoice")
    if choice is not None and "tool" in choice:
        assert choice["tool"]["name"] in names, "toolChoice names no tool"


def _check_inference(config: Mapping[str, Any]) -> None:
    for name in ("temperature", "topP"):
        if name in config:
            assert 0 <= config[name] <= 1, f"{name} out of range"
    if "maxTokens" in config:
        assert config["maxTokens"] >= 1
