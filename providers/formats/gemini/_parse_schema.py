"""Function parameter schemas: Gemini's OpenAPI subset (``parameters``) and JSON Schema
(``parametersJsonSchema``, and what UMF holds).

Reading, an OpenAPI schema becomes JSON Schema by lower-casing its type names (``STRING``
-> ``string``), the only spelling difference other formats would choke on; the original
travels in a hint. Writing, a JSON Schema that fits the OpenAPI subset goes to
``parameters`` (what every Gemini model and Vertex take), any other to
``parametersJsonSchema``.
"""

from __future__ import annotations

from typing import Any

from providers.umf import JSON

# Keywords of Gemini's Schema object (the OpenAPI 3.0 subset of the Gemini API).
_OPENAPI_KEYWORDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    }
)
_OPENAPI_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})


def to_json_schema(schema: JSON) -> JSON:
    """An OpenAPI schema with JSON Schema's lower-case type names (recursively)."""
    if isinstance(schema, list):
        return [to_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            converted[key] = value.lower()
        elif key == "properties" and isinstance(value, dict):
            converted[key] = {name: to_json_schema(sub) for name, sub in value.items()}
        elif key in ("items", "anyOf"):
            converted[key] = to_json_schema(value)
        else:
            converted[key] = value
    return converted


def fits_openapi(schema: JSON) -> bool:
    """Whether a JSON Schema says nothing that Gemini's OpenAPI subset cannot: only its
    keywords, one type name per node, string enums, objects with named properties."""
    if not isinstance(schema, dict) or not _OPENAPI_KEYWORDS.issuperset(schema):
        return False
    kind = schema.get("type")
    if kind is not None and (not isinstance(kind, str) or kind not in _OPENAPI_TYPES):
        return False
    enum = schema.get("enum")
    if enum is not None and not (isinstance(enum, list) and all(isinstance(v, str) for v in enum)):
        return False
    properties = schema.get("properties")
    if kind == "object" and not properties:
        return False  # "properties: should be non-empty for OBJECT type"
    if properties is not None and not (
        isinstance(properties, dict) and all(fits_openapi(sub) for sub in properties.values())
    ):
        return False
    if "items" in schema and not fits_openapi(schema["items"]):
        return False
    any_of = schema.get("anyOf")
    if any_of is not None and not (isinstance(any_of, list) and all(map(fits_openapi, any_of))):
        return False
    required = schema.get("required")
    return required is None or (
        isinstance(required, list) and all(isinstance(name, str) for name in required)
    )


def takes_no_arguments(schema: JSON) -> bool:
    """An object schema with no properties: Gemini wants no ``parameters`` at all then."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or schema.get("properties"):
        return False
    return set(schema) <= {"type", "properties", "required", "additionalProperties", "$schema"}
