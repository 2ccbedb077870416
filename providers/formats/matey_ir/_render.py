"""UMF conversation -> IR payload: the shape it was read in (a request, a bare message
array, a response, stream chunks or an exchange), else a request. What was read comes back
as it was while the digest of what UMF says is unchanged (see :mod:`._parse_metadata`).

A value kept verbatim in the ``$parameters`` hint is written back only while UMF still says
the same; conversions follow the IR's rules (:mod:`._rules`). Stream chunks read are not
written back as they were once the answer changed: the stream is then start, a chunk per
text or call block, and done (or error) with the whole message."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import (
    no_place_for_message_facts,
    report_parameters_dropped,
    report_unplaced,
)
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import arguments_string, empty_object_schema
from providers.formats._message_lists.render import (
    ListContext,
    one_thread,
    render_context,
    report_foreign,
)
from providers.formats.base import Rendered
from providers.formats.matey_ir._constants import (
    ANSWER_SHAPES,
    FORMAT_ID,
    LABEL,
    NS,
    PARAMETER_KEYS,
    SHAPES,
)
from providers.formats.matey_ir._parse_metadata import state_digest
from providers.formats.matey_ir._render_messages import render_message
from providers.formats.matey_ir._render_metadata import (
    fallback_identity,
    render_metadata,
    render_usage,
)
from providers.formats.matey_ir._rules import default_tool_field, finish_reason, fit_parameter
from providers.umf import JSON, Conversation, Message, TextBlock, ToolChoice, ToolUseBlock

_NO_MESSAGE_METADATA = no_place_for_message_facts("an ai.matey IR request")


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as IR JSON: the shape it was read in, else a request."""
    shape = NS.hint(conversation.extra, "shape")
    ctx = render_context(FORMAT_ID, LABEL, faithful=shape in SHAPES)
    report_foreign(conversation.extra, "", ctx)
    payload = render_payload(conversation, ctx, shape if shape in SHAPES else None)
    return Rendered(payload, ctx.drift.warnings)


def render_payload(conversation: Conversation, ctx: ListContext, shape: str | None) -> JSON:
    """The payload for ``conversation`` in ``shape`` (a request when it is not an IR one)."""
    messages = one_thread(conversation, ctx, metadata_note=_NO_MESSAGE_METADATA, held=("metadata",))
    answer = messages[-1] if messages and messages[-1][1].role == "assistant" else None
    if shape in ANSWER_SHAPES and answer is None:
        shape = "request"
    unchanged = NS.hint(conversation.extra, "digest") == state_digest(
        conversation, answer[1] if answer and shape in ANSWER_SHAPES else None
    )
    if shape == "messages":
        report_unplaced(conversation, [], ctx.drift, choice="toolChoice")
        return [render_message(message, index, ctx) for index, message in messages]
    if shape in ("response", "stream"):
        assert answer is not None
        report_unplaced(conversation, messages[:-1], ctx.drift, choice="toolChoice")
        return _render_answer(conversation, answer, shape, unchanged, ctx)
    if shape == "exchange":
        assert answer is not None
        kind = "stream" if NS.hint(answer[1].extra, "chunks") is not None else "response"
        return {
            **NS.hint(conversation.extra, "exchange", {}),
            "request": _render_request(conversation, messages[:-1], unchanged, ctx),
            "response": _render_answer(conversation, answer, kind, unchanged, ctx),
        }
    return _render_request(conversation, messages, unchanged, ctx)


def _render_request(
    conversation: Conversation,
    messages: list[tuple[int, Message]],
    unchanged: bool,
    ctx: ListContext,
) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": [render_message(m, index, ctx) for index, m in messages]}
    if conversation.tools:
        body["tools"] = render_tools(conversation, ctx)
    if conversation.tool_choice is not None:
        body["toolChoice"] = render_tool_choice(conversation.tool_choice, ctx)
    parameters = render_parameters(conversation, ctx)
    if parameters is not None:
        body["parameters"] = parameters
    kept = NS.hint(conversation.extra, "metadata")
    if unchanged and kept is not None:
        body["metadata"] = kept
    else:
        identity = fallback_identity(conversation)
        body["metadata"] = render_metadata(conversation.metadata, ctx, identity, response=False)
    if conversation.parameters.stream is not None:
        body["stream"] = conversation.parameters.stream
    return NS.put(body, conversation.extra)


def _render_answer(
    conversation: Conversation,
    answer: tuple[int, Message],
    kind: str,
    unchanged: bool,
    ctx: ListContext,
) -> Any:
    index, message = answer
    if unchanged and kind == "stream" and NS.hint(message.extra, "chunks") is not None:
        return NS.hint(message.extra, "chunks")
    kept = NS.hint(message.extra, "response_metadata")
    if unchanged and kept is not None:
        metadata = kept
    else:
        source = conversation.metadata.model_copy()
        source.provider_response_id = message.id or source.provider_response_id
        source.timestamp = message.timestamp or source.timestamp
        metadata = render_metadata(source, ctx, fallback_identity(conversation), response=True)
    if kind == "stream":
        mode = conversation.extra.get(FORMAT_ID, {}).get("streamMode")
        return render_stream(message, index, metadata, mode, ctx)
    return render_response(message, index, metadata, ctx)


