"""A strict validator for ai.matey IR payloads, written from seed 001's TypeScript types.

There is no SDK to check against, so these pydantic models mirror the seed's interfaces
(``IRChatRequest``, ``IRMessage``, ``MessageContent``, ``IRTool``, ``IRParameters``,
``IRMetadata``, ``IRProvenance``, ``IRWarning``, ``IRChatResponse``, ``IRUsage`` and the six
``IRStreamChunk`` variants): every interface is closed (``extra="forbid"``), types are
strict (no "5" for 5), optional fields (``?:``) may be absent but not null unless their type
is ``unknown``, and the parameter ranges of the seed's table are enforced.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal["system", "user", "assistant", "tool"]
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error", "cancelled"]
WarningCategory = Literal[
    "parameter-normalized",
    "parameter-clamped",
    "parameter-unsupported",
    "capability-unsupported",
    "token-limit-exceeded",
    "stop-sequences-truncated",
    "system-message-transformed",
    "content-type-unsupported",
    "tool-unsupported",
    "model-substituted",
]
JSONSchemaType = Literal["string", "number", "integer", "boolean", "object", "array", "null"]
Number = int | float


class _Interface(BaseModel):
    """A TypeScript interface: closed, strict, optional fields absent rather than null."""

    model_config = ConfigDict(extra="forbid", strict=True)
    nullable: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _no_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key, value in data.items():
                if value is None and key not in cls.nullable:
                    raise ValueError(f"{key} is optional, not nullable")
        return data


class TextContent(_Interface):
    type: Literal["text"]
    text: str


class UrlSource(_Interface):
    type: Literal["url"]
    url: str


class Base64Source(_Interface):
    type: Literal["base64"]
    mediaType: str
    data: str


class ImageContent(_Interface):
    type: Literal["image"]
    source: Annotated[UrlSource | Base64Source, Field(discriminator="type")]


class ToolUseContent(_Interface):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


class ToolResultContent(_Interface):
    type: Literal["tool_result"]
    toolUseId: str
    content: str | list[TextContent]
    isError: bool | None = None


MessageContent = Annotated[
    TextContent | ImageContent | ToolUseContent | ToolResultContent, Field(discriminator="type")
]


class IRMessage(_Interface):
    role: Role
    content: str | list[MessageContent]
    name: str | None = None
    metadata: dict[str, Any] | None = None


class JSONSchema(BaseModel):
    """The seed's JSONSchema: its own keys typed, other JSON Schema keywords allowed."""

    model_config = ConfigDict(extra="allow", strict=True)

    type: JSONSchemaType | list[JSONSchemaType] | None = None
    description: str | None = None
    enum: list[Any] | None = None
    properties: dict[str, JSONSchema] | None = None
    required: list[str] | None = None
    items: JSONSchema | None = None
    additionalProperties: bool | JSONSchema | None = None
    minimum: Number | None = None
    maximum: Number | None = None
    minLength: int | None = None
    maxLength: int | None = None
    pattern: str | None = None
    format: str | None = None
    examples: list[Any] | None = None


class IRTool(_Interface):
    name: str
    description: str
    parameters: JSONSchema
    metadata: dict[str, Any] | None = None


class ToolChoiceName(_Interface):
    name: str


class IRParameters(_Interface):
    model: str | None = None
    temperature: Annotated[Number, Field(ge=0, le=2)] | None = None
    maxTokens: Annotated[int, Field(ge=1)] | None = None
    topP: Annotated[Number, Field(ge=0, le=1)] | None = None
    topK: Annotated[int, Field(ge=1)] | None = None
    frequencyPenalty: Annotated[Number, Field(ge=-2, le=2)] | None = None
    presencePenalty: Annotated[Number, Field(ge=-2, le=2)] | None = None
    stopSequences: list[str] | None = None
    seed: int | None = None
    user: str | None = None
    custom: dict[str, Any] | None = None


class IRProvenance(_Interface):
    frontend: str | None = None
    backend: str | None = None
    middleware: list[str] | None = None
    router: str | None = None


class IRWarning(_Interface):
    nullable = frozenset({"originalValue", "transformedValue"})  # typed unknown

    category: WarningCategory
    severity: Literal["info", "warning", "error"]
    message: str
    field: str | None = None
    originalValue: Any = None
    transformedValue: Any = None
    source: str | None = None
    details: dict[str, Any] | None = None


class IRMetadata(_Interface):
    requestId: str
    providerResponseId: str | None = None
    timestamp: Number
    provenance: IRProvenance | None = None
    warnings: list[IRWarning] | None = None
    custom: dict[str, Any] | None = None


