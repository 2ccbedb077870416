"""``openai-responses``: OpenAI Responses API requests, item lists, exchanges and responses.

``parse`` reads one conversation from a request body (``input`` as a string or an item
list, ``instructions`` as a leading system message marked ``$instructions``), a bare item
list, a logged exchange ``{"request": ..., "response": ...}`` or a bare ``response`` object,
and records which as the conversation hint ``$shape``. Fields UMF has no name for stay
verbatim in ``extra["openai-responses"]`` of the value they belong to; ``$`` keys there are
layout hints. How items map to messages is in ``_parse_items``; items and hosted tools UMF
has no name for stay verbatim with their positions (``unmapped_items``, ``unmapped_tools``).

``render`` writes a conversation read by this format back as exactly the payload it was
read from. Any other conversation becomes a request the API accepts, with one drift warning
for each thing it could not carry (``_parts`` for content, ``_render_items`` for roles,
reasoning, ids and tool results, ``_sequence`` for ordering, ``_request`` for parameters and
tools). ``render_request`` always does the latter, whatever the shape: it is what a client
sends (an exchange's answer becomes the last input items, reasoning included).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from providers.formats import register
from providers.formats._common import report_message_metadata, split
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation, Message, TextBlock, main_path

from ._detect import detect
from ._parse_items import ItemReader
from ._render_items import render_message
from ._request import (
    PARAMETER_KEYS,
    parse_parameters,
    parse_tool_choice,
    parse_tools,
    render_parameters,
    render_tool_choice,
    render_tools,
    strip_nulls,
)
from ._response import is_response, parse_response, render_response
from ._sequence import assemble
from ._shared import (
    DEFAULT_MODEL,
    FORMAT_ID,
    UNMAPPED_TOOLS,
    RenderContext,
    at,
    fields_of,
    get_hint,
    item,
    make_extra,
    plain,
    put_fields,
    report_foreign_extra,
    unmapped,
)

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render", "render_request"]

_SHAPES = ("request", "messages", "exchange", "response")
_NO_MESSAGE_METADATA = (
    "a Responses request has no per-message ids, timestamps, models, finish reasons or usage; "
    "left out"
)


# --------------------------------------------------------------------------- parse


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation; :class:`FormatError` (with the field) for anything that is
    not a Responses request, item list, exchange or response."""
    try:
        conversation, shape = _read(payload, ItemReader())
    except ValidationError as error:  # a value our own checks let through: still bad input
        location = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise FormatError(error.errors()[0]["msg"], field=location or None) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation)]


def _read(payload: JSON, reader: ItemReader) -> tuple[Conversation, str]:
    if isinstance(payload, list):
        return Conversation(messages=reader.read(payload, "")), "messages"
    body = plain(payload, "")
    if "request" in body or "response" in body:
        return _read_exchange(body, reader), "exchange"
    if is_response(body):
        return Conversation(messages=[parse_response(body, "", reader)]), "response"
    if "input" in body:
        return _read_request(body, "", reader), "request"
    raise FormatError(
        "not an OpenAI Responses payload: expected input, output, or a request and a response",
        field="input",
    )


def _read_request(raw: JSON, base: str, reader: ItemReader) -> Conversation:
    request = plain(raw, base or "payload")
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
    conversation.extra = make_extra({**rest, **kept}, **hints, **parameter_hints)
    return conversation


def _read_input(value: JSON, path: str, reader: ItemReader) -> list[Message]:
    if isinstance(value, str):
        return [
            Message(
                role="user", content=[TextBlock(text=value)], extra=make_extra({}, content="string")
            )
        ]
    if not isinstance(value, list):
        raise FormatError("input must be a string or an array of items", field=path)
    return reader.read(value, path)


def _instructions(value: JSON, base: str) -> Message:
    if not isinstance(value, str):
        raise FormatError("instructions must be a string", field=at(base, "instructions"))
    return Message(
        role="system", content=[TextBlock(text=value)], extra=make_extra({}, instructions=True)
    )


def _read_exchange(body: dict[str, Any], reader: ItemReader) -> Conversation:
    conversation = _read_request(body.get("request"), "request", reader)
    message = parse_response(body.get("response"), "response", reader)
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = {key: value for key, value in body.items() if key not in ("request", "response")}
    if envelope:
        conversation.extra.setdefault(FORMAT_ID, {})["$exchange"] = envelope
    return conversation


# --------------------------------------------------------------------------- render


def render(conversation: Conversation) -> Rendered:
    """The payload for ``conversation``: the very shape and fields it was read from when
    this format read it, else a request the API accepts (see :func:`render_request`)."""
    shape = get_hint(conversation.extra, "shape")
    if shape not in _SHAPES:
        return render_request(conversation)
    return _render(conversation, shape, RenderContext.create(faithful=True))


def render_request(conversation: Conversation) -> Rendered:
    """A request body the API accepts: every call answered right after it, ids and roles
    fixed, a model filled in, and a warning for each thing that could not travel."""
    return _render(conversation, "request", RenderContext.create(faithful=False))


