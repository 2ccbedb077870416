"""One render for the chat-completions formats that linearize (``cohere``, ``mistral``):
the conversation in the shape it was read in (:mod:`.shape`), written back turn for turn
when this format read it, else linearized (:func:`.turns.linearize`) into a request the
API accepts. What differs is the format's :class:`Dialect` (its words) and its
:class:`ChatWriter` (how turns become its messages, request and response).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    no_place_for_message_facts,
    report_foreign_extra,
    report_message_metadata,
    report_unplaced,
)
from providers.formats._kit.extra import Namespace
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message

from .blocks import take_answer, thread
from .parameters import ParameterSpec
from .shape import SHAPES, enveloped
from .turns import Turn, linearize, turns_as_read


@dataclass(frozen=True)
class Dialect:
    """One chat API's words: its ``extra`` namespace and label, the model filled in when
    none is named, its sampling parameters, the tool call ids it takes (``valid_call_id``)
    and how one is made from a hash (``make_call_id``)."""

    ns: Namespace
    label: str
    default_model: str
    parameters: tuple[ParameterSpec, ...]
    valid_call_id: Callable[[str], bool]
    make_call_id: Callable[[str], str]

    def context(self, *, faithful: bool) -> RenderContext:
        """A render context for this format."""
        return RenderContext.create(self.ns, self.label, faithful=faithful)


class ChatWriter(Protocol):
    """How one format writes turns as its messages, its request and its response."""

    def messages(self, turns: list[Turn]) -> list[dict[str, Any]]:
        """The ``messages`` array for ``turns``."""

    def answer(self, turn: Turn) -> dict[str, Any]:
        """The message of a response for the answer's ``turn``."""

    def request(self, conversation: Conversation, messages: list[dict[str, Any]]) -> JSON:
        """The request body holding ``messages``."""

    def response(self, message: Message, wire: dict[str, Any]) -> dict[str, Any]:
        """The response holding ``wire``, the answer ``message`` written."""


def render_chat(
    conversation: Conversation,
    dialect: Dialect,
    writer_for: Callable[[RenderContext], ChatWriter],
) -> Rendered:
    """The payload for ``conversation`` and the warnings for what it could not carry."""
    shape = dialect.ns.hint(conversation.extra, "shape")
    ctx = dialect.context(faithful=shape in SHAPES)
    report_foreign_extra(conversation.extra, "", ctx)
    messages = thread(conversation, ctx)
    answer, shape = take_answer(messages, shape)
    if shape in ("messages", "response"):
        report_unplaced(conversation, messages if shape == "response" else [], ctx.drift)
    if ctx.faithful:
        turns = turns_as_read(messages, ctx) if shape != "response" else []
    else:
        no_place = no_place_for_message_facts(f"a {dialect.label} request")
        report_message_metadata(messages, ctx.drift, no_place)
        turns = linearize(messages, ctx, dialect.valid_call_id, dialect.make_call_id)
    writer = writer_for(ctx)
    wire = writer.messages(turns)
    payload = wire if shape in ("messages", "response") else writer.request(conversation, wire)
    response = None
    if answer is not None:
        response = writer.response(answer[1], writer.answer(turns_as_read([answer], ctx)[0]))
    return Rendered(
        enveloped(conversation, dialect.ns, shape, payload, response), ctx.drift.warnings
    )
