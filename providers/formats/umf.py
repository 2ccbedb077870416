"""``umf``: the Unified Message Format itself, as JSON.

Accepts a conversation object (``messages``, ``tools``, ``tool_choice``, ``parameters``,
``metadata``) or a bare list of messages in the shape of seed 000's InternalMessage
(``content`` a string or a list of blocks, tools in OpenAI's ``{"type": "function"}`` shape).
Output is the canonical dump (defaults omitted) plus whatever the input spelled out: keys
given with their default value at any depth, integers in float fields, string content,
OpenAI-shaped tools and timestamp strings come back as they came in. A value lax validation
would read as another type (``"5"`` or ``false`` as an integer) is refused naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, TypeVar, get_args

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
from providers.umf import BLOCK_TYPES, JSON, Conversation, Message, Tool, ToolResultBlock

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


@dataclass
class _Spelled:
    """What a document spelled that a value's canonical dump does not write as it was."""

    # Its own keys that hold their default value (the canonical dump omits them).
    present: list[str] = field(default_factory=list)
    # The same below it, as dotted paths ("parameters.seed", "metadata.warnings.0.field").
    present_in: list[str] = field(default_factory=list)
    # Leaves written otherwise than the dump writes them, by dotted path: integers in float
    # fields, timestamp strings.
    written: dict[str, JSON] = field(default_factory=dict)


def _mark(value: BaseModel, raw: dict[str, Any], where: str) -> _Spelled:
    """What ``raw``, the document of ``value``, spelled that the canonical dump would not
    write back, at every level below ``value`` down to the next value with an ``extra`` of
    its own (a block, a tool choice), which keeps its own; the nested part is put in
    ``value``'s extra, the caller keeps ``present`` (beside its other hints)."""
    extra = raw.get("extra")
    if isinstance(extra, dict) and FORMAT_ID in extra:
        # The format's own namespace holds its hints: a document's would take their place.
        raise FormatError(
            f"extra.{FORMAT_ID} is where the umf format keeps its hints",
            field=f"{where}.extra.{FORMAT_ID}",
        )
    spelled = _Spelled()
    _spell(value, raw, "", where, spelled)
    if spelled.present_in or spelled.written:
        own = getattr(value, "extra").setdefault(FORMAT_ID, {})  # noqa: B009
        if spelled.present_in:
            own["$present_in"] = spelled.present_in
        if spelled.written:
            own["$written"] = spelled.written
    return spelled


