"""Writing a UMF conversation as GenAI span attributes.

A conversation read from this format comes back as it was (attributes given as JSON
strings come back as the same text when their value is unchanged). Any other gives
``gen_ai.input.messages`` (every message of the thread but a final answer),
``gen_ai.output.messages`` (the last assistant message when it has a finish reason or
usage; one with usage alone gets the finish reason the conventions require, synthesized),
``gen_ai.tool.definitions``, ``gen_ai.request.*`` and ``gen_ai.usage.*``, with the
warnings listed in the package docstring.
"""

from __future__ import annotations

from typing import Any

import orjson

from providers.formats._archive.foreign import report_request
from providers.formats._archive.values import tool_object
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import report_developer, report_message_metadata
from providers.formats._kit.wire import wire_finish_reason
from providers.formats.base import Rendered
from providers.umf import Conversation, Message, Tool

from ._constants import (
    ENCODED,
    FLOAT_PARAMETERS,
    INPUT,
    INT_PARAMETERS,
    NS,
    OUTPUT,
    SYSTEM,
    TOOLS,
    UNMAPPED,
    USAGE,
    WIRE_FINISH,
    WORDS,
)
from ._render_parts import render_parts
from ._rules import finish_reason, split_thread

_PARAMETERS = {**FLOAT_PARAMETERS, **INT_PARAMETERS}
_NO_MESSAGE_METADATA = (
    "GenAI messages have no ids, timestamps, models, finish reasons, usage or metadata but "
    "the output's response id, model, finish reason and usage; left out"
)


def render_entry(conversation: Conversation) -> Rendered:
    """One span's worth: attributes, a span or a message list, as the conversation was
    read (attributes for other formats' conversations)."""
    shape = NS.hint(conversation.extra, "shape")
    faithful = shape in ("attributes", "span", "messages")
    ctx = Context.create(NS, WORDS.label, faithful=faithful)
    attributes = render_attributes(conversation, ctx)
    payload: Any = attributes
    if shape == "span":
        payload = {**NS.hint(conversation.extra, "span", {}), "attributes": attributes}
    elif shape == "messages":
        payload = attributes.get(INPUT, [])
    return Rendered(payload, ctx.drift.warnings)


def render_attributes(conversation: Conversation, ctx: Context) -> dict[str, Any]:
    """The span attributes for ``conversation``."""
    groups = split_thread(conversation, ctx)
    if not ctx.faithful:
        _report_metadata(groups, ctx)
    present = _present(conversation, groups, ctx)
    out: dict[str, Any] = {}
    if SYSTEM in present and groups["system"]:
        index, message = groups["system"][0]
        out[SYSTEM] = render_parts(message, index, ctx)
    if INPUT in present:
        out[INPUT] = [_message(m, i, ctx, output=False) for i, m in groups["input"]]
    if OUTPUT in present:
        out[OUTPUT] = [_message(m, i, ctx, output=True) for i, m in groups["output"]]
    if TOOLS in present:
        out[TOOLS] = [_tool(tool, index, ctx) for index, tool in enumerate(conversation.tools)]
    _request(conversation, out, ctx)
    _response(conversation, [m for _, m in groups["output"]], out, ctx)
    _encode(conversation, out)
    for key, value in NS.fields(conversation.extra).items():
        out.setdefault(key, value)
    return out


def _report_metadata(groups: dict[str, list[tuple[int, Message]]], ctx: Context) -> None:
    """One note for the messages' facts a span has no place for: all of an input
    message's, an output's timestamp and metadata (its id, model, finish reason and usage
    are the response's)."""
    response = {"id": None, "model": None, "finish_reason": None, "usage": None}
    outputs = [(index, m.model_copy(update=response)) for index, m in groups["output"]]
    report_message_metadata([*groups["input"], *outputs], ctx.drift, _NO_MESSAGE_METADATA)


