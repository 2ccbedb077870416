"""A strict validator for ART prompts, written from seed 004's ``ArtStandardMessage``
interface and ART's own zod schema (``src/types/schemas.ts``), which is ``.strict()``.

Types: ``role`` one of ``ArtStandardMessageRole``; ``content`` a string, an object or null
(required, even when null); optional ``name``, ``tool_call_id`` and ``tool_calls`` (absent
rather than null); each call ``{"id", "type": "function", "function": {"name",
"arguments"}}``. The zod refinements: tool results carry ``tool_call_id``; assistant
content is a string or null; user and system content is a string. Seed 004 adds that
``arguments`` is a stringified JSON object (checked by :func:`check_art_rules`).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

Role = Literal["system", "user", "assistant", "tool_request", "tool_result", "tool"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Function(_Strict):
    name: str
    arguments: str


class ToolCall(_Strict):
    id: str
    type: Literal["function"]
    function: Function


class ArtStandardMessage(_Strict):
    role: Role
    content: str | dict[str, Any] | None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _optional_not_null(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if "content" not in data:
                raise ValueError("content is required (null when empty)")
            for key in ("name", "tool_calls", "tool_call_id"):
                if key in data and data[key] is None:
                    raise ValueError(f"{key} is optional, not nullable")
        return data

    @model_validator(mode="after")
    def _by_role(self) -> ArtStandardMessage:
        if self.role in ("tool", "tool_result") and not self.tool_call_id:
            raise ValueError("a tool result needs tool_call_id")
        if self.role == "assistant" and not isinstance(self.content, str | None):
            raise ValueError("assistant content is a string or null")
        if self.role in ("user", "system") and not isinstance(self.content, str):
            raise ValueError("user and system content is a string")
        return self


def validate_payload(payload: Any) -> list[ArtStandardMessage]:
    """Raise unless ``payload`` is an ArtStandardPrompt, one message, or an exchange
    ``{"request": [...], "response": {...}}``; the messages, in order."""
    if isinstance(payload, list):
        return [ArtStandardMessage.model_validate(message) for message in payload]
    if isinstance(payload, dict) and "request" in payload:
        messages = [ArtStandardMessage.model_validate(m) for m in payload["request"]]
        return [*messages, ArtStandardMessage.model_validate(payload["response"])]
    return [ArtStandardMessage.model_validate(payload)]


def check_art_rules(messages: list[ArtStandardMessage]) -> None:
    """Assert what the types cannot say: arguments are JSON objects, and every result
    answers a call made before it."""
    calls: set[str] = set()
    for message in messages:
        for call in message.tool_calls or []:
            assert isinstance(json.loads(call.function.arguments), dict), call.function.arguments
            calls.add(call.id)
        if message.role in ("tool", "tool_result"):
            assert message.tool_call_id in calls, f"result for unknown call {message.tool_call_id}"