def _render(conversation: Conversation, shape: str, ctx: RenderContext) -> Rendered:
    report_foreign_extra(conversation.extra, "", ctx.drift)
    thread = _thread(conversation, ctx)
    answer = None
    if shape in ("exchange", "response") and thread and _is_answer(thread[-1][1]):
        answer = thread.pop()
    elif shape in ("exchange", "response"):
        shape = "request"  # nothing to answer with: the request is all there is
    if shape == "response":
        _report_unplaced(conversation, thread, ctx)
        thread = []
    instructions = None
    if shape in ("request", "exchange") and thread and _is_instructions(thread[0][1]):
        instructions = thread.pop(0)[1].content[0]
    if not ctx.faithful:
        report_message_metadata(thread, ctx.drift, _NO_MESSAGE_METADATA)
    items = assemble([e for i, m in thread for e in render_message(m, i, ctx)], ctx)
    payload: JSON = items
    if shape == "messages":
        _report_unplaced(conversation, [], ctx)
    elif shape in ("request", "exchange"):
        text = instructions.text if isinstance(instructions, TextBlock) else None
        payload = _render_body(conversation, items, text, ctx)
        payload = payload if ctx.faithful else strip_nulls(payload)
    if answer is not None:
        payload = _with_answer(conversation, payload, shape, answer, ctx)
    return Rendered(payload, ctx.drift.warnings)


def _with_answer(
    conversation: Conversation,
    request: JSON,
    shape: str,
    answer: tuple[int, Message],
    ctx: RenderContext,
) -> JSON:
    """The response object for the answer: alone, or as the exchange it was logged in."""
    output = assemble(render_message(answer[1], answer[0], ctx), ctx)
    response = render_response(answer[1], output)
    if shape == "response":
        return response
    return {
        **get_hint(conversation.extra, "exchange", {}),
        "request": request,
        "response": response,
    }


def _is_answer(message: Message) -> bool:
    return message.role == "assistant" and isinstance(get_hint(message.extra, "response"), dict)


def _is_instructions(message: Message) -> bool:
    return (
        message.role == "system"
        and get_hint(message.extra, "instructions") is True
        and len(message.content) == 1
        and isinstance(message.content[0], TextBlock)
    )


def _thread(conversation: Conversation, ctx: RenderContext) -> list[tuple[int, Message]]:
    """The messages to write with their indexes: one path when the conversation is a tree."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "OpenAI Responses takes one thread; this message is on another branch",
                field=item("messages", index),
                original=message.id,
            )
    return [(positions[id(message)], message) for message in path]


def _render_body(
    conversation: Conversation,
    items: list[dict[str, Any]],
    instructions: str | None,
    ctx: RenderContext,
) -> dict[str, Any]:
    out = render_parameters(conversation, ctx)
    if instructions is not None:
        out["instructions"] = instructions
    plain_input = len(items) == 1 and items[0].keys() == {"role", "content"}
    plain_input = (
        plain_input and items[0]["role"] == "user" and isinstance(items[0]["content"], str)
    )
    string_input = get_hint(conversation.extra, "input") == "string" and plain_input
    out["input"] = items[0]["content"] if string_input else items
    tools = render_tools(conversation, ctx)
    if tools:
        out["tools"] = tools
    if conversation.tool_choice is not None:
        has_tools = bool(tools) or bool(unmapped(conversation.extra, UNMAPPED_TOOLS))
        choice = render_tool_choice(conversation.tool_choice, has_tools, ctx)
        if choice is not None:
            out["tool_choice"] = choice
    return put_fields(out, fields_of(conversation.extra))


def _report_unplaced(
    conversation: Conversation, earlier: list[tuple[int, Message]], ctx: RenderContext
) -> None:
    # A bare item list or response has no room for tools, parameters or earlier turns.
    for index, _ in earlier:
        ctx.drift.add(
            "content-dropped", "a response holds only the answer", field=item("messages", index)
        )
    if conversation.tools:
        ctx.drift.add("tool-unsupported", "this payload shape has no tools", field="tools")
    if conversation.tool_choice is not None:
        ctx.drift.add(
            "parameter-unsupported", "this payload shape has no tool_choice", field="tool_choice"
        )
    for key, value in conversation.parameters.model_dump(exclude_defaults=True).items():
        ctx.drift.add(
            "parameter-unsupported",
            "this payload shape has no parameters",
            field=f"parameters.{key}",
            original=value,
        )


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="OpenAI Responses",
        capabilities=Capabilities(
            roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
            blocks=frozenset(
                {"text", "refusal", "image", "document", "tool_use", "tool_result", "thinking"}
            ),
            tools=True,
            tool_choice=True,
            parameters=frozenset(
                {"model", "temperature", "max_tokens", "top_p", "user", "parallel_tool_calls"}
                | {"stream"}
            ),
            reasoning_signatures=True,
            usage=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        provider="openai",
    )
)
