"""``forge``: Forge's plain role/content messages (seed 002), tool calls written in the text.

Messages are ``{"role": "system" | "user" | "assistant" | "tool", "content": <text>}``. An
assistant's text may hold bracketed thinking lines and ``<tool>`` calls (pure XML with
CDATA, or the deprecated JSON form); a tool message is ``Tool: <name>`` followed by the
result (``Error: ...`` for a failure). ``_parse`` and ``_text`` describe the reading; a
payload read here is written back byte for byte.

What does not travel into Forge, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
tool-call ids                                   dropped (results follow their call by tool
                                                name): ``id-rewritten`` (info), one per call
a result that does not name its tool, or names  ``tool``, ``parameter-defaulted``
it blank or over lines
tool results inside other messages              ``Tool:`` messages of their own, after an
                                                assistant's message, before any other;
                                                ``message-reordered`` (info) for each one
                                                that jumps over the message's text
tool messages that answer no call               user messages, ``content-type-unsupported``
thinking signatures / encrypted data            text kept, ``signature-stripped``
thinking with no text; thinking outside an      ``reasoning-dropped``
assistant message; ``reasoning`` fields
images, audio, documents (but text documents)   ``content-dropped``
refusals, text documents                        text, ``content-type-unsupported``
citations; a message ``name``                   ``content-dropped`` (the name as info)
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================

Tool arguments are written as XML when they read back as the same JSON (string values,
objects, lists of two or more); anything else (numbers, booleans, nulls) uses the JSON
form, which carries them exactly.
"""

from __future__ import annotations

from pydantic import ValidationError

from providers.formats import register
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._parse import ParseState, parse_payload
from ._render import render_conversation
from ._shared import FORMAT_ID, ROLES
from ._text import Call as _Call
from ._text import read_assistant, read_result

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an array of Forge messages, one message or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    state = ParseState()
    try:
        conversation, shape = parse_payload(payload, state)
    except ValidationError as error:  # a value the readers let through that UMF refuses
        first = error.errors()[0]
        raise FormatError(first["msg"], field=".".join(str(p) for p in first["loc"])) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation, state.drift.warnings)]


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as Forge messages (see the module docstring)."""
    return render_conversation(conversation)


def detect(payload: JSON) -> int:
    """2 for Forge's marks (a ``<tool>`` call in an assistant's text, a ``Tool: <name>``
    tool message, Go's ``Role`` / ``Content`` keys), 1 for plain role/text messages,
    else 0."""
    if isinstance(payload, list):
        return _score_messages(payload)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload or "response" in payload:
        scores = (_score_messages(payload.get("request")), _score_message(payload.get("response")))
        return 0 if min(scores) == 0 else max(scores)
    return _score_message(payload)


def _score_messages(messages: JSON) -> int:
    if not isinstance(messages, list) or not messages:
        return 0
    scores = [_score_message(message) for message in messages]
    return 0 if min(scores) == 0 else max(scores)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict):
        return 0
    keys = set(message)
    if keys == {"Role", "Content"}:
        go = True
    elif keys == {"role", "content"}:
        go = False
    else:
        return 0
    role, text = (
        (message["Role"], message["Content"]) if go else (message["role"], message["content"])
    )
    if role not in ROLES or not isinstance(text, str):
        return 0
    if go or (role == "tool" and read_result(text) is not None):
        return 2
    if role == "assistant" and "<tool>" in text:
        return 2 if any(isinstance(piece, _Call) for piece in read_assistant(text)) else 1
    return 1


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="Forge messages",
        capabilities=Capabilities(
            roles=frozenset(ROLES),
            blocks=frozenset({"text", "tool_use", "tool_result", "thinking"}),
            tools=False,
            tool_choice=False,
            parameters=frozenset(),
            reasoning_signatures=False,
            usage=False,
        ),
        parse=parse,
        render=render,
        detect=detect,
    )
)
