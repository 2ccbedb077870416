"""Validate GenAI span attributes against the OpenTelemetry semantic conventions.

The attribute names come from the ``opentelemetry-semantic-conventions`` package; the
message schemas (``gen_ai.input.messages``, ``gen_ai.output.messages``,
``gen_ai.system_instructions``, ``gen_ai.tool.definitions``) are the conventions' JSON
schemas as the reference (section 3.6) lists them, checked with ``jsonschema``: every part
allows extra properties, each known part type requires its own fields, output messages
require ``finish_reason``.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as attributes

_KNOWN_PARTS: dict[str, dict[str, Any]] = {
    "text": {"required": ["content"], "properties": {"content": {"type": "string"}}},
    "reasoning": {"required": ["content"], "properties": {"content": {"type": "string"}}},
    "tool_call": {
        "required": ["name"],
        "properties": {"name": {"type": "string"}, "id": {"type": ["string", "null"]}},
    },
    "tool_call_response": {
        "required": ["response"],
        "properties": {"id": {"type": ["string", "null"]}},
    },
    "server_tool_call": {"required": ["name", "server_tool_call"]},
    "server_tool_call_response": {"required": ["server_tool_call_response"]},
    "blob": {
        "required": ["modality", "content"],
        "properties": {"modality": {"type": "string"}, "content": {"type": "string"}},
    },
    "uri": {
        "required": ["modality", "uri"],
        "properties": {"modality": {"type": "string"}, "uri": {"type": "string"}},
    },
    "file": {
        "required": ["modality", "file_id"],
        "properties": {"modality": {"type": "string"}, "file_id": {"type": "string"}},
    },
}
PART = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"type": "string"}},
    "allOf": [
        {"if": {"properties": {"type": {"const": kind}}}, "then": schema}
        for kind, schema in _KNOWN_PARTS.items()
    ],
}
PARTS = {"type": "array", "items": PART}
MESSAGE = {
    "type": "object",
    "required": ["role", "parts"],
    "properties": {
        "role": {"type": "string"},
        "parts": PARTS,
        "name": {"type": ["string", "null"]},
    },
}
OUTPUT_MESSAGE = {**MESSAGE, "required": ["role", "parts", "finish_reason"]}
TOOL = {
    "type": "object",
    "required": ["type", "name"],
    "properties": {"type": {"const": "function"}, "name": {"type": "string"}},
}
SCHEMAS = {
    attributes.GEN_AI_INPUT_MESSAGES: {"type": "array", "items": MESSAGE},
    attributes.GEN_AI_OUTPUT_MESSAGES: {"type": "array", "items": OUTPUT_MESSAGE},
    attributes.GEN_AI_SYSTEM_INSTRUCTIONS: PARTS,
    attributes.GEN_AI_TOOL_DEFINITIONS: {"type": "array", "items": TOOL},
}
INTEGERS = (
    attributes.GEN_AI_USAGE_INPUT_TOKENS,
    attributes.GEN_AI_USAGE_OUTPUT_TOKENS,
    "gen_ai.usage.cache_read.input_tokens",
    "gen_ai.usage.cache_creation.input_tokens",
    "gen_ai.usage.reasoning.output_tokens",
    attributes.GEN_AI_REQUEST_MAX_TOKENS,
    attributes.GEN_AI_REQUEST_SEED,
)


def validate_otel_attributes(value: Any) -> None:
    """Raise unless ``value`` (span attributes, or a span holding them) follows the GenAI
    conventions. Message attributes may be JSON strings, as on spans."""
    attrs = (
        value["attributes"]
        if "attributes" in value and "gen_ai.input.messages" not in value
        else value
    )
    assert isinstance(attrs, dict)
    assert any(key in attrs for key in SCHEMAS), "no GenAI message attribute"
    for key, schema in SCHEMAS.items():
        if key in attrs:
            decoded = orjson.loads(attrs[key]) if isinstance(attrs[key], str) else attrs[key]
            jsonschema.validate(decoded, schema)
    for key in INTEGERS:
        if key in attrs:
            assert isinstance(attrs[key], int) and not isinstance(attrs[key], bool), key
    for key in (attributes.GEN_AI_REQUEST_TEMPERATURE, attributes.GEN_AI_REQUEST_TOP_P):
        if key in attrs:
            assert isinstance(attrs[key], float | int), key
    if attributes.GEN_AI_REQUEST_STOP_SEQUENCES in attrs:
        assert all(isinstance(s, str) for s in attrs[attributes.GEN_AI_REQUEST_STOP_SEQUENCES])


def validate_otel_messages(messages: Any) -> None:
    """Raise unless ``messages`` is a valid input message list."""
    jsonschema.validate(messages, SCHEMAS[attributes.GEN_AI_INPUT_MESSAGES])
