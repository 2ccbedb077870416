"""Reading GenAI span attributes (or a bare message list) into a UMF conversation.

``gen_ai.system_instructions`` is a leading system message (``$field``), the input
messages follow, the output messages (one per choice) come last (``$field: output``),
each with its normalised ``finish_reason``. ``gen_ai.request.*`` become parameters (when
their JSON type is the one UMF writes back), ``gen_ai.usage.*`` the usage of the last
output message, ``gen_ai.response.model`` the output messages' model,
``gen_ai.response.id`` the provider response id. Every other attribute stays verbatim;
an attribute given as a JSON string (as on spans) keeps its text (``$raw``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from providers.formats._archive import check_depth
from providers.formats._archive.values import read_tool
from providers.formats._archive.wiring import Assets
from providers.formats._kit.fields import (
    refuse_kept_name,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.paths import at
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    Block,
    Conversation,
    Message,
    Parameters,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
)

from ._constants import (
    ENCODED,
    FINISH_REASONS,
    FLOAT_PARAMETERS,
    FORMAT_ID,
    INPUT,
    INT_PARAMETERS,
    NS,
    OUTPUT,
    ROLES,
    SYSTEM,
    TOOLS,
    UNMAPPED,
    USAGE,
)
from ._parse_parts import parse_part, require_part


@dataclass
class State:
    """What reading one conversation's messages remembers from part to part."""

    drift: Drift
    pending: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


def is_gen_ai(value: JSON) -> bool:
    """Whether ``value`` is span attributes holding GenAI messages."""
    return isinstance(value, dict) and any(key in value for key in (SYSTEM, INPUT, OUTPUT))


def read(value: JSON, path: str, drift: Drift, assets: Assets | None = None) -> Conversation:
    """The conversation of one span, attributes object or message list (``path`` names it
    in errors; ``assets``: spans come in no zip, unused)."""
    if isinstance(value, list):
        messages = parse_messages(value, path or "payload", State(drift), output=False)
        extra = NS.extra({}, shape="messages", keys=[INPUT])
        return Conversation(messages=messages, extra=extra)
    span = require_mapping(value, path or "payload")
    shape, source = "attributes", span
    if not is_gen_ai(span) and isinstance(span.get("attributes"), dict):
        shape, source = "span", span["attributes"]
    if not is_gen_ai(source):
        raise FormatError(
            "not GenAI span attributes: expected gen_ai.input.messages, "
            "gen_ai.output.messages or gen_ai.system_instructions",
            field=at(path, INPUT),
        )
    attributes_path = at(path, "attributes") if shape == "span" else path
    conversation = parse_attributes(source, attributes_path, drift)
    own = conversation.extra.setdefault(FORMAT_ID, {})
    own["$shape"] = shape
    if shape == "span":
        own["$span"] = unknown_fields(span, ("attributes",), path=path)
    return conversation


def key(value: JSON) -> str | None:
    """The ``gen_ai.conversation.id`` of a span or attributes object, if any."""
    if not isinstance(value, dict):
        return None
    source = value if is_gen_ai(value) else value.get("attributes")
    found = source.get("gen_ai.conversation.id") if isinstance(source, dict) else None
    return found if isinstance(found, str) else None


def parse_attributes(attributes: dict[str, Any], path: str, drift: Drift) -> Conversation:
    """The conversation of one span's attributes (``path`` names them in errors)."""
    state = State(drift)
    raw: dict[str, str] = {}
    values = {key: _decoded(attributes, key, path, raw) for key in ENCODED if key in attributes}
    messages: list[Message] = []
    if SYSTEM in values:
        messages.append(_system(values[SYSTEM], at(path, SYSTEM), state))
    if INPUT in values:
        messages += parse_messages(values[INPUT], at(path, INPUT), state, output=False)
    outputs: list[Message] = []
    if OUTPUT in values:
        outputs = parse_messages(values[OUTPUT], at(path, OUTPUT), state, output=True)
    conversation = Conversation(messages=messages + outputs)
    if TOOLS in values:
        conversation.tools = _tools(values[TOOLS], at(path, TOOLS))
    rest = unknown_fields(attributes, ENCODED, path=path)
    _parameters(conversation, rest)
    _response(conversation, outputs, rest)
    keys = [key for key in ENCODED if key in attributes]
    conversation.extra = NS.extra(rest, raw=raw or None, keys=keys)
    return conversation


def _decoded(attributes: dict[str, Any], key: str, path: str, raw: dict[str, str]) -> JSON:
    value = attributes[key]
    if not isinstance(value, str):
        return value
    try:
        decoded = orjson.loads(value)
    except orjson.JSONDecodeError:
        raise FormatError("not valid JSON", field=at(path, key)) from None
    check_depth(decoded, at(path, key))
    raw[key] = value
    return decoded


def _system(raw: JSON, path: str, state: State) -> Message:
    blocks, unmapped = _parts(require_list(raw, path), path, state)
    return Message(role="system", content=blocks, extra=_message_extra({}, unmapped, "system"))


def parse_messages(raw: JSON, path: str, state: State, *, output: bool) -> list[Message]:
    """The messages of an input or output message list."""
    items = require_list(raw, path)
    return [_message(item, f"{path}[{i}]", state, output) for i, item in enumerate(items)]


