"""Tool calls as the chat-completions APIs spell them:
``{"id", "type": "function", "function": {"name", "arguments"}}``, the arguments a JSON
string (or, where the API takes one, an object: the ``$arguments: object`` hint), and
OpenAI's custom (free-text) calls ``{"id", "type": "custom", "custom": {"name", "input"}}``
(``$type: custom``).

Where the provider's fields go: the call's unknown fields stay on the tool-use block, the
function's under ``$inner``; ``$type: absent`` marks a call sent without ``type``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_mapping, require_str, unknown_fields
from providers.formats._kit.paths import at
from providers.formats._kit.wire import arguments_string, dump_arguments, parse_arguments
from providers.formats.base import FormatError
from providers.umf import JSON, ToolUseBlock


def call_reader(
    ns: Namespace, kinds: tuple[str, ...] = ("function",), *, object_arguments: bool = False
) -> Callable[[JSON, str, dict[str, str]], ToolUseBlock]:
    """The reader of one tool call of one of the ``kinds`` (``function``, ``custom``), which
    remembers the call's name by id in the ``call_names`` it is given, for the results.
    ``object_arguments``: the API also takes the arguments as an object. Built once per
    format, so that reading a call costs no call more than its checks."""

    def read_call(raw: JSON, path: str, call_names: dict[str, str]) -> ToolUseBlock:
        # Every call of a conversation passes here: each value's type is checked in line,
        # and the kit's require_* (which words the error) is called only for one that fails.
        call = raw if type(raw) is dict else require_mapping(raw, path)
        call_id = call.get("id")
        if type(call_id) is not str:
            call_id = require_str(call_id, path, "id")
        kind = call.get("type", "function")
        if kind not in kinds:
            raise FormatError(
                f"tool call type must be {' or '.join(kinds)}", field=at(path, "type")
            )
        inner = call.get(kind)
        if type(inner) is not dict:
            inner = require_mapping(inner, path, kind)
        name = inner.get("name")
        if type(name) is not str:
            name = require_str(name, path, f"{kind}.name")
        argument_key = "input" if kind == "custom" else "arguments"
        raw_arguments = inner.get(argument_key)
        form = None
        if object_arguments and isinstance(raw_arguments, dict):
            value, raw_arguments, form = raw_arguments, None, "object"
        else:
            if type(raw_arguments) is not str:
                raw_arguments = require_str(raw_arguments, path, f"{kind}.{argument_key}")
            custom = kind == "custom"
            value = (
                parse_custom_input(raw_arguments) if custom else parse_arguments(raw_arguments)[0]
            )
        call_names[call_id] = name
        # A call holds its id, its type and its function (name and arguments): anything
        # more is kept verbatim, looked for only when there is more (None, not an empty
        # dict, when there is none: two dicts fewer to make and free for each call).
        rest = (
            unknown_fields(inner, ("name", argument_key), path=at(path, kind))
            if len(inner) > 2
            else None
        )
        known = 3 if "type" in call else 2
        outer = unknown_fields(call, ("id", "type", kind), path=path) if len(call) > known else None
        type_hint = "absent" if "type" not in call else "custom" if kind == "custom" else None
        return ToolUseBlock(
            id=call_id,
            name=name,
            input=value,
            raw_arguments=raw_arguments,
            extra=ns.extra(outer or {}, inner=rest or None, type=type_hint, arguments=form)
            if outer or rest or type_hint or form
            else {},
        )

    return read_call


def parse_custom_input(text: str) -> JSON:
    """The ``input`` of a custom tool call: the object it spells, else ``{}`` (the text
    itself travels as ``raw_arguments``)."""
    value, ok = parse_arguments(text)
    return value if ok and isinstance(value, dict) else {}


def write_call(block: ToolUseBlock, call_id: str, ctx: RenderContext) -> dict[str, Any]:
    """A tool call with the id the request uses, written back as it was read."""
    ns = ctx.ns
    kind = ns.hint(block.extra, "type")
    call: dict[str, Any] = {"id": call_id}
    if kind == "custom":
        raw = block.raw_arguments
        text = raw if raw is not None else dump_arguments(block.input)
        custom = ns.put({"name": block.name, "input": text}, block.extra, "inner")
        call.update(type="custom", custom=custom)
    else:
        arguments: Any = arguments_string(block.input, block.raw_arguments)
        object_form = block.raw_arguments is None and ns.hint(block.extra, "arguments") == "object"
        if ctx.faithful and object_form:
            arguments = block.input
        function = ns.put({"name": block.name, "arguments": arguments}, block.extra, "inner")
        call.update(type="function", function=function)
    if ctx.faithful and kind == "absent":
        del call["type"]
    return ns.put(call, block.extra)