class IRChatRequest(_Interface):
    messages: Annotated[list[IRMessage], Field(min_length=1)]
    tools: list[IRTool] | None = None
    toolChoice: Literal["auto", "required", "none"] | ToolChoiceName | None = None
    parameters: IRParameters | None = None
    metadata: IRMetadata
    stream: bool | None = None
    streamMode: Literal["delta", "accumulated"] | None = None


class IRUsage(_Interface):
    promptTokens: Number
    completionTokens: Number
    totalTokens: Number
    details: dict[str, Any] | None = None


class IRChatResponse(_Interface):
    message: IRMessage
    finishReason: FinishReason
    usage: IRUsage | None = None
    metadata: IRMetadata
    raw: dict[str, Any] | None = None


class PartialUsage(_Interface):
    promptTokens: Number | None = None
    completionTokens: Number | None = None
    totalTokens: Number | None = None
    details: dict[str, Any] | None = None


class PartialMetadata(_Interface):
    requestId: str | None = None
    providerResponseId: str | None = None
    timestamp: Number | None = None
    provenance: IRProvenance | None = None
    warnings: list[IRWarning] | None = None
    custom: dict[str, Any] | None = None


class StreamStartChunk(_Interface):
    type: Literal["start"]
    sequence: int
    metadata: IRMetadata


class StreamContentChunk(_Interface):
    type: Literal["content"]
    sequence: int
    delta: str
    accumulated: str | None = None
    role: Literal["assistant"] | None = None


class StreamToolUseChunk(_Interface):
    type: Literal["tool_use"]
    sequence: int
    id: str
    name: str
    inputDelta: str | None = None


class StreamMetadataChunk(_Interface):
    type: Literal["metadata"]
    sequence: int
    usage: PartialUsage | None = None
    metadata: PartialMetadata | None = None


class StreamDoneChunk(_Interface):
    type: Literal["done"]
    sequence: int
    finishReason: FinishReason
    usage: IRUsage | None = None
    message: IRMessage | None = None


class StreamError(_Interface):
    code: str
    message: str
    details: dict[str, Any] | None = None


class StreamErrorChunk(_Interface):
    type: Literal["error"]
    sequence: int
    error: StreamError


IRStreamChunk = Annotated[
    StreamStartChunk
    | StreamContentChunk
    | StreamToolUseChunk
    | StreamMetadataChunk
    | StreamDoneChunk
    | StreamErrorChunk,
    Field(discriminator="type"),
]


class _Stream(BaseModel):
    chunks: Annotated[list[IRStreamChunk], Field(min_length=1)]


def validate_request(payload: Any) -> IRChatRequest:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is an ``IRChatRequest``."""
    return IRChatRequest.model_validate(payload)


def validate_response(payload: Any) -> IRChatResponse:
    """Raise unless ``payload`` is an ``IRChatResponse``."""
    return IRChatResponse.model_validate(payload)


def validate_stream(payload: Any) -> list[Any]:
    """Raise unless ``payload`` is an array of ``IRStreamChunk``; also assert the stream's
    own rules: sequences count up from 0, a start chunk first, nothing after done/error."""
    chunks = _Stream.model_validate({"chunks": payload}).chunks
    assert [chunk.sequence for chunk in chunks] == list(range(len(chunks))), "sequence gaps"
    assert chunks[0].type == "start", "a stream starts with a start chunk"
    ends = [i for i, chunk in enumerate(chunks) if chunk.type in ("done", "error")]
    assert ends in ([], [len(chunks) - 1]), "done/error ends the stream"
    return chunks


def validate_messages(payload: Any) -> list[IRMessage]:
    """Raise unless ``payload`` is an array of ``IRMessage``."""
    return [IRMessage.model_validate(message) for message in payload]


def validate_payload(payload: Any) -> None:
    """Validate any IR payload shape this archive reads (request, response, stream,
    message array, or an exchange ``{"request", "response"}``)."""
    if isinstance(payload, list):
        if payload and all(isinstance(entry, dict) and "role" in entry for entry in payload):
            validate_messages(payload)
        else:
            validate_stream(payload)
    elif "request" in payload:
        validate_request(payload["request"])
        response = payload["response"]
        validate_stream(response) if isinstance(response, list) else validate_response(response)
    elif "message" in payload:
        validate_response(payload)
    else:
        validate_request(payload)


def check_tool_pairing(payload: Any) -> None:
    """Assert that every tool result answers a call made before it (the IR's types cannot
    say so)."""
    messages = payload["messages"] if isinstance(payload, dict) else payload
    calls: set[str] = set()
    for message in messages:
        content = message["content"]
        for block in content if isinstance(content, list) else []:
            if block["type"] == "tool_use":
                calls.add(block["id"])
            elif block["type"] == "tool_result":
                assert block["toolUseId"] in calls, f"result for unknown call {block['toolUseId']}"