def render_response(
    answer: Message, index: int, metadata: dict[str, Any], ctx: ListContext
) -> dict[str, Any]:
    """An ``IRChatResponse`` for the answer (UMF message ``index``) with ``metadata``."""
    message = render_message(answer, index, ctx)
    body: dict[str, Any] = {"message": message, "finishReason": finish_reason(answer, index, ctx)}
    if answer.usage is not None:
        body["usage"] = render_usage(answer.usage)
    body["metadata"] = metadata
    body.update(NS.hint(answer.extra, "response", {}))
    return body


def render_parameters(conversation: Conversation, ctx: ListContext) -> dict[str, Any] | None:
    """The ``parameters`` object (None when there is none to write)."""
    parameters = conversation.parameters
    kept: dict[str, Any] | None = NS.hint(conversation.extra, "parameters")
    out: dict[str, Any] = {}
    for key, name in PARAMETER_KEYS.items():
        value = getattr(parameters, name)
        if value is not None and not ctx.faithful:
            value = fit_parameter(name, value, ctx)
        if value is not None and value != {}:
            out[key] = value
    if parameters.parallel_tool_calls is not None:
        dropped = {"parallel_tool_calls": parameters.parallel_tool_calls}
        report_parameters_dropped(dropped, ctx.drift, "the IR has no parallel tool calls switch")
    for key, value in (kept or {}).items():
        if _still_true(key, value, out):
            out[key] = value
    return out if out or kept is not None else None


def _still_true(key: str, value: Any, out: dict[str, Any]) -> bool:
    """Whether a value kept verbatim still says what UMF says: an unknown key always; a
    null or empty custom while UMF holds nothing; an integer while UMF holds its float."""
    if key not in PARAMETER_KEYS:
        return True
    if key not in out:
        return value is None or value == {}
    return bool(out[key] == value)


def render_tools(conversation: Conversation, ctx: ListContext) -> list[dict[str, Any]]:
    """``IRTool`` definitions; a missing description or schema is filled in."""
    out = []
    for index, tool in enumerate(conversation.tools):
        path = item("tools", index)
        report_foreign(tool.extra, path, ctx)
        description = tool.description
        if description is None:
            description = default_tool_field(ctx, at(path, "description"), "")
        schema = tool.parameters
        if schema is None:
            schema = default_tool_field(ctx, at(path, "parameters"), empty_object_schema())
        body = {"name": tool.name, "description": description, "parameters": schema}
        out.append(NS.put(body, tool.extra))
    return out


def render_tool_choice(choice: ToolChoice, ctx: ListContext) -> Any:
    """``toolChoice`` as the IR spells it."""
    report_foreign(choice.extra, "tool_choice", ctx)
    if choice.type != "tool":
        return choice.type
    if choice.name is None:
        ctx.drift.add(
            "parameter-normalized",
            "a forced tool choice that names no tool is sent as required",
            field="tool_choice",
            original="tool",
            transformed="required",
        )
        return "required"
    return NS.put({"name": choice.name}, choice.extra)


def render_stream(
    answer: Message, index: int, metadata: dict[str, Any], mode: str | None, ctx: ListContext
) -> list[dict[str, Any]]:
    """A chunk array for the answer (UMF message ``index``): start, a chunk per text or
    call block, and done (or error) with the whole message."""
    chunks: list[dict[str, Any]] = [{"type": "start", "sequence": 0, "metadata": metadata}]
    so_far = ""
    for block in answer.content:
        sequence = len(chunks)
        if isinstance(block, TextBlock):
            so_far += block.text
            chunk: dict[str, Any] = {"type": "content", "sequence": sequence, "delta": block.text}
            if mode == "accumulated":
                chunk["accumulated"] = so_far
            chunks.append(chunk)
        elif isinstance(block, ToolUseBlock):
            arguments = arguments_string(block.input, block.raw_arguments)
            chunks.append(
                {
                    "type": "tool_use",
                    "sequence": sequence,
                    "id": block.id,
                    "name": block.name,
                    "inputDelta": arguments,
                }
            )
    chunks.append(_last_chunk(answer, index, len(chunks), ctx))
    return chunks


def _last_chunk(answer: Message, index: int, sequence: int, ctx: ListContext) -> dict[str, Any]:
    error = answer.metadata.get("error")
    if answer.finish_reason == "error" and _is_error(error):
        return {"type": "error", "sequence": sequence, "error": error}
    done: dict[str, Any] = {
        "type": "done",
        "sequence": sequence,
        "finishReason": finish_reason(answer, index, ctx),
    }
    if answer.usage is not None:
        done["usage"] = render_usage(answer.usage)
    done["message"] = render_message(answer, index, ctx)
    return done


def _is_error(error: Any) -> bool:
    return (
        isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
    )
