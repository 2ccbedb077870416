"""UMF JSON -> a conversation: a conversation object (``messages``, ``tools``,
``tool_choice``, ``parameters``, ``metadata``) or a bare list of messages in the shape of
seed 000's InternalMessage (``content`` a string or a list of blocks, tools in OpenAI's
``{"type": "function"}`` shape), validated once, here.

What the document spelled that a value's canonical dump would not write back (keys given
with their default value, at any depth; integers in float fields; timestamp strings) is
marked as hints (``$present``, ``$present_in``, ``$written``: :func:`mark`); :mod:`._render`
puts them back."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, get_args

from providers._umf_base import UMFModel
from providers._umf_walk import field_defaults as defaults_of
from providers._umf_walk import field_names, field_types
from providers.formats._kit.fields import (
    refuse_reserved_names,
    require_list,
    require_mapping,
    unknown_fields,
)
from providers.formats.base import FormatError, ParseResult
from providers.formats.unified._constants import CONVERSATION_KEYS, FORMAT_ID, MESSAGE_KEYS
from providers.formats.unified._rules import validate, written_as_read
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


_MISSING = object()
_REQUIRED = object()


@cache
def field_defaults(model: type[UMFModel]) -> dict[str, Any]:
    # Computed once per class (the values are only compared, never handed out); a
    # required field's stands for no value, equal to none.
    defaults = defaults_of(model)
    return {name: defaults.get(name, _REQUIRED) for name in field_names(model)}


@dataclass
class Spelled:
    """What a document spelled that a value's canonical dump does not write as it was."""

    # Its own keys that hold their default value (the canonical dump omits them).
    present: list[str] = field(default_factory=list)
    # The same below it, as dotted paths ("parameters.seed", "metadata.warnings.0.field").
    present_in: list[str] = field(default_factory=list)
    # Leaves written otherwise than the dump writes them, by dotted path: integers in float
    # fields, timestamp strings.
    written: dict[str, JSON] = field(default_factory=dict)


def mark(value: UMFModel, raw: dict[str, Any], where: str) -> Spelled:
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
    spelled = Spelled()
    _spell(value, raw, "", where, spelled)
    if spelled.present_in or spelled.written:
        own = getattr(value, "extra").setdefault(FORMAT_ID, {})  # noqa: B009
        if spelled.present_in:
            own["$present_in"] = spelled.present_in
        if spelled.written:
            own["$written"] = spelled.written
    return spelled


@cache
def _holding_values(model: type[UMFModel]) -> frozenset[str]:
    """The fields of ``model`` that can hold UMF values (the others hold plain JSON, which
    comes back as it was)."""
    return frozenset(
        name for name, annotation in field_types(model).items() if _holds_value(annotation)
    )


def _holds_value(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, UMFModel):
        return True
    return any(_holds_value(argument) for argument in get_args(annotation))


def _spell(value: UMFModel, raw: dict[str, Any], path: str, where: str, spelled: Spelled) -> None:
    defaults, holding = field_defaults(type(value)), _holding_values(type(value))
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
            spelled.written[path + key] = written_as_read(child, raw_child, f"{where}.{key}")


def _spell_below(child: Any, raw: Any, path: str, where: str, spelled: Spelled) -> None:
    if isinstance(child, UMFModel) and isinstance(raw, dict):
        if "extra" not in field_defaults(type(child)):
            _spell(child, raw, f"{path}.", where, spelled)
            return
        present = mark(child, raw, where).present
        if present:
            getattr(child, "extra").setdefault(FORMAT_ID, {})["$present"] = present  # noqa: B009
    elif isinstance(child, list) and isinstance(raw, list):
        for index, (item, raw_item) in enumerate(zip(child, raw, strict=False)):
            _spell_below(item, raw_item, f"{path}.{index}", f"{where}[{index}]", spelled)
