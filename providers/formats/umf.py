"""``umf``: the Unified Message Format itself, as JSON.

Accepts a conversation object (``messages``, ``tools``, ``tool_choice``, ``parameters``,
``metadata``) or a bare list of messages in the shape of seed 000's InternalMessage
(``content`` a string or a list of blocks, tools in OpenAI's ``{"type": "function"}`` shape).
Output is the canonical dump (defaults omitted) plus whatever the input spelled out: keys
given with their default value, string content, OpenAI-shaped tools and timestamp strings
come back as they came in.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from providers.formats import register
from providers.formats._common import (
    hint,
    refuse_reserved_names,
    require_list,
    require_mapping,
    unknown_fields,
)
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import BLOCK_TYPES, JSON, Conversation, Message, Tool

FORMAT_ID = "umf"
ModelT = TypeVar("ModelT", bound=BaseModel)
_MESSAGE_KEYS = set(Message.model_fields)
_CONVERSATION_KEYS = set(Conversation.model_fields)


@cache
def _defaults(model: type[BaseModel]) -> dict[str, Any]:
    # Computed once per class: pydantic's get_default inspects the factory each call.
    return {
        name: info.get_default(call_default_factory=True)
        for name, info in model.model_fields.items()
        if name != "type"
    }


_MISSING = object()


def _present_defaults(model: BaseModel, source: dict[str, Any]) -> list[str]:
    """Keys the source spelled out although they hold the field's default value."""
    defaults = _defaults(type(model))
    return [key for key, value in source.items() if defaults.get(key, _MISSING) == value]


def _parse_message(raw: JSON, path: str) -> Message:
    source = dict(require_mapping(raw, path))
    unknown = {k: source.pop(k) for k in list(source) if k not in _MESSAGE_KEYS}
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
    if isinstance(source.get("timestamp"), str):
        hints["$timestamp"] = source["timestamp"]
    message = _validate(Message, source, path)
    for block, raw_block in zip(message.content, blocks, strict=True):
        block_present = _present_defaults(block, raw_block)
        if block_present:
            block.extra.setdefault(FORMAT_ID, {})["$present"] = block_present
    present = _present_defaults(message, source)
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
        tool = _validate(Tool, function, f"{path}.function")
        outer = unknown_fields(source, ("type", "function"), path=path)
        tool.extra.setdefault(FORMAT_ID, {}).update({**outer, "$shape": "function"})
        return tool
    return _validate(Tool, source, path)


def _validate(model: type[ModelT], data: dict[str, Any], path: str) -> ModelT:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        location = ".".join(str(part) for part in first["loc"])
        field = f"{path}.{location}" if location else path
        raise FormatError(first["msg"], field=field) from None


def parse(payload: JSON) -> list[ParseResult]:
    """Read a UMF conversation object or a bare list of UMF messages."""
    if isinstance(payload, list):
        messages = [_parse_message(m, f"payload[{i}]") for i, m in enumerate(payload)]
        conversation = Conversation(messages=messages, extra={FORMAT_ID: {"$shape": "messages"}})
        return [ParseResult(conversation)]
    source = dict(require_mapping(payload, "payload"))
    unknown = {k: source.pop(k) for k in list(source) if k not in _CONVERSATION_KEYS}
    if unknown:
        raise FormatError(
            f"unknown conversation keys: {', '.join(sorted(unknown))}", field="payload"
        )
    raw_messages = require_list(source.pop("messages", []), "payload.messages")
    raw_tools = require_list(source.pop("tools", []), "payload.tools")
    conversation = _validate(Conversation, source, "payload")
    conversation.messages = [
        _parse_message(m, f"payload.messages[{i}]") for i, m in enumerate(raw_messages)
    ]
    conversation.tools = [_parse_tool(t, f"payload.tools[{i}]") for i, t in enumerate(raw_tools)]
    present = _present_defaults(conversation, source)
    if "tools" in payload and not raw_tools:
        present.append("tools")
    if present:
        conversation.extra.setdefault(FORMAT_ID, {})["$present"] = sorted(set(present))
    return [ParseResult(conversation)]


def _render_block(block: BaseModel, out: dict[str, Any]) -> None:
    extra = out.pop("extra", {})
    own = extra.pop(FORMAT_ID, {})
    for key in own.get("$present", []):
        out.setdefault(key, _dump_default(block, key))
    if extra:
        out["extra"] = extra


