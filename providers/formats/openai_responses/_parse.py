"""Payloads -> one conversation: a request body (``input`` as a string or an item list,
``instructions`` as a leading system message marked ``$instructions``), a bare item list,
a logged exchange ``{"request": ..., "response": ...}`` or a bare ``response`` object, in
the family's shapes (:mod:`providers.formats._chat_completions.shape`).

A ``response`` object's ``output`` items become the last assistant message.

The message gets the response ``id`` and ``model``, ``usage`` (the provider's object in
``usage.raw``) and a finish reason derived from ``status`` and ``incomplete_details`` (the
Responses API has none): completed with function or custom tool calls -> ``tool_calls``,
completed -> ``stop``, incomplete for ``max_output_tokens`` -> ``length``, for
``content_filter`` -> ``content_filter``, failed -> ``error``, cancelled -> ``cancelled``.
``provider_finish_reason`` keeps the raw value (the incomplete reason, else the status).
Every other response field (``object``, ``created_at``, ``status``, ``error``, the echoed
request settings...) is kept verbatim in the ``$response`` hint of that message.

Request-level fields: ``$int_parameters`` on the conversation lists float parameters written
as integers (``1``, not ``1.0``). Function tools keep ``strict`` and their other fields
verbatim; custom tools are marked ``$type: custom``; hosted tools (``web_search``,
``file_search``, ``mcp``...) have no UMF name and stay verbatim with their position in the
conversation's ``unmapped_tools`` field. A hosted-tool ``tool_choice`` stays verbatim as the
conversation's ``tool_choice`` field; ``allowed_tools`` becomes its mode, marked ``$type:
allowed_tools``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._chat_completions.completion import read_token_usage, timestamp
from providers.formats._chat_completions.parameters import integer, number, read_checked
from providers.formats._chat_completions.shape import (
    Readers,
    read_allowed_mode,
    read_choice_mode,
    read_shape,
)
from providers.formats._kit.fields import (
    require_bool,
    require_list,
    require_mapping,
    require_str,
    split,
    umf_checked,
)
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    JSON,
    Conversation,
    FinishReason,
    Message,
    Parameters,
    TextBlock,
    Tool,
    ToolChoice,
    ToolUseBlock,
)

from ._constants import NS, UNMAPPED_TOOLS
from ._parse_items import ItemReader
from ._parse_parts import plain

# --------------------------------------------------------------------------- request fields


_CHECKS: dict[str, Callable[[JSON, str], Any]] = {
    "model": require_str,
    "temperature": number,
    "top_p": number,
    "max_output_tokens": integer,
    "parallel_tool_calls": require_bool,
    "stream": require_bool,
    "user": require_str,
}
PARAMETER_KEYS = tuple(_CHECKS)
FLOATS = ("temperature", "top_p")


def parse_parameters(
    fields: dict[str, Any], base: str
) -> tuple[Parameters, dict[str, Any], dict[str, Any]]:
    """``(parameters, layout hints, fields kept verbatim)`` from a request's fields."""
    values, kept, ints = read_checked(fields, base, _CHECKS, FLOATS)
    if "max_output_tokens" in values:
        values["max_tokens"] = values.pop("max_output_tokens")
    return Parameters(**values), {"int_parameters": ints}, kept


def parse_tools(raw: JSON, path: str) -> tuple[list[Tool], list[dict[str, Any]]]:
    """``(function and custom tools, hosted tools kept verbatim with their positions)``."""
    tools: list[Tool] = []
    hosted: list[dict[str, Any]] = []
    for index, raw_tool in enumerate(require_list(raw, path)):
        tool_path = item(path, index)
        tool = plain(raw_tool, tool_path)
        kind = tool.get("type")
        if not isinstance(kind, str):
            raise FormatError("a tool needs a string type", field=at(tool_path, "type"))
        if kind in ("function", "custom"):
            tools.append(_parse_tool(tool, kind, tool_path))
        else:
            hosted.append({"at": index, "tool": tool})
    return tools, hosted


def _parse_tool(tool: dict[str, Any], kind: str, path: str) -> Tool:
    name = require_str(tool.get("name"), at(path, "name"))
    rest = {k: v for k, v in tool.items() if k not in ("type", "name", "description", "parameters")}
    values: dict[str, Any] = {}
    if tool.get("description") is not None:
        values["description"] = require_str(tool["description"], at(path, "description"))
    elif "description" in tool:
        rest["description"] = None
    if kind == "function" and tool.get("parameters") is not None:
        # JSON Schema's own "$" keywords ($defs, $ref) are data: no check for hint names.
        values["parameters"] = require_mapping(tool["parameters"], at(path, "parameters"))
    elif "parameters" in tool:
        rest["parameters"] = tool["parameters"]
    custom = "custom" if kind == "custom" else None
    return Tool(name=name, **values, extra=NS.extra(rest, type=custom))


def parse_tool_choice(raw: JSON, path: str) -> ToolChoice | None:
    """``tool_choice`` as UMF; None for a hosted-tool choice (kept verbatim by the caller)."""
    if isinstance(raw, str):
        return read_choice_mode(raw, path)
    choice = plain(raw, path)
    kind = choice.get("type")
    if kind in ("function", "custom"):
        name = require_str(choice.get("name"), at(path, "name"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "name")}
        custom = "custom" if kind == "custom" else None
        return ToolChoice(type="tool", name=name, extra=NS.extra(rest, type=custom))
    if kind == "allowed_tools":
        mode = read_allowed_mode(choice.get("mode"), at(path, "mode"))
        rest = {k: v for k, v in choice.items() if k not in ("type", "mode")}
        return ToolChoice(type=mode, extra=NS.extra(rest, type=kind))
    if not isinstance(kind, str):
        raise FormatError("a tool_choice object needs a string type", field=at(path, "type"))
    return None