def _message(raw: JSON, path: str, state: State, output: bool) -> Message:
    source = require_mapping(raw, path)
    refuse_kept_name(source, UNMAPPED, path)
    role = require_str(source.get("role"), f"{path}.role")
    parts = require_list(source.get("parts"), f"{path}.parts")
    blocks, unmapped = _parts(parts, f"{path}.parts", state)
    rest = unknown_fields(source, ("role", "parts", "name", "finish_reason"), path=path)
    message = Message(
        role=role if role in ROLES else "user",  # type: ignore[arg-type]
        content=blocks,
        extra=_message_extra(rest, unmapped, "output" if output else None),
    )
    if role not in ROLES:
        message.extra.setdefault(FORMAT_ID, {})["$role"] = role
    _name_and_finish(message, source, path)
    results = [block for block in blocks if isinstance(block, ToolResultBlock)]
    if message.role == "tool" and len(results) == 1:
        message.tool_call_id = results[0].tool_use_id
    return message


def _message_extra(rest: dict[str, Any], unmapped: list[Any], field: str | None) -> Any:
    if unmapped:
        rest[UNMAPPED] = unmapped
    return NS.extra(rest, field=field)


def _name_and_finish(message: Message, source: dict[str, Any], path: str) -> None:
    for key in ("name", "finish_reason"):
        if source.get(key) is None:
            if key in source:
                message.extra.setdefault(FORMAT_ID, {})[key] = None
            continue
        value = require_str(source[key], f"{path}.{key}")
        if key == "name":
            message.name = value
        else:
            message.provider_finish_reason = value
            message.finish_reason = FINISH_REASONS.get(value)


def _parts(parts: list[Any], path: str, state: State) -> tuple[list[Block], list[Any]]:
    blocks: list[Block] = []
    unmapped: list[Any] = []
    for index, raw in enumerate(parts):
        part_path = f"{path}[{index}]"
        part, kind = require_part(raw, part_path)
        block = parse_part(part, kind, part_path)
        if block is None:
            unmapped.append([index, part])
            continue
        if isinstance(block, ToolUseBlock):
            _call_id(block, part, part_path, state)
        elif isinstance(block, ToolResultBlock):
            _result_id(block, part, part_path, state)
        blocks.append(block)
    return blocks, unmapped


def _call_id(block: ToolUseBlock, part: dict[str, Any], path: str, state: State) -> None:
    if not block.id:
        block.id = f"call_{len(state.names)}"
        _made_up_id(block, part)
        report_synthesized(
            state.drift,
            "a tool_call without an id; one is made up so its response can pair with it",
            path,
            block.id,
        )
    state.pending.append(block.id)
    state.names[block.id] = block.name


def _result_id(block: ToolResultBlock, part: dict[str, Any], path: str, state: State) -> None:
    if not block.tool_use_id:
        block.tool_use_id = state.pending[0] if state.pending else f"call_unpaired_{path}"
        _made_up_id(block, part)
        report_synthesized(
            state.drift,
            "a tool_call_response without an id answers the oldest unanswered call",
            path,
            block.tool_use_id,
        )
    if block.tool_use_id in state.pending:
        state.pending.remove(block.tool_use_id)
    block.name = state.names.get(block.tool_use_id)


def _made_up_id(block: ToolUseBlock | ToolResultBlock, part: dict[str, Any]) -> None:
    # The made-up id is not written back ($id); an id the part gave as null or "" travels
    # verbatim in extra, as a null name does, so the part comes back with it as it was.
    own = block.extra.setdefault(FORMAT_ID, {})
    own["$id"] = "null" if "id" in part else "absent"
    if "id" in part:
        own["id"] = part["id"]


def _tools(raw: JSON, path: str) -> list[Tool]:
    tools = []
    for index, item in enumerate(require_list(raw, path)):
        tool = require_mapping(item, f"{path}[{index}]")
        name = require_str(tool.get("name"), f"{path}[{index}].name")
        tools.append(read_tool(tool, name, NS, f"{path}[{index}]"))
    return tools


def _parameters(conversation: Conversation, rest: dict[str, Any]) -> None:
    values: dict[str, Any] = {}
    # Only values UMF writes back with the same JSON type; the others stay verbatim.
    for key, name in FLOAT_PARAMETERS.items():
        if type(rest.get(key)) is float:
            values[name] = rest.pop(key)
    for key, name in INT_PARAMETERS.items():
        if type(rest.get(key)) is int:
            values[name] = rest.pop(key)
    if isinstance(rest.get("gen_ai.request.model"), str):
        values["model"] = rest.pop("gen_ai.request.model")
    stop = rest.get("gen_ai.request.stop_sequences")
    if isinstance(stop, list) and all(isinstance(item, str) for item in stop):
        values["stop"] = rest.pop("gen_ai.request.stop_sequences")
    conversation.parameters = Parameters(**values)


def _response(conversation: Conversation, outputs: list[Message], rest: dict[str, Any]) -> None:
    if isinstance(rest.get("gen_ai.response.id"), str):
        conversation.metadata.provider_response_id = rest.pop("gen_ai.response.id")
    if not outputs:
        return
    if isinstance(rest.get("gen_ai.response.model"), str):
        model = rest.pop("gen_ai.response.model")
        for message in outputs:
            message.model = model
    counts = {key: rest[key] for key in USAGE if key in rest}
    if counts and all(type(value) is int for value in counts.values()):
        for key in counts:
            rest.pop(key)
        usage = Usage(raw=counts, **{USAGE[key]: value for key, value in counts.items()})
        outputs[-1].usage = usage