def _render_message(message: Message) -> dict[str, Any]:
    own = dict(message.extra.get(FORMAT_ID, {}))
    out = message.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    for block, block_out in zip(message.content, out.get("content", []), strict=True):
        _render_block(block, block_out)
    for key in own.pop("$present", []):
        out.setdefault(key, _dump_default(message, key))
    content_hint = own.pop("$content", None)
    if content_hint == "string" and len(message.content) == 1 and out.get("content"):
        block = out["content"][0]
        if block.get("type") == "text" and set(block) == {"type", "text"}:
            out["content"] = block["text"]
    elif content_hint == "null" and not message.content:
        out["content"] = None
    timestamp = own.pop("$timestamp", None)
    if timestamp is not None and message.timestamp is not None:
        out["timestamp"] = timestamp
    other_extra = {k: v for k, v in message.extra.items() if k != FORMAT_ID}
    if other_extra:
        out["extra"] = other_extra
    out.update(own)
    return out


def _dump_default(model: BaseModel, key: str) -> JSON:
    value = getattr(model, key)
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _render_tool(tool: Tool) -> dict[str, Any]:
    own = dict(tool.extra.get(FORMAT_ID, {}))
    body = tool.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    other_extra = {k: v for k, v in tool.extra.items() if k != FORMAT_ID}
    if own.pop("$shape", None) == "function":
        if other_extra:
            body["extra"] = other_extra
        return {"type": "function", "function": body, **own}
    if other_extra or own:
        body["extra"] = tool.extra
    return body


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as UMF JSON (nothing is ever lost: UMF holds everything)."""
    messages = [_render_message(m) for m in conversation.messages]
    if hint(conversation.extra, FORMAT_ID, "shape") == "messages":
        return Rendered(messages)
    out = conversation.model_dump(
        mode="json", exclude_defaults=True, exclude={"messages", "tools", "extra"}
    )
    for key in hint(conversation.extra, FORMAT_ID, "present", []):
        if key not in ("messages", "tools"):
            out.setdefault(key, _dump_default(conversation, key))
    out["messages"] = messages
    if conversation.tools or "tools" in hint(conversation.extra, FORMAT_ID, "present", []):
        out["tools"] = [_render_tool(t) for t in conversation.tools]
    own_extra = {k: v for k, v in conversation.extra.items() if k != FORMAT_ID}
    if own_extra:
        out["extra"] = own_extra
    return Rendered(out)


# Message keys that only UMF documents use (seed 000's InternalMessage has ``metadata``).
_UMF_ONLY_MESSAGE_KEYS = {
    "metadata",
    "parent_id",
    "reasoning",
    "reasoning_details",
    "timestamp",
    "finish_reason",
    "provider_finish_reason",
    "usage",
    "extra",
}


def _umf_only_block(block: JSON) -> bool:
    # tool_use / tool_result look the same in Anthropic's format; these do not.
    if not isinstance(block, dict):
        return False
    return block.get("type") == "refusal" or (block.get("type") == "thinking" and "text" in block)


def detect(payload: JSON) -> int:
    """UMF conversations have ``messages`` with UMF's own block names or message keys, and
    read as UMF (other formats share some key names: Appam's ``reasoning``, ai.matey's
    ``metadata``)."""
    score = _marks(payload)
    if score == 2:
        try:
            parse(payload)
        except FormatError:
            return 0
    return score


def _marks(payload: JSON) -> int:
    messages = payload.get("messages") if isinstance(payload, dict) else payload
    if not isinstance(messages, list) or not messages:
        return 0
    if isinstance(payload, dict) and set(payload) - _CONVERSATION_KEYS:
        return 0
    score = 1
    for message in messages:
        if not isinstance(message, dict) or set(message) - _MESSAGE_KEYS:
            return 0
        content = message.get("content")
        if message.keys() & _UMF_ONLY_MESSAGE_KEYS:
            score = 2
        if isinstance(content, list) and any(_umf_only_block(block) for block in content):
            score = 2
        if message.get("role") == "tool" and isinstance(content, list):
            score = 2
    if isinstance(payload, dict) and (
        "metadata" in payload or isinstance(payload.get("tool_choice"), dict)
    ):
        score = 2
    return score


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="UMF (Unified Message Format) JSON",
        capabilities=Capabilities(
            roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
            blocks=frozenset(BLOCK_TYPES),
            tools=True,
            tool_choice=True,
            parameters=frozenset(
                {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
                | {"frequency_penalty", "presence_penalty", "user", "parallel_tool_calls"}
            ),
            reasoning_signatures=True,
            usage=True,
            tree=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
    )
)
