"""``openai-chat``: OpenAI Chat Completions requests, logged exchanges and responses.

``parse`` reads one conversation from a request body, a bare ``messages`` list, a logged
exchange ``{"request": ..., "response": ...}`` or a bare ``chat.completion``, and records
which as the conversation hint ``$shape``. Fields UMF has no name for stay verbatim in
``extra["openai-chat"]`` of the value they belong to; ``$`` keys there are layout hints.

``render`` writes a conversation read by this format back as exactly the payload it was
read from ("faithful": nothing is re-ordered or repaired, even where OpenAI would refuse
the original). Any other conversation becomes a request OpenAI accepts, with one drift
warning for each thing it could not carry. ``render_request`` always does the latter,
whatever the shape: it is what a client sends.

What does not travel as it was, and the warning it gives (``field`` is the UMF path):

==================================================  ==========================================
thinking blocks, ``reasoning``, reasoning details   ``reasoning-dropped`` (never a signature)
tool results inside user (or other) messages        split out as ``tool`` messages right after
                                                    the call; ``message-reordered`` (info) only
                                                    when something had to be jumped over
tool result ``is_error``                            ``capability-unsupported``, "Error: " text
tool result blocks                                  text joined with newlines; media as below
media in system/developer/assistant/tool content    a user message after the group,
                                                    ``message-reordered``
images or audio OpenAI cannot take (file ids, URL   ``content-dropped``
audio, formats other than wav/mp3)
documents as URL or plain text                      a text part, ``content-type-unsupported``
a refusal outside an assistant message              a text part, ``content-type-unsupported``
file data without a filename                        ``document.<ext>``, ``parameter-defaulted``
document title beside a filename                    ``content-dropped`` (info)
citations from other formats                        ``content-dropped``
tool-call ids over 40 chars, odd characters, or     ``call_<sha256 prefix>``, ``id-rewritten``
used twice                                          (info), results follow the call's new id
a call with no result                               a placeholder error result,
                                                    ``id-synthesized``
a result answering no earlier call                  a user message, ``content-type-unsupported``
a tool message with no call id at all               a user message, ``content-type-unsupported``
no model                                            :data:`DEFAULT_MODEL`, ``parameter-defaulted``
``top_k``, ``parameters.custom``; tool_choice or    ``parameter-unsupported``
parallel_tool_calls without tools
temperature/top_p/penalties out of range            ``parameter-clamped``
more than 4 stop sequences                          ``stop-sequences-truncated``
a forced tool choice that names no tool             ``required``, ``parameter-normalized``
other branches of a tree                            ``content-dropped`` per message
other formats' ``extra`` fields                     ``field-unknown`` (info)
message ids, timestamps, models, finish reasons,    ``content-dropped`` (info), one for all
usage and metadata                                  messages
==================================================  ==========================================
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from providers.formats import register
from providers.formats._common import (
    report_message_metadata,
    require_mapping,
    split,
    unknown_fields,
)
from providers.formats.base import Capabilities, Drift, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation, Message, main_path

from ._detect import DISTINCTIVE, detect
from ._parse_messages import ParseState, parse_messages
from ._render_messages import render_message
from ._request import (
    PARAMETER_KEYS,
    parse_parameters,
    parse_tool_choice,
    parse_tools,
    render_parameters,
    render_tool,
    render_tool_choice,
    strip_nulls,
)
from ._response import parse_response, render_response
from ._sequence import assemble
from ._shared import (
    DEFAULT_MODEL,
    FORMAT_ID,
    RenderContext,
    at,
    get_hint,
    item,
    make_extra,
    put_fields,
    report_foreign_extra,
)

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render", "render_request"]

_SHAPES = ("request", "messages", "exchange", "response")
_NO_MESSAGE_METADATA = (
    "an OpenAI Chat request has no per-message ids, timestamps, models, finish reasons or "
    "usage; left out"
)


# --------------------------------------------------------------------------- parse


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation; :class:`FormatError` (with the field) for anything that is
    not a Chat Completions request, message list, exchange or response."""
    state = ParseState(Drift(FORMAT_ID))
    try:
        conversation, shape = _read(payload, state)
    except ValidationError as error:  # a value our own checks let through: still bad input
        location = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise FormatError(error.errors()[0]["msg"], field=location or None) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation, state.drift.warnings)]


def _read(payload: JSON, state: ParseState) -> tuple[Conversation, str]:
    if isinstance(payload, list):
        return Conversation(messages=parse_messages(payload, "", state)), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        return _read_exchange(body, state), "exchange"
    if "choices" in body:
        return Conversation(messages=[parse_response(body, "", state)]), "response"
    if "messages" in body:
        return _read_request(body, "", state), "request"
    raise FormatError(
        "not an OpenAI Chat Completions payload: expected messages, choices, "
        "or a request and a response",
        field="messages",
    )


