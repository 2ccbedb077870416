"""UMF conversation -> Ollama payload in the shape it was read in (default: a request)."""

from __future__ import annotations

from typing import Any

from providers.formats._common import report_message_metadata
from providers.formats.base import Drift, Rendered
from providers.umf import JSON, Conversation, Message, Tool, ToolUseBlock, extract_text, main_path

from ._options import render_options, report_unsupported_parameters
from ._render_messages import render_message
from ._response import render_response
from ._shared import (
    DEFAULT_MODEL,
    FORMAT_ID,
    SHAPES,
    Context,
    fields_of,
    get_hint,
    item,
    put_fields,
    warn_foreign_extra,
)

_NO_MESSAGE_METADATA = (
    "an Ollama request has no per-message ids, timestamps, models, finish reasons or usage; "
    "left out"
)


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and the warnings for what it could not carry."""
    shape = get_hint(conversation.extra, "shape")
    ctx = Context(Drift(FORMAT_ID), faithful=shape in SHAPES, call_names=_call_names(conversation))
    thread = _thread(conversation, ctx)
    answer = None
    if shape in ("exchange", "response") and thread and _is_answer(thread[-1][1]):
        answer = thread.pop()
    elif shape in ("exchange", "response"):
        shape = "request"  # nothing to answer with: the request is all there is
    if shape == "response":
        _report_unplaced(conversation, thread, ctx)
        thread = []
    if not ctx.faithful:
        report_message_metadata(thread, ctx.drift, _NO_MESSAGE_METADATA)
    messages = [wire for index, message in thread for wire in render_message(message, index, ctx)]
    payload: JSON = messages
    if shape == "messages":
        _report_unplaced(conversation, [], ctx)
    elif shape != "response":
        payload = _request(conversation, messages, ctx)
    if answer is not None:
        response = render_response(answer[1], _answer_wire(answer, ctx))
        envelope = get_hint(conversation.extra, "exchange", {})
        payload = (
            response
            if shape == "response"
            else {**envelope, "request": payload, "response": response}
        )
    return Rendered(payload, ctx.drift.warnings)


def _call_names(conversation: Conversation) -> dict[str, str]:
    """The tool name of every call id: Ollama results name their tool."""
    return {
        block.id: block.name
        for message in conversation.messages
        for block in message.content
        if isinstance(block, ToolUseBlock)
    }


def _is_answer(message: Message) -> bool:
    return message.role == "assistant" and get_hint(message.extra, "response") is not None


def _thread(conversation: Conversation, ctx: Context) -> list[tuple[int, Message]]:
    """The messages to send with their UMF positions: one path through a tree."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "Ollama takes one thread; this message is on another branch",
                field=item("messages", index),
                original=extract_text(message) or message.role,
            )
    return [(positions[id(message)], message) for message in path]


def _answer_wire(answer: tuple[int, Message], ctx: Context) -> dict[str, Any]:
    index, message = answer
    wires = render_message(message, index, ctx)
    for extra_wire in wires[1:]:
        ctx.drift.add(
            "content-dropped",
            "a response holds one assistant message",
            field=item("messages", index),
            original=extra_wire,
        )
    return wires[0] if wires else {"role": "assistant", "content": ""}


def _request(
    conversation: Conversation, messages: list[dict[str, Any]], ctx: Context
) -> dict[str, Any]:
    parameters = conversation.parameters
    body: dict[str, Any] = {}
    model = parameters.model
    if not model and not ctx.faithful:
        model = DEFAULT_MODEL
        ctx.drift.add(
            "parameter-defaulted",
            "Ollama requires a model; the default was used",
            field="parameters.model",
            original=parameters.model,
            transformed=DEFAULT_MODEL,
        )
    if model is not None:
        body["model"] = model
    body["messages"] = messages
    tools = _tools(conversation, ctx)
    if tools is not None:
        body["tools"] = tools
    options = render_options(conversation)
    if options is not None:
        body["options"] = options
    if parameters.stream is not None:
        body["stream"] = parameters.stream
    report_unsupported_parameters(conversation, ctx)
    warn_foreign_extra(conversation.extra, "", ctx.drift)
    return put_fields(body, fields_of(conversation.extra))


def _tools(conversation: Conversation, ctx: Context) -> list[dict[str, Any]] | None:
    """The ``tools`` to send. Ollama has no tool_choice: ``auto`` is what it always does,
    ``none`` is approximated by offering no tools, forcing a tool cannot be said."""
    choice = conversation.tool_choice
    tools = [_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)]
    if choice is None:
        return tools or None
    warn_foreign_extra(choice.extra, "tool_choice", ctx.drift)
    original = choice.name if choice.type == "tool" else choice.type
    if not tools or choice.type == "auto":
        ctx.drift.add(
            "parameter-normalized",
            "Ollama has no tool_choice; left out (the model always chooses)",
            field="tool_choice",
            original=original,
            severity="info",
        )
    elif choice.type == "none":
        ctx.drift.add(
            "parameter-normalized",
            "Ollama has no tool_choice; 'none' is approximated by offering no tools",
            field="tool_choice",
            original="none",
            transformed={"tools": None},
        )
        return None
    else:
        ctx.drift.add(
            "tool-unsupported",
            "Ollama cannot make the model call a tool; the tools are offered as they are",
            field="tool_choice",
            original=original,
        )
    return tools or None


def _tool(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    function: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        function["description"] = tool.description
    if tool.parameters is not None:
        function["parameters"] = tool.parameters
    outer = get_hint(tool.extra, "outer")
    body = dict(outer) if outer is not None else {"type": "function"}
    body["function"] = put_fields(function, fields_of(tool.extra))
    warn_foreign_extra(tool.extra, path, ctx.drift)
    return body


def _report_unplaced(
    conversation: Conversation, earlier: list[tuple[int, Message]], ctx: Context
) -> None:
    # A bare message list or response has no room for tools, parameters or earlier turns.
    for index, _ in earlier:
        ctx.drift.add(
            "content-dropped", "a response holds only the answer", field=item("messages", index)
        )
    if conversation.tools:
        ctx.drift.add("tool-unsupported", "this payload shape has no tools", field="tools")
    for key, value in conversation.parameters.model_dump(exclude_defaults=True).items():
        ctx.drift.add(
            "parameter-unsupported",
            "this payload shape has no parameters",
            field=f"parameters.{key}",
            original=value,
        )