# --------------------------------------------------------------------------- payloads


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation; :class:`FormatError` (with the field) for anything that is
    not a Responses request, item list, exchange or response."""
    with umf_checked():
        return [ParseResult(read_shape(payload, _READERS, ItemReader()))]


def _read_items(value: JSON, path: str, reader: ItemReader) -> list[Message]:
    return reader.read(value, path)


def _read_request(raw: JSON, base: str, reader: ItemReader) -> Conversation:
    request = plain(raw, base)
    mapped = ("input", "instructions", "tools", "tool_choice", *PARAMETER_KEYS)
    fields, rest = split(request, mapped, path=base)
    if "input" not in fields:
        raise FormatError("a request needs input", field=at(base, "input"))
    conversation = Conversation(messages=_read_input(fields["input"], at(base, "input"), reader))
    hints: dict[str, Any] = {"input": "string" if isinstance(fields["input"], str) else None}
    if "instructions" in fields:
        conversation.messages.insert(0, _instructions(fields["instructions"], base))
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools, hosted = parse_tools(fields["tools"], at(base, "tools"))
        if hosted:
            rest[UNMAPPED_TOOLS] = hosted
    if "tool_choice" in fields:
        conversation.tool_choice = parse_tool_choice(fields["tool_choice"], at(base, "tool_choice"))
        if conversation.tool_choice is None:  # a hosted tool: no UMF name, kept verbatim
            rest["tool_choice"] = fields["tool_choice"]
    conversation.parameters, parameter_hints, kept = parse_parameters(fields, base)
    conversation.extra = NS.extra({**rest, **kept}, **hints, **parameter_hints)
    return conversation


def _read_input(value: JSON, path: str, reader: ItemReader) -> list[Message]:
    if isinstance(value, str):
        return [
            Message(
                role="user", content=[TextBlock(text=value)], extra=NS.extra({}, content="string")
            )
        ]
    if not isinstance(value, list):
        raise FormatError("input must be a string or an array of items", field=path)
    return reader.read(value, path)


def _instructions(value: JSON, base: str) -> Message:
    if not isinstance(value, str):
        raise FormatError("instructions must be a string", field=at(base, "instructions"))
    return Message(
        role="system", content=[TextBlock(text=value)], extra=NS.extra({}, instructions=True)
    )


# --------------------------------------------------------------------------- responses


def is_response(payload: JSON) -> bool:
    """Whether ``payload`` looks like a ``response`` object."""
    return isinstance(payload, dict) and (
        payload.get("object") == "response" or isinstance(payload.get("output"), list)
    )


_INCOMPLETE: dict[str, FinishReason] = {
    "max_output_tokens": "length",
    "content_filter": "content_filter",
}
_STATUSES: dict[str, FinishReason] = {"failed": "error", "cancelled": "cancelled"}


def parse_response(raw: JSON, base: str, reader: ItemReader) -> Message:
    """The assistant message of a ``response`` object (``base`` is where it is)."""
    response = plain(raw, base)
    if "output" not in response:
        raise FormatError("a response needs output", field=at(base, "output"))
    message = reader.read_output(response["output"], at(base, "output"))
    fields, rest = split(response, ("id", "model", "usage"), handled=("output",), path=base)
    for key in ("id", "model"):
        if key in fields and not isinstance(fields[key], str):
            raise FormatError("expected a string", field=at(base, key))
    message.id, message.model = fields.get("id"), fields.get("model")
    if "usage" in fields:
        message.usage = read_token_usage(
            fields["usage"], at(base, "usage"), prompt="input_tokens", completion="output_tokens"
        )
    has_calls = any(isinstance(block, ToolUseBlock) for block in message.content)
    message.finish_reason, message.provider_finish_reason = _finish(rest, base, has_calls)
    message.timestamp = timestamp(rest.get("created_at"), whole=False)
    NS.add_hints(message.extra, response=rest)
    return message


def _finish(
    rest: dict[str, Any], base: str, has_calls: bool
) -> tuple[FinishReason | None, str | None]:
    status = rest.get("status")
    if status is None:
        return None, None
    if not isinstance(status, str):
        raise FormatError("expected a string", field=at(base, "status"))
    if status == "completed":
        return ("tool_calls" if has_calls else "stop"), status
    if status != "incomplete":
        return _STATUSES.get(status), status
    details = rest.get("incomplete_details")
    if details is not None and not isinstance(details, dict):
        raise FormatError("expected an object", field=at(base, "incomplete_details"))
    reason = details.get("reason") if details else None
    if not isinstance(reason, str):
        return None, status
    return _INCOMPLETE.get(reason), reason


_READERS = Readers(
    NS,
    _read_items,
    _read_request,
    parse_response,
    is_response,
    refusal="not an OpenAI Responses payload: expected input, output, or a request and a response",
    refusal_field="input",
    request_key="input",
    response_first=True,
)