def _read_request(body: JSON, base: str, state: ParseState) -> Conversation:
    request = require_mapping(body, base or "payload")
    fields, rest = split(request, ("messages", "tools", "tool_choice", *PARAMETER_KEYS), path=base)
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=at(base, "messages"))
    conversation = Conversation(
        messages=parse_messages(fields["messages"], at(base, "messages"), state)
    )
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools = parse_tools(fields["tools"], at(base, "tools"))
    if "tool_choice" in fields:
        conversation.tool_choice = parse_tool_choice(fields["tool_choice"], at(base, "tool_choice"))
    conversation.parameters, hints, kept = parse_parameters(fields, base)
    conversation.extra = make_extra({**rest, **kept}, **hints)
    return conversation


def _read_exchange(body: dict[str, Any], state: ParseState) -> Conversation:
    conversation = _read_request(body.get("request"), "request", state)
    message = parse_response(body.get("response"), "response", state)
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = unknown_fields(body, ("request", "response"), path="")
    if envelope:
        conversation.extra.setdefault(FORMAT_ID, {})["$exchange"] = envelope
    return conversation


# --------------------------------------------------------------------------- render


def render(conversation: Conversation) -> Rendered:
    """The payload for ``conversation``: the very shape and fields it was read from when
    this format read it, else a request OpenAI accepts (see :func:`render_request`)."""
    shape = get_hint(conversation.extra, "shape")
    if shape not in _SHAPES:
        return render_request(conversation)
    return _render(conversation, shape, RenderContext.create(faithful=True))


def render_request(conversation: Conversation) -> Rendered:
    """A request body OpenAI accepts: every tool call answered right after it, ids and
    roles fixed, a model filled in, and a warning for each thing that could not travel."""
    return _render(conversation, "request", RenderContext.create(faithful=False))


def _render(conversation: Conversation, shape: str, ctx: RenderContext) -> Rendered:
    report_foreign_extra(conversation.extra, "", ctx.drift)
    thread = _thread(conversation, ctx)
    answer = None
    if shape in ("exchange", "response") and thread and thread[-1][1].role == "assistant":
        answer = thread.pop()
    elif shape in ("exchange", "response"):
        shape = "request"  # nothing to answer with: the request is all there is
    if shape == "response":
        _report_unplaced(conversation, thread, ctx)
        thread = []
    if not ctx.faithful:
        report_message_metadata(thread, ctx.drift, _NO_MESSAGE_METADATA)
    entries = [entry for index, message in thread for entry in render_message(message, index, ctx)]
    messages = assemble(entries, ctx)
    payload: JSON = messages
    if shape in ("request", "exchange"):
        payload = _render_body(conversation, messages, ctx)
        payload = payload if ctx.faithful else strip_nulls(payload)
    elif shape == "messages":
        _report_unplaced(conversation, [], ctx)
    if answer is not None:
        response = render_response(answer[1], _answer_wire(answer, ctx))
        envelope = get_hint(conversation.extra, "exchange", {})
        payload = (
            response
            if shape == "response"
            else {**envelope, "request": payload, "response": response}
        )
    return Rendered(payload, ctx.drift.warnings)


def _thread(conversation: Conversation, ctx: RenderContext) -> list[tuple[int, Message]]:
    """The messages to write with their indexes: one path when the conversation is a tree."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    kept = {id(message) for message in path}
    for index, message in enumerate(conversation.messages):
        if id(message) not in kept:
            ctx.drift.add(
                "content-dropped",
                "OpenAI Chat takes one thread; this message is on another branch",
                field=item("messages", index),
                original=message.id,
            )
    return [(positions[id(message)], message) for message in path]


def _render_body(
    conversation: Conversation, messages: list[dict[str, Any]], ctx: RenderContext
) -> dict[str, Any]:
    out = render_parameters(conversation, ctx)
    out["messages"] = messages
    if conversation.tools:
        out["tools"] = [
            render_tool(tool, item("tools", i), ctx) for i, tool in enumerate(conversation.tools)
        ]
    if conversation.tool_choice is not None:
        choice = render_tool_choice(conversation.tool_choice, bool(conversation.tools), ctx)
        if choice is not None:
            out["tool_choice"] = choice
    return put_fields(out, conversation.extra)


def _answer_wire(answer: tuple[int, Message], ctx: RenderContext) -> dict[str, Any]:
    index, message = answer
    wires = assemble(render_message(message, index, ctx), ctx)
    for extra_wire in wires[1:]:
        ctx.drift.add(
            "content-dropped",
            "a response holds one assistant message",
            field=item("messages", index),
            original=extra_wire,
        )
    return wires[0] if wires else {"role": "assistant", "content": None}


def _report_unplaced(
    conversation: Conversation, earlier: list[tuple[int, Message]], ctx: RenderContext
) -> None:
    # A bare message list or response has no room for tools, parameters or earlier turns.
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
        label="OpenAI Chat Completions",
        capabilities=Capabilities(
            roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
            blocks=frozenset(
                {"text", "refusal", "image", "document", "audio", "tool_use", "tool_result"}
            ),
            tools=True,
            tool_choice=True,
            parameters=frozenset(
                {"model", "temperature", "max_tokens", "top_p", "stop", "seed", "frequency_penalty"}
                | {"presence_penalty", "user", "parallel_tool_calls", "stream"}
            ),
            reasoning_signatures=False,
            usage=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        distinctive=DISTINCTIVE,
        provider="openai",
    )
)