def _present(
    conversation: Conversation, groups: dict[str, list[tuple[int, Message]]], ctx: Context
) -> set[str]:
    """The message attributes to write: those that were read, or those with something in
    them (the input messages always)."""
    if ctx.faithful:
        return set(NS.hint(conversation.extra, "keys", []))
    present = {INPUT}
    if groups["output"]:
        present.add(OUTPUT)
    if conversation.tools:
        present.add(TOOLS)
    return present


def _message(message: Message, index: int, ctx: Context, *, output: bool) -> dict[str, Any]:
    path = f"messages[{index}]"
    if not ctx.faithful:
        WORDS.foreign(message.extra, path, ctx.drift)
    kept_role = NS.hint(message.extra, "role")
    role = kept_role if kept_role is not None else message.role  # "" is a role too
    if role == "developer" and not ctx.faithful:
        report_developer(
            path, ctx.drift, "GenAI messages have no developer role; written as system"
        )
        role = "system"
    out: dict[str, Any] = {"role": role, "parts": render_parts(message, index, ctx)}
    if message.name is not None:
        out["name"] = message.name
    if ctx.faithful:
        reason = wire_finish_reason(message, WIRE_FINISH, keep_unknown=True)
    elif output:
        reason = finish_reason(message, path, ctx)
    else:
        reason = None
    if reason is not None:
        out["finish_reason"] = reason
    return {**out, **{k: v for k, v in NS.fields(message.extra).items() if k != UNMAPPED}}


def _tool(tool: Tool, index: int, ctx: Context) -> dict[str, Any]:
    if not ctx.faithful:
        WORDS.foreign(tool.extra, f"tools[{index}]", ctx.drift)
    return tool_object(tool, NS, {} if ctx.faithful else {"type": "function"})


def _request(conversation: Conversation, out: dict[str, Any], ctx: Context) -> None:
    parameters = conversation.parameters
    if parameters.model is not None:
        out["gen_ai.request.model"] = parameters.model
    for key, name in _PARAMETERS.items():
        if getattr(parameters, name) is not None:
            out[key] = getattr(parameters, name)
    if parameters.stop is not None:
        out["gen_ai.request.stop_sequences"] = parameters.stop
    if ctx.faithful:
        return
    unsupported = {
        name: getattr(parameters, name)
        for name in ("user", "parallel_tool_calls", "stream", "custom")
        if getattr(parameters, name) not in (None, {})
    }
    report_request(conversation, ctx.drift, WORDS, parameters=unsupported, tools=False)


def _response(
    conversation: Conversation, outputs: list[Message], out: dict[str, Any], ctx: Context
) -> None:
    if conversation.metadata.provider_response_id is not None:
        out["gen_ai.response.id"] = conversation.metadata.provider_response_id
    elif not ctx.faithful and outputs and outputs[-1].id is not None:
        # Another format's answer keeps the response's id as its own (Anthropic's msg_...).
        out["gen_ai.response.id"] = outputs[-1].id
    if not outputs:
        return
    if outputs[0].model is not None:
        out["gen_ai.response.model"] = outputs[0].model
    usage = outputs[-1].usage
    if usage is not None:
        names = {name: key for key, name in USAGE.items()}
        for name, key in names.items():
            if getattr(usage, name) is not None:
                out[key] = getattr(usage, name)
    if not ctx.faithful:
        reasons = [m["finish_reason"] for m in out[OUTPUT] if "finish_reason" in m]
        if reasons:
            out["gen_ai.response.finish_reasons"] = reasons


def _encode(conversation: Conversation, out: dict[str, Any]) -> None:
    # Attributes read as JSON strings go back as strings: the same text when unchanged.
    raw = NS.hint(conversation.extra, "raw") or {}
    for key in ENCODED:
        if key in raw and key in out:
            text = raw[key]
            out[key] = text if orjson.loads(text) == out[key] else orjson.dumps(out[key]).decode()
