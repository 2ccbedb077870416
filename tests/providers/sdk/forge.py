"""A strict validator for Forge messages, written from seed 002 (no SDK exists).

``message.Message`` is ``{Role string, Content string}``: JSON objects with exactly
``role`` and ``content`` (or Go's default ``Role`` / ``Content``), roles system, user,
assistant and tool. Beyond the types, :func:`check_forge_text` checks the text conventions
with the standard library's own XML and JSON parsers (not the format's reader): every
``<tool>`` block of an assistant message is well-formed Forge XML naming a tool (or the
deprecated JSON object with ``tool_name`` and ``arguments``), and every tool message
starts with ``Tool: <name>``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RoleName = Literal["system", "user", "assistant", "tool"]
_TOOL_BLOCK = re.compile(r"<tool>(.*?)</tool>", re.S)


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    role: RoleName
    content: str


class GoMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    # Go's field names, as encoding/json writes an untagged struct.
    Role: RoleName
    Content: str


class Exchange(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)

    request: list[Message | GoMessage]
    response: Message | GoMessage = Field()


def _message(raw: Any) -> Message:
    if isinstance(raw, dict) and "Role" in raw:
        go = GoMessage.model_validate(raw)
        return Message(role=go.Role, content=go.Content)
    return Message.model_validate(raw)


def validate_payload(payload: Any) -> list[Message]:
    """Raise unless ``payload`` is an array of Forge messages, one message, or an exchange
    of them; the messages, in order."""
    if isinstance(payload, list):
        messages = [_message(raw) for raw in payload]
    elif isinstance(payload, dict) and "request" in payload:
        Exchange.model_validate(payload)
        messages = [*map(_message, payload["request"]), _message(payload["response"])]
        assert messages[-1].role == "assistant", "an exchange answers with the assistant"
    else:
        messages = [_message(payload)]
    for message in messages:
        check_forge_text(message)
    return messages


def check_forge_text(message: Message) -> None:
    """Assert the text conventions of one message (see the module docstring)."""
    if message.role == "tool":
        assert re.match(r"Tool: [^\n]+(\n|$)", message.content), "a tool message names its tool"
    if message.role != "assistant":
        return
    for inner in _TOOL_BLOCK.findall(message.content):
        if inner.strip().startswith("{"):
            call = json.loads(inner)
            assert isinstance(call.get("tool_name"), str) and "arguments" in call
            continue
        root = ElementTree.fromstring(f"<tool>{inner}</tool>")
        tags = [child.tag for child in root]
        assert "tool_name" in tags, "a Forge call names its tool"
        assert set(tags) <= {"server_name", "tool_name", "arguments"}, tags
