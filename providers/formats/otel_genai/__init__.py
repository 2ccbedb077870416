"""``otel-genai``: the OpenTelemetry GenAI semantic conventions' messages.

``parse`` takes span attributes holding ``gen_ai.system_instructions`` /
``gen_ai.input.messages`` / ``gen_ai.output.messages`` (as JSON values or, as on spans,
JSON strings), a span object whose ``attributes`` hold them, a list of either (one
conversation each, keyed by ``gen_ai.conversation.id`` when there is one), or a bare list
of input messages (``{role, parts}``). How attributes and parts are read is in ``_parse``
and ``_parts``. A conversation read from this format comes back exactly as it was read.

Any other conversation becomes span attributes, with these warnings:

==============================================  ==============================================
thinking with a signature or encrypted data     ``reasoning`` part, ``signature-stripped``
redacted thinking                               ``reasoning-dropped``
tool result error flag                          the non-standard part property ``is_error``,
                                                ``capability-unsupported`` (info)
documents                                       ``blob``/``uri``/``file`` with modality
                                                ``document`` (``content-type-unsupported``,
                                                info); plain text as a text part (warning)
refusals                                        text, ``content-type-unsupported``
citations                                       ``content-dropped``
developer messages                              role system, ``system-message-transformed``
tool_choice, user, parallel_tool_calls, stream  ``parameter-unsupported``
custom parameters
other branches of a tree                        ``content-dropped`` per message
an answer with usage but no finish reason       an output message all the same, its required
                                                ``finish_reason`` synthesized (``tool_call``
                                                when it makes calls, else ``stop``),
                                                ``parameter-defaulted``
other formats' fields                           ``field-unknown`` (info)
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata (but the output's   messages
response id, model, finish reason and usage)
==============================================  ==============================================

Message ids and timestamps have no standard place; only the answer's response id, model,
finish reason and usage have attributes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from providers.formats import register
from providers.formats._archive import check_depth, checked, entry_error, read_entries
from providers.formats._common import hint, require_mapping, unknown_fields
from providers.formats.base import Capabilities, Drift, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._parse import INPUT, State, is_gen_ai, parse_attributes, parse_messages
from ._parts import FORMAT_ID, hints
from ._render import Context, render_attributes

__all__ = ["FORMAT", "FORMAT_ID", "detect", "iter_parse", "parse", "render", "render_many"]

_PART_TYPES = {"text", "reasoning", "tool_call", "tool_call_response", "blob", "uri", "file"}
_PART_TYPES |= {"server_tool_call", "server_tool_call_response"}


# --------------------------------------------------------------------------- parse


def parse(payload: JSON) -> list[ParseResult]:
    """One conversation per span (or attributes object) of a list, or of the one given;
    a bare message list is one conversation."""
    if isinstance(payload, list) and payload and _is_message(payload[0]):
        return [parse_one(payload, "")]
    if isinstance(payload, list):
        results = [parse_one(item, f"[{index}]") for index, item in enumerate(payload)]
        for result in results:
            result.conversation.extra[FORMAT_ID]["$file"] = "list"
        if not results:
            raise FormatError("no spans", field="payload")
        return results
    return [parse_one(payload, "")]


def _is_message(value: JSON) -> bool:
    return isinstance(value, dict) and "parts" in value and "role" in value


def parse_one(value: JSON, path: str) -> ParseResult:
    """The conversation of one span, attributes object or message list."""
    check_depth(value, path or "payload")
    return checked(lambda: _parse_one(value, path), path)


def _parse_one(value: JSON, path: str) -> ParseResult:
    drift = Drift(FORMAT_ID)
    if isinstance(value, list):
        messages = parse_messages(value, path or "payload", State(drift), output=False)
        conversation = Conversation(
            messages=messages, extra=hints({}, shape="messages", keys=[INPUT])
        )
        return ParseResult(conversation, drift.warnings)
    span = require_mapping(value, path or "payload")
    shape, source = "attributes", span
    if not is_gen_ai(span) and isinstance(span.get("attributes"), dict):
        shape, source = "span", span["attributes"]
    if not is_gen_ai(source):
        raise FormatError(
            "not GenAI span attributes: expected gen_ai.input.messages, "
            "gen_ai.output.messages or gen_ai.system_instructions",
            field=f"{path}.{INPUT}" if path else INPUT,
        )
    attributes_path = (
        ("attributes" if not path else f"{path}.attributes") if shape == "span" else path
    )
    conversation = parse_attributes(source, attributes_path, drift)
    own = conversation.extra.setdefault(FORMAT_ID, {})
    own["$shape"] = shape
    if shape == "span":
        own["$span"] = unknown_fields(span, ("attributes",), path=path)
    key = source.get("gen_ai.conversation.id")
    return ParseResult(conversation, drift.warnings, key=key if isinstance(key, str) else None)


# --------------------------------------------------------------------------- render


def render(conversation: Conversation) -> Rendered:
    """The span (or attributes, or message list) the conversation was read from; for
    conversations of other formats, span attributes."""
    rendered = render_entry(conversation)
    if hint(conversation.extra, FORMAT_ID, "file") == "list":
        rendered.payload = [rendered.payload]
    return rendered


def render_many(conversations: Sequence[Conversation]) -> Rendered:
    """A list of spans, one per conversation (a file of one is :func:`render`)."""
    if len(conversations) == 1:
        return render(conversations[0])
    items, warnings = [], []
    for conversation in conversations:
        rendered = render_entry(conversation)
        items.append(rendered.payload)
        warnings.extend(rendered.warnings)
    return Rendered(items, warnings)


def render_entry(conversation: Conversation) -> Rendered:
    """One span's worth: attributes, a span or a message list, as the conversation was
    read (attributes for other formats' conversations)."""
    shape = hint(conversation.extra, FORMAT_ID, "shape")
    ctx = Context(Drift(FORMAT_ID), faithful=shape in ("attributes", "span", "messages"))
    attributes = render_attributes(conversation, ctx)
    payload: Any = attributes
    if shape == "span":
        payload = {**hint(conversation.extra, FORMAT_ID, "span", {}), "attributes": attributes}
    elif shape == "messages":
        payload = attributes.get(INPUT, [])
    return Rendered(payload, ctx.drift.warnings)


# --------------------------------------------------------------------------- files


def iter_parse(binary: BinaryIO) -> Iterator[ParseResult | FormatError]:
    """The spans of a JSON array or JSON Lines file (or the one span of a file), one at
    a time; a span that cannot be read is a :class:`FormatError` naming its position."""
    for entry in read_entries(binary):
        if entry.error is not None:
            yield entry.error
            continue
        try:
            result = parse_one(entry.value, entry.position)
        except FormatError as error:
            yield entry_error(error, entry.value, "gen_ai.conversation.id")
            continue
        if entry.position != "file":
            result.conversation.extra[FORMAT_ID]["$file"] = "list"
        yield result


# --------------------------------------------------------------------------- detect


def detect(payload: JSON) -> int:
    """2 for GenAI attributes, spans holding them, lists of them, and message lists whose
    parts are all typed GenAI parts; else 0."""
    if isinstance(payload, list) and payload and _is_message(payload[0]):
        return 2 if all(_is_otel_message(message) for message in payload) else 0
    items = payload if isinstance(payload, list) else [payload]
    if not items:
        return 0
    for item in items[:20]:
        attributes = item.get("attributes") if isinstance(item, dict) else None
        if not is_gen_ai(item) and not is_gen_ai(attributes):
            return 0
    return 2


def _is_otel_message(message: JSON) -> bool:
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        return False
    parts = message.get("parts")
    return isinstance(parts, list) and all(
        isinstance(part, dict) and part.get("type") in _PART_TYPES for part in parts
    )


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="OpenTelemetry GenAI messages",
        capabilities=Capabilities(
            roles=frozenset({"system", "user", "assistant", "tool"}),
            blocks=frozenset(
                {"text", "image", "document", "audio", "tool_use", "tool_result", "thinking"}
            ),
            tools=True,
            tool_choice=False,
            parameters=frozenset(
                {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
                | {"frequency_penalty", "presence_penalty"}
            ),
            reasoning_signatures=False,
            usage=True,
            multi_conversation=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        render_many=render_many,
        iter_parse=iter_parse,
    )
)