@cache
def _holding_values(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` that can hold UMF values (the others hold plain JSON, which
    comes back as it was)."""
    return frozenset(
        name for name, info in model.model_fields.items() if _holds_value(info.annotation)
    )


def _holds_value(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_value(argument) for argument in get_args(annotation))


def _spell(value: BaseModel, raw: dict[str, Any], path: str, where: str, spelled: _Spelled) -> None:
    defaults, holding = _defaults(type(value)), _holding_values(type(value))
    for key, raw_child in raw.items():
        default = defaults.get(key, _MISSING)
        if default is _MISSING:
            continue  # the type tag, always written
        child = getattr(value, key)
        if child == default:
            (spelled.present_in if path else spelled.present).append(path + key)
        if isinstance(raw_child, dict | list):
            if key in holding:
                _spell_below(child, raw_child, f"{path}{key}", f"{where}.{key}", spelled)
        elif type(child) is not type(raw_child):
            spelled.written[path + key] = _written(child, raw_child, f"{where}.{key}")


def _spell_below(child: Any, raw: Any, path: str, where: str, spelled: _Spelled) -> None:
    if isinstance(child, BaseModel) and isinstance(raw, dict):
        if "extra" not in _defaults(type(child)):
            _spell(child, raw, f"{path}.", where, spelled)
            return
        present = _mark(child, raw, where).present
        if present:
            getattr(child, "extra").setdefault(FORMAT_ID, {})["$present"] = present  # noqa: B009
    elif isinstance(child, list) and isinstance(raw, list):
        for index, (item, raw_item) in enumerate(zip(child, raw, strict=False)):
            _spell_below(item, raw_item, f"{path}.{index}", f"{where}[{index}]", spelled)


def _written(value: Any, raw: JSON, where: str) -> JSON:
    """``raw``, a leaf the model holds as ``value`` of another type, if it can be written
    back as it was (an integer in a float field, a timestamp string); else a FormatError:
    lax validation read it (``"5"`` or ``false`` as an integer, ``0`` as a timestamp), but it
    would come back as something else."""
    if isinstance(value, float) and type(raw) is int and value == raw and int(value) == raw:
        return raw
    if isinstance(value, datetime) and isinstance(raw, str):
        return raw
    expected = "a timestamp string" if isinstance(value, datetime) else type(value).__name__
    raise FormatError(f"expected {expected}, got {type(raw).__name__}", field=where)


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
    message = _validate(Message, source, path)
    present = _mark(message, source, path).present
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
        present = _mark(tool, function, f"{path}.function").present
        hints = {"$shape": "function", "$present": present} if present else {"$shape": "function"}
        tool.extra.setdefault(FORMAT_ID, {}).update({**outer, **hints})
        return tool
    tool = _validate(Tool, source, path)
    present = _mark(tool, source, path).present
    if present:
        tool.extra.setdefault(FORMAT_ID, {})["$present"] = present
    return tool


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
    if "messages" not in source:
        # Every format names the messages of a conversation; none reads one without them.
        raise FormatError("a UMF conversation has messages", field="payload.messages")
    raw_messages = require_list(source.pop("messages"), "payload.messages")
    raw_tools = require_list(source.pop("tools", []), "payload.tools")
    conversation = _validate(Conversation, source, "payload")
    conversation.messages = [
        _parse_message(m, f"payload.messages[{i}]") for i, m in enumerate(raw_messages)
    ]
    conversation.tools = [_parse_tool(t, f"payload.tools[{i}]") for i, t in enumerate(raw_tools)]
    present = _mark(conversation, source, "payload").present
    if "tools" in payload and not raw_tools:
        present.append("tools")
    if present:
        conversation.extra.setdefault(FORMAT_ID, {})["$present"] = sorted(present)
    return [ParseResult(conversation)]


_SPELLED_HINTS = ("$present", "$present_in", "$written")


def _put_back(value: BaseModel, out: dict[str, Any], own: dict[str, Any]) -> None:
    """Write into ``out``, ``value``'s canonical dump, what its document spelled otherwise
    (:class:`_Spelled`, kept as ``$present``, ``$present_in`` and ``$written``)."""
    for key in own.get("$present", ()):
        out.setdefault(key, _dump_default(value, key))
    # In document order: an object that held only defaults is put back before its keys.
    for path in own.get("$present_in", ()):
        parent, key = path.rsplit(".", 1)
        target, inner = _at(value, out, parent)
        if isinstance(target, BaseModel) and isinstance(inner, dict):
            inner.setdefault(key, _dump_default(target, key))
    for path, written in own.get("$written", {}).items():
        parent, _, key = path.rpartition(".")
        target, inner = _at(value, out, parent) if parent else (value, out)
        if isinstance(inner, dict) and key in inner:
            inner[key] = written


def _at(value: Any, out: Any, path: str) -> tuple[Any, Any]:
    """The value at a dotted ``path`` below ``value`` and its part of ``out`` (None, None
    where ``out`` has nothing there: the value was changed since it was read)."""
    for step in path.split("."):
        if isinstance(value, list) and isinstance(out, list):
            index = int(step)
            if index >= len(out) or index >= len(value):
                return None, None
            value, out = value[index], out[index]
        elif isinstance(out, dict) and step in out:
            value, out = getattr(value, step), out[step]
        else:
            return None, None
    return value, out


def _restore(value: BaseModel, out: dict[str, Any]) -> None:
    """``out``, the canonical dump of ``value`` (a block or a tool choice), as its document
    spelled it: without the format's hints in ``extra``, with the defaults it spelled out,
    for it and the blocks inside it."""
    extra = out.get("extra")
    if extra is not None and FORMAT_ID in extra:
        own = extra.pop(FORMAT_ID)
        if not extra:
            del out["extra"]
        _put_back(value, out, own)
    _restore_blocks(value, out)


def _restore_blocks(value: BaseModel, out: dict[str, Any]) -> None:
    """:func:`_restore` the blocks of a message's or tool result's ``content``."""
    blocks_out = out.get("content")
    if not isinstance(blocks_out, list) or not isinstance(value, Message | ToolResultBlock):
        return
    assert isinstance(value.content, list)  # as its dump is
    for block, block_out in zip(value.content, blocks_out, strict=True):
        _restore(block, block_out)


def _render_message(message: Message) -> dict[str, Any]:
    own = dict(message.extra.get(FORMAT_ID, {}))
    out = message.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    _restore_blocks(message, out)
    _put_back(message, out, own)
    for name in _SPELLED_HINTS:
        own.pop(name, None)
    content_hint = own.pop("$content", None)
    if content_hint == "string" and len(message.content) == 1 and out.get("content"):
        block = out["content"][0]
        if block.get("type") == "text" and set(block) == {"type", "text"}:
            out["content"] = block["text"]
    elif content_hint == "null" and not message.content:
        out["content"] = None
    # Conversations read before $written keep their timestamp string here.
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
    if key == "extra":
        return {name: fields for name, fields in value.items() if name != FORMAT_ID}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_defaults=True)
    return value


def _render_tool(tool: Tool) -> dict[str, Any]:
    own = dict(tool.extra.get(FORMAT_ID, {}))
    body = tool.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    _put_back(tool, body, own)
    for name in _SPELLED_HINTS:
        own.pop(name, None)
    other_extra = {k: v for k, v in tool.extra.items() if k != FORMAT_ID}
    if other_extra:
        body["extra"] = other_extra
    if own.pop("$shape", None) == "function":
        return {"type": "function", "function": body, **own}
    return body


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as UMF JSON (nothing is ever lost: UMF holds everything)."""
    messages = [_render_message(m) for m in conversation.messages]
    if hint(conversation.extra, FORMAT_ID, "shape") == "messages":
        return Rendered(messages)
    out = conversation.model_dump(
        mode="json", exclude_defaults=True, exclude={"messages", "tools", "extra"}
    )
    own = conversation.extra.get(FORMAT_ID, {})
    present = own.get("$present", [])
    _put_back(
        conversation,
        out,
        {**own, "$present": [key for key in present if key not in ("messages", "tools")]},
    )
    if conversation.tool_choice is not None and isinstance(out.get("tool_choice"), dict):
        _restore(conversation.tool_choice, out["tool_choice"])
    out["messages"] = messages
    if conversation.tools or "tools" in present:
        out["tools"] = [_render_tool(t) for t in conversation.tools]
    own_extra = {k: v for k, v in conversation.extra.items() if k != FORMAT_ID}
    if own_extra:
        out["extra"] = own_extra
    return Rendered(out)


# Message keys that only UMF documents use (seed 000's InternalMessage has ``metadata``).
_UMF_ONLY_MESSAGE_KEYS = {
    "hidden",
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
            hidden_context=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
    )
)
