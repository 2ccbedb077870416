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

from dataclasses import dataclass
from typing import Any

import orjson

from providers.formats._archive import put_back, report_foreign_fields
from providers.formats._common import own_extra, report_message_metadata, wire_finish_reason
from providers.formats.base import Drift
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    main_path,
)

from ._parse import (
    ENCODED,
    FLOAT_PARAMETERS,
    INPUT,
    INT_PARAMETERS,
    OUTPUT,
    SYSTEM,
    TOOLS,
    UNMAPPED,
    USAGE,
)
from ._parts import (
    FORMAT_ID,
    fields_of,
    get_hint,
    render_call,
    render_media,
    render_response,
    response_value,
)

_WIRE_FINISH = {"tool_calls": "tool_call", "cancelled": "error"}
_PARAMETERS = {**FLOAT_PARAMETERS, **INT_PARAMETERS}
_NO_MESSAGE_METADATA = (
    "GenAI messages have no ids, timestamps, models, finish reasons, usage or metadata but "
    "the output's response id, model, finish reason and usage; left out"
)


@dataclass
class Context:
    """What one render carries along: its warnings, and whether the conversation is
    written back as the payload it was read from."""

    drift: Drift
    faithful: bool


def render_attributes(conversation: Conversation, ctx: Context) -> dict[str, Any]:
    """The span attributes for ``conversation``."""
    groups = _groups(conversation, ctx)
    if not ctx.faithful:
        _report_metadata(groups, ctx)
    present = _present(conversation, groups, ctx)
    out: dict[str, Any] = {}
    if SYSTEM in present and groups["system"]:
        index, message = groups["system"][0]
        out[SYSTEM] = _parts(message, index, ctx)
    if INPUT in present:
        out[INPUT] = [_message(m, i, ctx, output=False) for i, m in groups["input"]]
    if OUTPUT in present:
        out[OUTPUT] = [_message(m, i, ctx, output=True) for i, m in groups["output"]]
    if TOOLS in present:
        out[TOOLS] = [_tool(tool, index, ctx) for index, tool in enumerate(conversation.tools)]
    _request(conversation, out, ctx)
    _response(conversation, [m for _, m in groups["output"]], out, ctx)
    _encode(conversation, out)
    for key, value in own_extra(conversation.extra, FORMAT_ID).items():
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
        return set(conversation.extra.get(FORMAT_ID, {}).get("$keys", []))
    present = {INPUT}
    if groups["output"]:
        present.add(OUTPUT)
    if conversation.tools:
        present.add(TOOLS)
    return present


def _groups(conversation: Conversation, ctx: Context) -> dict[str, list[tuple[int, Message]]]:
    groups: dict[str, list[tuple[int, Message]]] = {"system": [], "input": [], "output": []}
    thread = _thread(conversation, ctx)
    for index, message in thread:
        kind = get_hint(message, "field")
        if ctx.faithful and kind == "system":
            groups["system"].append((index, message))
        elif ctx.faithful and kind == "output":
            groups["output"].append((index, message))
        else:
            groups["input"].append((index, message))
    last = groups["input"][-1][1] if groups["input"] else None
    if not ctx.faithful and last is not None and _is_answer(last):
        groups["output"].append(groups["input"].pop())
    return groups


def _is_answer(message: Message) -> bool:
    # A response's message: what a span's output holds.
    finished = message.finish_reason or message.provider_finish_reason
    return message.role == "assistant" and bool(finished or message.usage is not None)


def _thread(conversation: Conversation, ctx: Context) -> list[tuple[int, Message]]:
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "a span holds one thread; this message is on another branch",
                field=f"messages[{index}]",
                original=message.id,
            )
    return [(positions[id(message)], message) for message in path]


def _message(message: Message, index: int, ctx: Context, *, output: bool) -> dict[str, Any]:
    path = f"messages[{index}]"
    if not ctx.faithful:
        report_foreign(message.extra, path, ctx.drift)
    kept_role = get_hint(message, "role")
    role = kept_role if kept_role is not None else message.role  # "" is a role too
    if role == "developer" and not ctx.faithful:
        ctx.drift.add(
            "system-message-transformed",
            "GenAI messages have no developer role; written as system",
            field=path,
            original="developer",
            transformed="system",
        )
        role = "system"
    out: dict[str, Any] = {"role": role, "parts": _parts(message, index, ctx)}
    if message.name is not None:
        out["name"] = message.name
    if ctx.faithful:
        reason = wire_finish_reason(message, _WIRE_FINISH, keep_unknown=True)
    elif output:
        reason = _finish_reason(message, path, ctx)
    else:
        reason = None
    if reason is not None:
        out["finish_reason"] = reason
    return {**out, **{k: v for k, v in fields_of(message).items() if k != UNMAPPED}}


def _finish_reason(message: Message, path: str, ctx: Context) -> str:
    """An output message's finish_reason, in the conventions' names: another provider's own
    value (Anthropic's ``end_turn``) is written as the reason it means (``stop``), and said;
    one that means nothing UMF knows is written as it is."""
    if message.finish_reason is None:
        if message.provider_finish_reason is not None:
            return message.provider_finish_reason
        return _synthesized_finish_reason(message, path, ctx)
    reason = _WIRE_FINISH.get(message.finish_reason, message.finish_reason)
    raw = message.provider_finish_reason
    if raw is not None and raw != reason:
        ctx.drift.add(
            "parameter-normalized",
            f"GenAI finish reasons are not the provider's own; {raw!r} is written as {reason!r}",
            field=f"{path}.finish_reason",
            original=raw,
            transformed=reason,
            severity="info",
        )
    return reason


