"""Tool calls as the chat-completions APIs spell them:
``{"id", "type": "function", "function": {"name", "arguments"}}``, the arguments a JSON
string (or, where the API takes one, an object: the ``$arguments: object`` hint).

Where the provider's fields go: the call's unknown fields stay on the tool-use block, the
function's under ``$inner``; ``$type: absent`` marks a call sent without ``type``.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_mapping, require_str, split
from providers.formats._kit.paths import at
from providers.formats._kit.wire import arguments_string, parse_arguments
from providers.formats.base import FormatError
from providers.umf import JSON, ToolUseBlock

from .blocks import ParseState


def read_call(
    raw: JSON, path: str, state: ParseState, ns: Namespace, *, object_arguments: bool = False
) -> ToolUseBlock:
    """One tool call; its name is remembered by id in ``state`` for the results.
    ``object_arguments``: the API also takes the arguments as an object."""
    call = require_mapping(raw, path)
    call_id = require_str(call.get("id"), at(path, "id"))
    if call.get("type", "function") != "function":
        raise FormatError("tool call type must be function", field=at(path, "type"))
    function_path = at(path, "function")
    function = require_mapping(call.get("function"), function_path)
    name = require_str(function.get("name"), at(function_path, "name"))
    arguments = function.get("arguments")
    if object_arguments and isinstance(arguments, dict):
        value, raw_arguments, form = arguments, None, "object"
    else:
        raw_arguments = require_str(arguments, at(function_path, "arguments"))
        (value, _), form = parse_arguments(raw_arguments), None
    state.call_names[call_id] = name
    _, inner = split(function, (), handled=("name", "arguments"), path=function_path)
    _, outer = split(call, (), handled=("id", "type", "function"), path=path)
    type_hint = "absent" if "type" not in call else None
    return ToolUseBlock(
        id=call_id,
        name=name,
        input=value,
        raw_arguments=raw_arguments,
        extra=ns.extra(outer, inner=inner or None, type=type_hint, arguments=form),
    )


def write_call(block: ToolUseBlock, call_id: str, ctx: RenderContext) -> dict[str, Any]:
    """A tool call with the id the request uses, written back as it was read."""
    ns = ctx.ns
    arguments: Any = arguments_string(block.input, block.raw_arguments)
    object_form = block.raw_arguments is None and ns.hint(block.extra, "arguments") == "object"
    if ctx.faithful and object_form:
        arguments = block.input
    function = ns.put({"name": block.name, "arguments": arguments}, block.extra, "inner")
    call: dict[str, Any] = {"id": call_id, "type": "function", "function": function}
    if ctx.faithful and ns.hint(block.extra, "type") == "absent":
        del call["type"]
    return ns.put(call, block.extra)
