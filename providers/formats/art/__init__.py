"""``art``: the ART framework's ``ArtStandardMessage`` / ``ArtStandardPrompt`` (seed 004).

A message is ``{"role", "content": string | object | null, "name"?, "tool_call_id"?,
"tool_calls"?: [{"id", "type": "function", "function": {"name", "arguments": <JSON
string>}}]}`` with roles ``system``, ``user``, ``assistant``, ``tool_request`` and
``tool_result`` (and ``tool``, which ART's own schema accepts as a result). Payload shapes
and how messages map are described in ``_parse``.

What does not travel into ART, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
thinking blocks, ``reasoning``, details         ``reasoning-dropped``
images, audio, documents (but text documents)   ``content-dropped``
refusals, text documents                        text, ``content-type-unsupported``
citations                                       ``content-dropped``
tool calls outside assistant messages           ``content-dropped``
tool results inside other messages              their own ``tool_result`` messages, after
                                                an assistant's message, before any other;
                                                ``message-reordered`` (info) for each one
                                                that jumps over the message's content
tool result ``is_error``                        "Error: " text, ``capability-unsupported``
a tool message that answers no call             a user message, ``content-type-unsupported``
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================

Text blocks of one message are joined with newlines (ART content is one string).
"""

from __future__ import annotations

from pydantic import ValidationError

from providers.formats import register
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._parse import RESULT_ROLES, parse_payload
from ._render import render_conversation
from ._shared import FORMAT_ID, ROLES

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]

_MESSAGE_KEYS = {"role", "content", "name", "tool_call_id", "tool_calls"}
_ART_ONLY_ROLES = {"tool_request", "tool_result"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an ArtStandardPrompt, one ArtStandardMessage or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    try:
        conversation, shape = parse_payload(payload)
    except ValidationError as error:  # a value the readers let through that UMF refuses
        first = error.errors()[0]
        raise FormatError(first["msg"], field=".".join(str(p) for p in first["loc"])) from None
    conversation.extra.setdefault(FORMAT_ID, {})["$shape"] = shape
    return [ParseResult(conversation)]


def render(conversation: Conversation) -> Rendered:
    """Write ``conversation`` as ART JSON (see the module docstring)."""
    return render_conversation(conversation)


def detect(payload: JSON) -> int:
    """2 when a message has a role only ART uses (``tool_request``, ``tool_result``), 1 for
    role/content messages that fit, else 0."""
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
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    if "content" not in message or set(message) - _MESSAGE_KEYS:
        return 0
    if not isinstance(message["content"], str | dict | None):
        return 0
    if message["role"] in RESULT_ROLES and not isinstance(message.get("tool_call_id"), str):
        return 0
    return 2 if message["role"] in _ART_ONLY_ROLES else 1


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="ART ArtStandardMessage",
        capabilities=Capabilities(
            roles=frozenset({"system", "user", "assistant", "tool"}),
            blocks=frozenset({"text", "tool_use", "tool_result"}),
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
