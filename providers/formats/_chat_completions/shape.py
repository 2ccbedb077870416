"""The four shapes a chat-completions payload comes in, read and written the same way by
every format of the family: a request body (``request``), a bare ``messages`` list
(``messages``), a logged exchange ``{"request": ..., "response": ...}`` (``exchange``, the
response's message becoming the last assistant message) and a bare response
(``response``). The shape read is the conversation hint ``$shape``; render writes it back.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from providers.formats._kit.context import RenderContext
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_list, require_mapping, split, unknown_fields
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError
from providers.umf import JSON, Conversation, Message, Parameters, Tool, ToolChoice

from .parameters import ParameterSpec, read_parameters

SHAPES = ("request", "messages", "exchange", "response")

State = TypeVar("State")


def has_field(name: str) -> Callable[[dict[str, Any]], bool]:
    """A test for a payload that holds field ``name`` (``choices``, ``message``)."""
    return lambda body: name in body


@dataclass(frozen=True)
class Readers(Generic[State]):
    """How one format reads the parts of its payloads. ``is_response`` tells a response
    (:func:`has_field`), ``request_key`` names the field a request must hold;
    ``response_first`` tests a response before a request; ``refusal`` is the error for a
    payload of no shape (``refusal_field`` names where)."""

    ns: Namespace
    messages: Callable[[JSON, str, State], list[Message]]
    request: Callable[[JSON, str, State], Conversation]
    response: Callable[[JSON, str, State], Message]
    is_response: Callable[[dict[str, Any]], bool]
    refusal: str
    request_key: str = "messages"
    refusal_field: str = "messages"
    response_first: bool = False
    answer_model: bool = False  # the answer's model is the request's (no model in a response)


def read_shape(payload: JSON, readers: Readers[State], state: State) -> Conversation:
    """One conversation from a payload of any of the four shapes, with the shape as the
    ``$shape`` hint; a :class:`FormatError` (``readers.refusal``) for anything else."""
    if isinstance(payload, list):
        conversation = Conversation(messages=readers.messages(payload, "", state))
        shape = "messages"
    else:
        conversation, shape = _read_body(require_mapping(payload, "payload"), readers, state)
    readers.ns.add_hints(conversation.extra, shape=shape)
    return conversation


def _read_body(
    body: dict[str, Any], readers: Readers[State], state: State
) -> tuple[Conversation, str]:
    if "request" in body or "response" in body:
        return _read_exchange(body, readers, state), "exchange"
    order = ("response", "request") if readers.response_first else ("request", "response")
    for shape in order:
        if shape == "request" and readers.request_key in body:
            return readers.request(body, "", state), "request"
        if shape == "response" and readers.is_response(body):
            return Conversation(messages=[readers.response(body, "", state)]), "response"
    raise FormatError(readers.refusal, field=readers.refusal_field)


def _read_exchange(body: dict[str, Any], readers: Readers[State], state: State) -> Conversation:
    conversation = readers.request(body.get("request"), "request", state)
    message = readers.response(body.get("response"), "response", state)
    if readers.answer_model:
        message.model = conversation.parameters.model
    conversation.messages.append(message)
    conversation.metadata.provider_response_id = message.id
    envelope = unknown_fields(body, ("request", "response"), path="")
    readers.ns.add_hints(conversation.extra, exchange=envelope or None)
    return conversation


def read_list(
    raw: JSON, path: str, state: State, read_one: Callable[[JSON, str, State], Message]
) -> list[Message]:
    """The messages of a ``messages`` array (``path`` is where the array is)."""
    items = require_list(raw, path or "payload")
    return [read_one(message, item(path, index), state) for index, message in enumerate(items)]


@dataclass(frozen=True)
class RequestReaders(Generic[State]):
    """How one format reads a request body's messages, tools and tool choice. ``tools``
    gives back the tools and the verbatim fields they add (``unmapped_tools``...);
    ``reserved`` names the fields the format keeps for itself in the request's ``extra``.
    A format whose parameters the specs cannot say (OpenAI's two names for one token
    limit) reads them itself: ``read_parameters`` over the fields ``parameter_keys`` names,
    giving back what :func:`.parameters.read_parameters` does."""

    ns: Namespace
    parameters: tuple[ParameterSpec, ...]
    messages: Callable[[JSON, str, State], list[Message]]
    tools: Callable[[JSON, str], tuple[list[Tool], dict[str, Any]]]
    tool_choice: Callable[[JSON, str], ToolChoice]
    reserved: Collection[str] = ()
    read_parameters: (
        Callable[[dict[str, Any], str], tuple[Parameters, dict[str, Any], dict[str, Any]]] | None
    ) = None
    parameter_keys: tuple[str, ...] = ()


def read_request(
    raw: JSON, base: str, state: State, readers: RequestReaders[State]
) -> Conversation:
    """A request body: its messages, tools, tool choice and sampling parameters; every other
    field verbatim in the conversation's ``extra`` (``base`` is where the body is)."""
    request = require_mapping(raw, base or "payload")
    for name in readers.reserved:
        if name in request:
            raise FormatError(f"{name!r} is a reserved name", field=at(base, name))
    keys = ("messages", "tools", "tool_choice", *(spec.wire for spec in readers.parameters))
    keys += readers.parameter_keys
    fields, rest = split(request, keys, path=base)
    if "messages" not in fields:
        raise FormatError("a request needs messages", field=at(base, "messages"))
    messages = readers.messages(fields["messages"], at(base, "messages"), state)
    conversation = Conversation(messages=messages)
    if fields.get("tools") == []:
        rest["tools"] = fields.pop("tools")  # UMF has no "an empty list was sent"
    if "tools" in fields:
        conversation.tools, kept_tools = readers.tools(fields["tools"], at(base, "tools"))
        rest.update(kept_tools)
    if "tool_choice" in fields:
        choice_path = at(base, "tool_choice")
        conversation.tool_choice = readers.tool_choice(fields["tool_choice"], choice_path)
    if readers.read_parameters is not None:
        conversation.parameters, hints, kept = readers.read_parameters(fields, base)
    else:
        conversation.parameters, hints, kept = read_parameters(fields, readers.parameters, base)
    conversation.extra = readers.ns.extra({**rest, **kept}, **hints)
    return conversation