def _synthesized_finish_reason(message: Message, path: str, ctx: Context) -> str:
    # An answer known by its usage alone still goes out as the span's output (its usage and
    # model are the response's), and the conventions require a finish_reason on every
    # output message: the one its content shows, tool_call when it makes calls, else stop.
    calls = any(isinstance(block, ToolUseBlock) for block in message.content)
    reason = "tool_call" if calls else "stop"
    ctx.drift.add(
        "parameter-defaulted",
        "GenAI output messages require a finish_reason and none was recorded; "
        f"{reason!r} was synthesized from the content",
        field=f"{path}.finish_reason",
        transformed=reason,
    )
    return reason


def _parts(message: Message, index: int, ctx: Context) -> list[Any]:
    parts: list[Any] = []
    for position, block in enumerate(message.content):
        part = render_block(block, f"messages[{index}].content[{position}]", ctx)
        if part is not None:
            parts.append(part)
    return put_back(parts, message.extra.get(FORMAT_ID, {}).get(UNMAPPED))


def render_block(block: Block, path: str, ctx: Context) -> dict[str, Any] | None:
    """The part for one block (None, with a warning, when it cannot be written)."""
    if isinstance(block, TextBlock):
        if block.citations and not ctx.faithful:
            ctx.drift.add(
                "content-dropped",
                "GenAI text parts have no citations",
                field=f"{path}.citations",
                original=block.citations,
            )
        return {"type": "text", "content": block.text, **fields_of(block)}
    if isinstance(block, RefusalBlock):
        _as_another(block, path, "text", "a refusal is written as text", ctx)
        return {"type": "text", "content": block.text}
    if isinstance(block, ThinkingBlock):
        return _reasoning(block, path, ctx)
    if isinstance(block, ToolUseBlock):
        return render_call(block)
    if isinstance(block, ToolResultBlock):
        return _result(block, path, ctx)
    return _media(block, path, ctx)


def _as_another(block: Block, path: str, kind: str, why: str, ctx: Context) -> None:
    ctx.drift.add(
        "content-type-unsupported",
        f"GenAI messages have no {block.type} part; {why}",
        field=path,
        original=block.type,
        transformed=kind,
        severity="info" if kind in ("blob", "uri", "file") else "warning",
    )


def _reasoning(block: ThinkingBlock, path: str, ctx: Context) -> dict[str, Any] | None:
    if not block.text:
        ctx.drift.add(
            "reasoning-dropped",
            "redacted reasoning has no text to write",
            field=path,
            details={"redacted": block.redacted},
        )
        return None
    if block.signature or block.data:
        ctx.drift.add(
            "signature-stripped",
            "GenAI reasoning parts carry no signature",
            field=path,
            original=block.provider,
        )
    return {"type": "reasoning", "content": block.text, **fields_of(block)}


def _result(block: ToolResultBlock, path: str, ctx: Context) -> dict[str, Any]:
    if ctx.faithful or isinstance(block.content, str):
        response: JSON = response_value(block)
    elif all(isinstance(inner, TextBlock) for inner in block.content):
        response = "\n".join(inner.text for inner in block.content if isinstance(inner, TextBlock))
    else:
        response = [
            part
            for position, inner in enumerate(block.content)
            if (part := render_block(inner, f"{path}.content[{position}]", ctx)) is not None
        ]
    if block.is_error and not ctx.faithful:
        ctx.drift.add(
            "capability-unsupported",
            "GenAI tool responses have no error flag; it is kept as the property is_error",
            field=f"{path}.is_error",
            original=True,
            severity="info",
        )
    return render_response(block, response)


def _media(
    block: ImageBlock | AudioBlock | DocumentBlock, path: str, ctx: Context
) -> dict[str, Any] | None:
    if isinstance(block, DocumentBlock) and block.source.type == "text":
        _as_another(block, path, "text", "a plain-text document is written as text", ctx)
        return {"type": "text", "content": block.source.data or ""}
    part = render_media(block)
    if part is None:
        ctx.drift.add("content-dropped", "the media has no data", field=path, original=block.type)
    elif isinstance(block, DocumentBlock) and not ctx.faithful:
        _as_another(block, path, part["type"], "a document is a part with modality document", ctx)
    return part


def _tool(tool: Any, index: int, ctx: Context) -> dict[str, Any]:
    out: dict[str, Any] = {} if ctx.faithful else {"type": "function"}
    out["name"] = tool.name
    if tool.description is not None:
        out["description"] = tool.description
    if tool.parameters is not None:
        out["parameters"] = tool.parameters
    if not ctx.faithful:
        report_foreign(tool.extra, f"tools[{index}]", ctx.drift)
    return {**out, **fields_of(tool)}


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
    report_foreign(conversation.extra, "", ctx.drift)
    for name in ("user", "parallel_tool_calls", "stream", "custom"):
        value = getattr(parameters, name)
        if value not in (None, {}):
            ctx.drift.add(
                "parameter-unsupported",
                f"GenAI attributes have no {name}",
                field=f"parameters.{name}",
                original=value,
            )
    if conversation.tool_choice is not None:
        ctx.drift.add(
            "parameter-unsupported",
            "GenAI attributes have no tool_choice",
            field="tool_choice",
            original=conversation.tool_choice.model_dump(
                mode="json", exclude_defaults=True, exclude={"extra"}
            ),
        )


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
    raw = conversation.extra.get(FORMAT_ID, {}).get("$raw") or {}
    for key in ENCODED:
        if key in raw and key in out:
            text = raw[key]
            out[key] = text if orjson.loads(text) == out[key] else orjson.dumps(out[key]).decode()


def report_foreign(extra: dict[str, dict[str, Any]], path: str, drift: Drift) -> None:
    """A ``field-unknown`` (info) warning for each other format's fields on a value."""
    report_foreign_fields(extra, path, drift, FORMAT_ID, "GenAI", with_empty=True)
