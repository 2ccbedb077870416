"""A strict validator for Appam ``UnifiedMessage`` JSON, written from seed 003 (no SDK in
Python exists) and the serde attributes of Appam's ``llm::unified`` module.

serde writes exactly the declared fields, so every model is closed (``extra="forbid"``):
``UnifiedRole`` in lowercase; ``UnifiedContentBlock`` tagged by ``type`` in snake_case;
``ImageSource`` ``base64`` / ``url``; ``DocumentSource`` ``base64_pdf`` / ``url_pdf`` /
``text``; ``Thinking`` with ``thinking``, optional ``signature`` and ``redacted`` (a bool,
default false); ``Option`` fields may be null. Timestamps are RFC 3339 with an offset
(chrono's ``DateTime<Utc>``); ``reasoning_details`` are OpenRouter's ``ReasoningDetail``
(``reasoning.summary`` / ``reasoning.encrypted`` / ``reasoning.text``). The exchange
envelope adds ``UnifiedUsage`` and ``StopReason``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Serde(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Base64Image(_Serde):
    type: Literal["base64"]
    media_type: str
    data: str


class UrlImage(_Serde):
    type: Literal["url"]
    url: str


class Base64Pdf(_Serde):
    type: Literal["base64_pdf"]
    media_type: str
    data: str


class UrlPdf(_Serde):
    type: Literal["url_pdf"]
    url: str


class TextDocument(_Serde):
    type: Literal["text"]
    media_type: str
    data: str


class Text(_Serde):
    type: Literal["text"]
    text: str


class Image(_Serde):
    type: Literal["image"]
    source: Annotated[Base64Image | UrlImage, Field(discriminator="type")]
    detail: str | None = None


class Document(_Serde):
    type: Literal["document"]
    source: Annotated[Base64Pdf | UrlPdf | TextDocument, Field(discriminator="type")]
    title: str | None = None


class ToolUse(_Serde):
    type: Literal["tool_use"]
    id: str
    name: str
    input: Any


class ToolResult(_Serde):
    type: Literal["tool_result"]
    tool_use_id: str
    content: Any
    is_error: bool | None = None


class Thinking(_Serde):
    type: Literal["thinking"]
    thinking: str
    signature: str | None = None
    redacted: bool = False


UnifiedContentBlock = Annotated[
    Text | Image | Document | ToolUse | ToolResult | Thinking, Field(discriminator="type")
]
ReasoningFormat = Literal[
    "unknown", "openai-responses-v1", "xai-responses-v1", "anthropic-claude-v1"
]


class _Detail(_Serde):
    id: str | None = None
    format: ReasoningFormat = "anthropic-claude-v1"
    index: int | None = None


class SummaryDetail(_Detail):
    type: Literal["reasoning.summary"]
    summary: str


class EncryptedDetail(_Detail):
    type: Literal["reasoning.encrypted"]
    data: str


class TextDetail(_Detail):
    type: Literal["reasoning.text"]
    text: str
    signature: str | None = None


ReasoningDetail = Annotated[
    SummaryDetail | EncryptedDetail | TextDetail, Field(discriminator="type")
]


class UnifiedMessage(_Serde):
    role: Literal["system", "user", "assistant"]
    content: list[UnifiedContentBlock]
    id: str | None = None
    timestamp: str | None = None
    reasoning: str | None = None
    reasoning_details: list[ReasoningDetail] | None = None

    @field_validator("timestamp")
    @classmethod
    def _rfc3339(cls, value: str | None) -> str | None:
        if value is not None and datetime.fromisoformat(value).tzinfo is None:
            raise ValueError("a DateTime<Utc> has an offset")
        return value


class UnifiedUsage(_Serde):
    input_tokens: Annotated[int, Field(ge=0)]
    output_tokens: Annotated[int, Field(ge=0)]
    cache_creation_input_tokens: Annotated[int, Field(ge=0)] | None = None
    cache_read_input_tokens: Annotated[int, Field(ge=0)] | None = None
    reasoning_tokens: Annotated[int, Field(ge=0)] | None = None


class Exchange(_Serde):
    request: list[UnifiedMessage]
    response: UnifiedMessage
    usage: UnifiedUsage | None = None
    stop_reason: (
        Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"]
        | None
    ) = None
    model: str | None = None


def validate_payload(payload: Any) -> None:
    """Raise unless ``payload`` is an array of UnifiedMessage, one UnifiedMessage, or an
    exchange of them."""
    if isinstance(payload, list):
        for message in payload:
            UnifiedMessage.model_validate(message)
    elif isinstance(payload, dict) and "request" in payload:
        Exchange.model_validate(payload)
    else:
        UnifiedMessage.model_validate(payload)