def enveloped(
    conversation: Conversation, ns: Namespace, shape: str, request: JSON, response: JSON | None
) -> JSON:
    """The payload in the shape it was read in: the request (or message list) alone, the
    response alone, or both in the exchange's envelope (its other fields as read)."""
    if response is None:
        return request
    if shape == "response":
        return response
    return {**ns.hint(conversation.extra, "exchange", {}), "request": request, "response": response}


def one_answer(
    wires: list[dict[str, Any]], index: int, ctx: RenderContext, empty: dict[str, Any]
) -> dict[str, Any]:
    """The one assistant message a response holds, from the ``wires`` that UMF message
    ``index`` was written as: the first (the others ``content-dropped``), or ``empty``."""
    for extra_wire in wires[1:]:
        ctx.drift.add(
            "content-dropped",
            "a response holds one assistant message",
            field=item("messages", index),
            original=extra_wire,
        )
    return wires[0] if wires else empty


def choice_without_tools(
    choice: ToolChoice, has_tools: bool, ctx: RenderContext, provider: str | None = None
) -> bool:
    """Whether a converted ``tool_choice`` is left out because no tools are offered
    (``parameter-unsupported``: the API refuses one without the other). ``provider`` names
    who refuses it (the format's label unless given)."""
    if has_tools or ctx.faithful:
        return False
    ctx.drift.add(
        "parameter-unsupported",
        f"{provider or ctx.label} takes tool_choice only with tools",
        field="tool_choice",
        original=choice.model_dump(mode="json", exclude_defaults=True),
    )
    return True


def unnamed_tool_choice(ctx: RenderContext, instead: str) -> str:
    """``instead`` (the API's "any tool"), for a forced tool choice that names no tool
    (``parameter-normalized``)."""
    ctx.drift.add(
        "parameter-normalized",
        "a forced tool choice names no tool; any tool is required instead",
        field="tool_choice",
        original="tool",
        transformed=instead,
    )
    return instead


def read_choice_mode(raw: str, path: str) -> ToolChoice:
    """A ``tool_choice`` given as OpenAI's mode string."""
    if raw not in ("auto", "required", "none"):
        raise FormatError("tool_choice must be auto, required or none", field=path)
    return ToolChoice(type=raw)  # type: ignore[arg-type]  # checked just above


def read_allowed_mode(mode: JSON, path: str) -> Literal["auto", "required"]:
    """The ``mode`` of an ``allowed_tools`` choice (at ``path``): the UMF choice it is."""
    if mode == "auto":
        return "auto"
    if mode == "required":
        return "required"
    raise FormatError("mode must be auto or required", field=path)
