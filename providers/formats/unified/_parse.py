"""UMF JSON -> a conversation: a conversation object (``messages``, ``tools``,
``tool_choice``, ``parameters``, ``metadata``) or a bare list of messages in the shape of
seed 000's InternalMessage (``content`` a string or a list of blocks, tools in OpenAI's
``{"type": "function"}`` shape), validated once, here, with what it spelled kept as hints
(:mod:`._parse_spelled`)."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    refuse_reserved_names,
    require_list,
    require_mapping,
    unknown_fields,
)
from providers.formats.base import FormatError, ParseResult
from providers.formats.unified._constants import CONVERSATION_KEYS, FORMAT_ID, MESSAGE_KEYS
from providers.formats.unified._parse_spelled import mark
from providers.formats.unified._rules import validate
from providers.umf import BLOCK_TYPES, JSON, Conversation, Message, Tool


def parse(payload: JSON) -> list[ParseResult]:
    """Read a UMF conversation object or a bare list of UMF messages."""
    if isinstance(payload, list):
        messages = [_parse_message(m, f"payload[{i}]") for i, m in enumerate(payload)]
        conversation = Conversation(messages=messages, extra={FORMAT_ID: {"$shape": "messages"}})
        return [ParseResult(conversation, validated=True)]
    source = dict(require_mapping(payload, "payload"))
    unknown = {k: source.pop(k) for k in list(source) if k not in CONVERSATION_KEYS}
    if unknown:
        raise FormatError(
            f"unknown conversation keys: {', '.join(sorted(unknown))}", field="payload"
        )
    if "messages" not in source:
        # Every format names the messages of a conversation; none reads one without them.
        raise FormatError("a UMF conversation has messages", field="payload.messages")
    raw_messages = require_list(source.pop("messages"), "payload.messages")
    raw_tools = require_list(source.pop("tools", []), "payload.tools")
    conversation = validate(Conversation, source, "payload")
    conversation.messages = [
        _parse_message(m, f"payload.messages[{i}]") for i, m in enumerate(raw_messages)
    ]
    conversation.tools = [_parse_tool(t, f"payload.tools[{i}]") for i, t in enumerate(raw_tools)]
    present = mark(conversation, source, "payload").present
    if "tools" in payload and not raw_tools:
        present.append("tools")
    if present:
        conversation.extra.setdefault(FORMAT_ID, {})["$present"] = sorted(present)
    return [ParseResult(conversation, validated=True)]


def _parse_message(raw: JSON, path: str) -> Message:
    source = dict(require_mapping(raw, path))
    unknown = {k: source.pop(k) for k in list(source) if k not in MESSAGE_KEYS}
    refuse_reserved_names(unknown, path)
    hints: dict[str, Any] = {}
    if isinstance(source.get("content"), str):
        hints["$content"] = "string"
        source["content"] = [{"type": "text", "text": source["content"]}]
    if source.get("content") is None and "content" in source:
        hints["$content"] = "null"
        source["content"] = []
    blocks = source.get("content", [])
    for index, block in enumerate(require_list(blocks, f"{path}.content")):
        block_type = require_mapping(block, f"{path}.content[{index}]").get("type")
        if block_type not in BLOCK_TYPES:
            raise FormatError(
                f"unknown block type {block_type!r}; UMF blocks are {', '.join(BLOCK_TYPES)}",
                field=f"{path}.content[{index}].type",
            )
    message = validate(Message, source, path)
    present = mark(message, source, path).present
    if "content" in present and "$content" in hints:
        present.remove("content")
    if present:
        hints["$present"] = present
    if unknown or hints:
        message.extra.setdefault(FORMAT_ID, {}).update({**unknown, **hints})
    return message


def _parse_tool(raw: JSON, path: str) -> Tool:
    source = require_mapping(raw, path)
    if source.get("type") == "function" and isinstance(source.get("function"), dict):
        function = source["function"]
        tool = validate(Tool, function, f"{path}.function")
        outer = unknown_fields(source, ("type", "function"), path=path)
        present = mark(tool, function, f"{path}.function").present
        hints = {"$shape": "function", "$present": present} if present else {"$shape": "function"}
        tool.extra.setdefault(FORMAT_ID, {}).update({**outer, **hints})
        return tool
    tool = validate(Tool, source, path)
    present = mark(tool, source, path).present
    if present:
        tool.extra.setdefault(FORMAT_ID, {})["$present"] = present
    return tool
